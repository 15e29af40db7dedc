package io.hops.namenode.security;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's own identity, settled before anything reads it (the superuser is the login user's
 * short name): Hadoop's security settings applied to the process, and with {@code
 * hadoop.security.authentication=kerberos} a login from {@code dfs.namenode.keytab.file} as {@code
 * dfs.namenode.kerberos.principal}, {@code _HOST} standing for the RPC host's name, as HDFS's
 * NameNode logs in.
 */
public final class NamenodeLogin {
  private static final Logger LOG = LoggerFactory.getLogger(NamenodeLogin.class);

  private NamenodeLogin() {}

  /** Whether the configuration asks for Kerberos (anything but simple authentication). */
  public static boolean secure(Configuration conf) {
    return SecurityUtil.getAuthenticationMethod(conf) != AuthenticationMethod.SIMPLE;
  }

  /**
   * Applies the security settings ({@code hadoop.security.auth_to_local} among them) and logs in.
   * With simple authentication the process's user stays the namenode's user, as in HDFS; the
   * process-wide settings are left alone then, so a Kerberos login earlier in the JVM stands.
   */
  public static void login(Configuration conf, String rpcHost) throws IOException {
    if (!secure(conf)) {
      return;
    }
    UserGroupInformation.setConfiguration(conf);
    SecurityUtil.login(
        conf,
        DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY,
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        rpcHost);
    LOG.info(
        "logged in as {} (superuser {})",
        UserGroupInformation.getLoginUser().getUserName(),
        UserGroupInformation.getLoginUser().getShortUserName());
  }
}
