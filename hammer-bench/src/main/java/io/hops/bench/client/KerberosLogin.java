package io.hops.bench.client;

import java.io.IOException;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * A client JVM's Kerberos login for a secure run ({@code bench --secure}): from the keytab, as the
 * principal and with the {@code krb5.conf} that the client settings name. A login is the JVM's, so
 * it is made once, before the first file system is opened.
 */
public final class KerberosLogin {
  /** The keytab a client JVM logs in from. */
  public static final String KEYTAB = "hops.bench.kerberos.keytab";

  /** The principal a client JVM logs in as. */
  public static final String PRINCIPAL = "hops.bench.kerberos.principal";

  /** The KDC's {@code krb5.conf}. */
  public static final String KRB5_CONF = "hops.bench.kerberos.krb5-conf";

  private static String loggedIn;

  private KerberosLogin() {}

  /** Logs this JVM in if {@code settings} name a keytab and it has not logged in as named yet. */
  static synchronized void ensure(Map<String, String> settings) throws IOException {
    String keytab = settings.get(KEYTAB);
    if (keytab == null) {
      return;
    }
    String principal = settings.get(PRINCIPAL);
    if ((principal + " " + keytab).equals(loggedIn)) {
      return;
    }
    if (settings.get(KRB5_CONF) != null) {
      System.setProperty("java.security.krb5.conf", settings.get(KRB5_CONF));
    }
    Configuration conf = new Configuration();
    settings.forEach(conf::set);
    UserGroupInformation.setConfiguration(conf);
    UserGroupInformation.loginUserFromKeytab(principal, keytab);
    loggedIn = principal + " " + keytab;
  }
}
