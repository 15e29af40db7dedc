package io.hops.namenode.web;

import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.server.KerberosAuthenticationHandler;
import org.apache.hadoop.security.authentication.server.PseudoAuthenticationHandler;

/**
 * The settings of the web server's authentication filter ({@code hadoop.http.authentication.*}),
 * completed before HDFS's template reads them: what {@code core-default.xml} would give a
 * configuration that skipped the defaults, and HDFS's SPNEGO keys ({@code
 * dfs.web.authentication.kerberos.principal}, {@code .keytab}) where Hadoop's own are not set.
 */
final class WebAuthentication {
  static final String PREFIX = "hadoop.http.authentication.";
  static final String TYPE = PREFIX + "type";
  static final String ANONYMOUS = PREFIX + PseudoAuthenticationHandler.ANONYMOUS_ALLOWED;
  static final String PRINCIPAL = PREFIX + KerberosAuthenticationHandler.PRINCIPAL;
  static final String KEYTAB = PREFIX + KerberosAuthenticationHandler.KEYTAB;

  private WebAuthentication() {}

  static void settle(Configuration conf) {
    if (conf.get(TYPE) == null) {
      // HDFS's AuthFilterInitializer picks the same; HttpServer2 needs it spelled out.
      conf.set(
          TYPE,
          UserGroupInformation.isSecurityEnabled()
              ? KerberosAuthenticationHandler.TYPE
              : PseudoAuthenticationHandler.TYPE);
    }
    if (conf.get(ANONYMOUS) == null) {
      conf.setBoolean(ANONYMOUS, true);
    }
    fallBack(conf, PRINCIPAL, DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY);
    fallBack(conf, KEYTAB, DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY);
  }

  private static void fallBack(Configuration conf, String key, String hdfsKey) {
    String hdfs = conf.getTrimmed(hdfsKey);
    if (hdfs != null && !hdfs.isEmpty() && NamenodeConfig.isDefault(conf, key)) {
      conf.set(key, hdfs);
    }
  }
}
