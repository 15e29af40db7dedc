package io.hops.namenode.cli;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.Credentials;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * What {@code hops cluster --secure} adds to a local cluster (docs/security.md, "Try it"): an
 * embedded KDC (Hadoop's MiniKdc, Apache Kerby), keytabs, a {@code krb5.conf}, a keystore for the
 * datanodes' HTTPS, the server settings (Kerberos RPC, block tokens, SASL data transfer, SPNEGO on
 * the web UI) and a client configuration directory with a delegation token file, all under {@code
 * DATA_DIR/secure}. One process has one Kerberos login, so the namenodes and the datanodes of the
 * cluster share the service principal {@code hdfs/localhost}; in production each host has its own.
 */
public final class SecureLocalCluster implements AutoCloseable {
  public static final String SERVICE = "hdfs/localhost";
  static final String HTTP = "HTTP/localhost";
  private static final String STORE_PASSWORD = "hops-local";

  private final MiniKdc kdc;
  private final File dir;
  private final File serviceKeytab;
  private final File userKeytab;
  private final String user;

  private SecureLocalCluster(MiniKdc kdc, File dir, File serviceKeytab, File userKeytab, String u) {
    this.kdc = kdc;
    this.dir = dir;
    this.serviceKeytab = serviceKeytab;
    this.userKeytab = userKeytab;
    this.user = u;
  }

  /**
   * Starts the KDC in {@code dataDir/secure/kdc} (new keys at each start: the keytabs are written
   * again), with the service principals and one for the user running the command.
   */
  public static SecureLocalCluster start(File dataDir) throws Exception {
    File dir = new File(dataDir, "secure").getAbsoluteFile();
    File kdcDir = new File(dir, "kdc");
    if (!kdcDir.isDirectory() && !kdcDir.mkdirs()) {
      throw new IOException("cannot create " + kdcDir);
    }
    MiniKdc kdc = new MiniKdc(MiniKdc.createConf(), kdcDir);
    kdc.start(); // also points this JVM at its krb5.conf (java.security.krb5.conf)
    try {
      String user = System.getProperty("user.name");
      File service = new File(dir, "hdfs.keytab");
      File userKeytab = new File(dir, user + ".keytab");
      Files.deleteIfExists(service.toPath());
      Files.deleteIfExists(userKeytab.toPath());
      kdc.createPrincipal(service, SERVICE, HTTP);
      kdc.createPrincipal(userKeytab, user);
      Files.copy(
          kdc.getKrb5conf().toPath(),
          new File(dir, "krb5.conf").toPath(),
          StandardCopyOption.REPLACE_EXISTING);
      return new SecureLocalCluster(kdc, dir, service, userKeytab, user);
    } catch (Exception | Error e) {
      kdc.stop();
      throw e;
    }
  }

  public String principal(String name) {
    return name + "@" + kdc.getRealm();
  }

