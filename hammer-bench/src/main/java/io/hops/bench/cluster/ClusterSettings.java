package io.hops.bench.cluster;

import java.nio.file.Path;

/**
 * How the benchmark starts the systems it compares: the same heap for every namenode, everything on
 * the loopback address, data under {@code workDir}.
 *
 * @param heap the namenodes' {@code -Xmx}, e.g. {@code 4g}
 * @param handlers {@code dfs.namenode.handler.count} for every namenode; null: each system's stock
 *     default
 * @param workDir metadata, edit logs and block data
 * @param logDir the processes' logs and configuration directories
 * @param classpath for the processes: the benchmark's own (it holds hops and hadoop-hdfs)
 * @param store the hops metadata store: {@code embedded} or {@code mariadb}
 * @param jdbcUrl with {@code mariadb}: the database (user and password alongside)
 * @param datanodes stock DataNodes to start (0: none); each reports to every namenode
 * @param namenodes hops namenode processes over one MariaDB, reached through hops-client's failover
 *     proxy provider as one HA nameservice; null for the single namenode reached by its address
 * @param smallFiles hops keeps small files in the database: the namenode with {@code
 *     hops.smallfiles.db-by-default}, the clients with hops-client's {@code
 *     HopsDistributedFileSystem} (docs/architecture.md, "Small files in the database")
 * @param namenodeSettings written into every namenode's configuration, hops and HDFS alike, after
 *     the benchmark's own (a key a system does not know is ignored by it)
 * @param kerberos with {@code --secure}: the run's KDC and secure settings, for every namenode,
 *     datanode and client alike; null: simple authentication
 */
public record ClusterSettings(
    String heap,
    Integer handlers,
    Path workDir,
    Path logDir,
    String classpath,
    String store,
    String jdbcUrl,
    String jdbcUser,
    String jdbcPassword,
    int datanodes,
    Integer namenodes,
    boolean smallFiles,
    java.util.Map<String, String> namenodeSettings,
    BenchKerberos kerberos) {

  public ClusterSettings {
    namenodeSettings = java.util.Map.copyOf(namenodeSettings);
  }

  /** How long a namenode may take to serve, and a datanode to register. */
  static final long STARTUP_SECONDS = 120;

  static final long DATANODE_SECONDS = 45;

  /**
   * Sets {@code dfs.namenode.handler.count} in {@code hdfs} unless the system's stock default is
   * wanted; returns the count its namenode runs ({@code stock}, if not set).
   */
  int handlers(java.util.Map<String, String> hdfs, int stock) {
    if (handlers != null) {
      hdfs.put("dfs.namenode.handler.count", String.valueOf(handlers));
    }
    return handlersOr(stock);
  }

  /**
   * Adds {@link #namenodeSettings} to a namenode's {@code hdfs} settings, and to its facts when
   * there are any.
   */
  void addNamenodeSettings(
      java.util.Map<String, String> hdfs, java.util.Map<String, String> facts) {
    if (namenodeSettings.isEmpty()) {
      return;
    }
    hdfs.putAll(namenodeSettings);
    facts.put("namenode settings", new java.util.TreeMap<>(namenodeSettings).toString());
  }

  /**
   * Adds the secure settings of a run with {@link #kerberos} to a namenode's or datanode's ({@code
   * datanode}) {@code hdfs} settings, and says so in its facts.
   */
  void addSecurity(
      java.util.Map<String, String> hdfs, java.util.Map<String, String> facts, boolean datanode) {
    if (kerberos == null) {
      return;
    }
    hdfs.putAll(kerberos.serverKeys());
    if (datanode) {
      hdfs.putAll(kerberos.datanodeKeys());
    } else {
      facts.put("security", kerberos.describe());
    }
  }

  /** The JVM options of a namenode or datanode process with {@code base} options. */
  java.util.List<String> serverJvm(java.util.List<String> base) {
    if (kerberos == null) {
      return base;
    }
    java.util.List<String> jvm = new java.util.ArrayList<>(base);
    jvm.addAll(kerberos.jvmOptions());
    return jvm;
  }

  /** What a client of the started systems adds to its configuration. */
  java.util.Map<String, String> clientSecurity() {
    return kerberos == null ? java.util.Map.of() : kerberos.clientKeys();
  }

  /** The handler count a namenode runs whose stock default is {@code stock}. */
  int handlersOr(int stock) {
    return handlers == null ? stock : handlers;
  }

  /** What a report says of a namenode running {@code count} handlers. */
  String handlersFact(int count) {
    return count + (handlers == null ? " (stock default)" : "");
  }
}
