package io.hops.bench.cluster;

import java.nio.file.Path;

/**
 * How the benchmark starts the systems it compares: the same heap and RPC handler count for every
 * namenode, everything on the loopback address, data under {@code workDir}.
 *
 * @param heap the namenodes' {@code -Xmx}, e.g. {@code 4g}
 * @param handlers {@code dfs.namenode.handler.count} for every namenode
 * @param workDir metadata, edit logs and block data
 * @param logDir the processes' logs and configuration directories
 * @param classpath for the processes: the benchmark's own (it holds hops and hadoop-hdfs)
 * @param store the hops metadata store: {@code embedded} or {@code mariadb}
 * @param jdbcUrl with {@code mariadb}: the database (user and password alongside)
 * @param datanode whether to start a DataNode next to each namenode
 */
public record ClusterSettings(
    String heap,
    int handlers,
    Path workDir,
    Path logDir,
    String classpath,
    String store,
    String jdbcUrl,
    String jdbcUser,
    String jdbcPassword,
    boolean datanode) {

  /** How long a namenode may take to serve, and a datanode to register. */
  static final long STARTUP_SECONDS = 120;

  static final long DATANODE_SECONDS = 45;
}
