package io.hops.bench.cluster;

import io.hops.bench.client.KerberosLogin;
import io.hops.namenode.cli.SecureLocalCluster;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * {@code bench --secure PROTECTION}: one KDC for the run (Hadoop's MiniKdc, as {@code hops cluster
 * --secure} starts it) and the same secure settings for every system the benchmark starts, hops and
 * HDFS alike: Kerberos RPC with {@code hadoop.rpc.protection} = PROTECTION, service authorization,
 * block access tokens, SASL data transfer with {@code dfs.data.transfer.protection} = PROTECTION,
 * SPNEGO on HTTP and HTTPS-only datanodes (a secure DataNode on unprivileged ports needs both).
 *
 * <p>Every process logs in from one keytab as the service principal {@code hdfs/localhost}, the
 * clients included: without security the benchmark's clients are the user that started the
 * namenodes, i.e. their superuser, and so they are here (the short name {@code hdfs} of the
 * namenodes' own principal). The clients' JVMs log in from the settings that {@link KerberosLogin}
 * reads.
 *
 * <p>A Kerberos login is a JVM's, so the benchmark's own probes (is the namenode up, has the
 * datanode registered) use this JVM's login and {@link #probeKeys()}, set while a run is secure.
 */
public final class BenchKerberos implements AutoCloseable {
  private static final Set<String> PROTECTIONS = Set.of("authentication", "integrity", "privacy");

  private static volatile Map<String, String> probeKeys = Map.of();

  private final SecureLocalCluster kdc;
  private final String protection;
  private final Map<String, String> server = new LinkedHashMap<>();
  private final Map<String, String> datanode = new LinkedHashMap<>();
  private final Map<String, String> client = new LinkedHashMap<>();

  private BenchKerberos(SecureLocalCluster kdc, String protection) throws IOException {
    this.kdc = kdc;
    this.protection = protection;
    Configuration conf = new Configuration(false);
    kdc.secure(conf);
    conf.set("hadoop.rpc.protection", protection);
    conf.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, protection);
    conf.forEach(e -> server.put(e.getKey(), e.getValue()));
    try {
      Configuration dn = kdc.datanodes(conf);
      dn.forEach(
          e -> {
            if (!e.getValue().equals(server.get(e.getKey()))) {
              datanode.put(e.getKey(), e.getValue());
            }
          });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException("interrupted while making the datanodes' keystore", e);
    }
    String principal = kdc.principal(SecureLocalCluster.SERVICE);
    client.put("hadoop.security.authentication", "kerberos");
    client.put("hadoop.rpc.protection", protection);
    client.put(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, principal);
    client.put(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, protection);
    client.put(KerberosLogin.KEYTAB, kdc.serviceKeytab().getPath());
    client.put(KerberosLogin.PRINCIPAL, principal);
    client.put(KerberosLogin.KRB5_CONF, kdc.krb5Conf().getPath());
  }

  /**
   * Starts the KDC under {@code workDir/secure} and logs this JVM in, for a run whose RPC and data
   * transfer are protected at {@code protection} ({@code authentication}, {@code integrity} or
   * {@code privacy}).
   */
  public static BenchKerberos start(Path workDir, String protection) throws Exception {
    if (!PROTECTIONS.contains(protection)) {
      throw new IllegalArgumentException(
          "--secure takes authentication, integrity or privacy, not " + protection);
    }
    // The KDC logs every ticket it issues at INFO: not the benchmark's output.
    for (String quiet : List.of("org.apache.kerby", "org.apache.hadoop.minikdc")) {
      System.setProperty("org.slf4j.simpleLogger.log." + quiet, "warn");
    }
    SecureLocalCluster kdc = SecureLocalCluster.start(workDir.toFile());
    try {
      BenchKerberos k = new BenchKerberos(kdc, protection);
      Configuration login = new Configuration(false);
      k.server.forEach(login::set);
      UserGroupInformation.setConfiguration(login);
      UserGroupInformation.loginUserFromKeytab(
          kdc.principal(SecureLocalCluster.SERVICE), kdc.serviceKeytab().getPath());
      probeKeys = Map.copyOf(k.client);
      return k;
    } catch (Exception | Error e) {
      kdc.close();
      throw e;
    }
  }

  /** What every namenode and datanode adds to its configuration. */
  Map<String, String> serverKeys() {
    return server;
  }

  /** What a datanode adds on top of {@link #serverKeys()}: HTTPS only, its keystore. */
  Map<String, String> datanodeKeys() {
    return datanode;
  }

  /** What the clients add to their configuration. */
  Map<String, String> clientKeys() {
    return client;
  }

  /** The JVM options of every namenode and datanode process: the KDC's {@code krb5.conf}. */
  List<String> jvmOptions() {
    return List.of("-Djava.security.krb5.conf=" + kdc.krb5Conf().getPath());
  }

  /** The settings of this JVM's probes: empty unless a secure run is on. */
  static Map<String, String> probeKeys() {
    return probeKeys;
  }

  /** One line for the report. */
  String describe() {
    return "Kerberos (MiniKdc, realm "
        + kdc.principal("").substring(1)
        + "), hadoop.rpc.protection and dfs.data.transfer.protection = "
        + protection
        + ", block access tokens, service authorization, SPNEGO; clients log in as "
        + kdc.principal(SecureLocalCluster.SERVICE);
  }

  @Override
  public void close() {
    probeKeys = Map.of();
    kdc.close();
  }
}