  /**
   * Kerberos, block tokens, SASL data transfer and SPNEGO, set in {@code conf} for every daemon.
   */
  public void secure(Configuration conf) {
    conf.set("hadoop.security.authentication", "kerberos");
    conf.setBoolean("hadoop.security.authorization", true);
    conf.set("hadoop.rpc.protection", "authentication");
    conf.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, principal(SERVICE));
    conf.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, serviceKeytab.getPath());
    conf.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, principal(SERVICE));
    conf.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, serviceKeytab.getPath());
    conf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    conf.set("hadoop.http.authentication.type", "kerberos");
    conf.set("hadoop.http.authentication.kerberos.principal", principal(HTTP));
    conf.set("hadoop.http.authentication.kerberos.keytab", serviceKeytab.getPath());
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, principal(HTTP));
    conf.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, serviceKeytab.getPath());
    UserGroupInformation.setConfiguration(conf);
  }

  /**
   * The datanodes' settings: {@code conf} with HTTPS only (a secure DataNode on unprivileged ports
   * requires it), from a keystore made by the JDK's keytool; the keystore settings are read from
   * the configuration itself, as Hadoop's SSLFactory does when no ssl-server.xml is on the
   * classpath.
   */
  public Configuration datanodes(Configuration conf) throws IOException, InterruptedException {
    File keystore = new File(dir, "datanode.jks");
    if (!keystore.isFile()) {
      keytool(
          "-genkeypair",
          "-alias",
          "hops",
          "-keyalg",
          "RSA",
          "-keysize",
          "2048",
          "-validity",
          "3650",
          "-dname",
          "CN=localhost",
          "-keystore",
          keystore.getPath(),
          "-storepass",
          STORE_PASSWORD,
          "-keypass",
          STORE_PASSWORD,
          "-storetype",
          "JKS");
    }
    Configuration c = new Configuration(conf);
    c.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, "HTTPS_ONLY");
    c.set("dfs.datanode.https.address", "127.0.0.1:0");
    c.set("ssl.server.keystore.location", keystore.getPath());
    c.set("ssl.server.keystore.password", STORE_PASSWORD);
    c.set("ssl.server.keystore.keypassword", STORE_PASSWORD);
    c.set("ssl.server.keystore.type", "jks");
    return c;
  }

  private static void keytool(String... args) throws IOException, InterruptedException {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/keytool").getPath());
    cmd.addAll(List.of(args));
    Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
    String out = new String(p.getInputStream().readAllBytes());
    if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
      throw new IOException("keytool failed: " + out);
    }
  }

  /**
   * Writes the client's {@code conf/core-site.xml} and {@code hdfs-site.xml} for {@code namenodes}
   * (client settings of {@code nameservice}: fs.defaultFS and, for several namenodes, the
   * nameservice's keys), gives the user a home directory, and writes a delegation token of the user
   * to {@code DATA_DIR/secure/<user>.token} for clients without kinit.
   */
  void writeClientFiles(Map<String, String> nameservice, URI first) throws Exception {
    File conf = new File(dir, "conf");
    if (!conf.isDirectory() && !conf.mkdirs()) {
      throw new IOException("cannot create " + conf);
    }
    Configuration core = new Configuration(false);
    core.set("hadoop.security.authentication", "kerberos");
    core.set("hadoop.rpc.protection", "authentication");
    nameservice.forEach(core::set);
    Configuration hdfs = new Configuration(false);
    hdfs.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, principal(SERVICE));
    hdfs.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, "authentication");
    write(core, new File(conf, "core-site.xml"));
    write(hdfs, new File(conf, "hdfs-site.xml"));

    Configuration client = new Configuration();
    core.forEach(e -> client.set(e.getKey(), e.getValue()));
    hdfs.forEach(e -> client.set(e.getKey(), e.getValue()));
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    // The superuser (this process's login) makes the user's home directory.
    try (FileSystem fs = FileSystem.newInstance(first, client)) {
      Path home = new Path("/user/" + user);
      fs.mkdirs(home);
      fs.setOwner(home, user, null);
    }
    UserGroupInformation ugi =
        UserGroupInformation.loginUserFromKeytabAndReturnUGI(principal(user), userKeytab.getPath());
    ugi.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              try (FileSystem fs = FileSystem.newInstance(first, client)) {
                Credentials creds = new Credentials();
                fs.addDelegationTokens(user, creds);
                creds.writeTokenStorageFile(new Path(tokenFile().toURI()), client);
              }
              return null;
            });
  }

  private static void write(Configuration c, File f) throws IOException {
    try (OutputStream out = Files.newOutputStream(f.toPath())) {
      c.writeXml(out);
    }
  }

  /** The keytab of the service principals ({@link #SERVICE} and {@link #HTTP}). */
  public File serviceKeytab() {
    return serviceKeytab;
  }

  /** The KDC's {@code krb5.conf}, for other processes' {@code java.security.krb5.conf}. */
  public File krb5Conf() {
    return new File(dir, "krb5.conf");
  }

  File tokenFile() {
    return new File(dir, user + ".token");
  }

  /** The lines a user runs to use the cluster with the stock {@code hdfs} shell. */
  List<String> instructions() {
    String krb5 = new File(dir, "krb5.conf").getPath();
    return List.of(
        "kerberos   realm "
            + kdc.getRealm()
            + ", KDC on port "
            + kdc.getPort()
            + ", files in "
            + dir,
        "use it with the stock hdfs shell (Hadoop 3), in another terminal:",
        "  export KRB5_CONFIG=" + krb5,
        "  export HADOOP_CONF_DIR=" + new File(dir, "conf").getPath(),
        "  export HADOOP_OPTS=-Djava.security.krb5.conf=" + krb5,
        "  kinit -kt " + userKeytab.getPath() + " " + principal(user),
        "  hdfs dfs -ls /user/" + user,
        "or, without kinit (Java only: a delegation token of " + user + " instead of a ticket):",
        "  export HADOOP_TOKEN_FILE_LOCATION=" + tokenFile().getPath());
  }

  @Override
  public void close() {
    kdc.stop();
  }
}
