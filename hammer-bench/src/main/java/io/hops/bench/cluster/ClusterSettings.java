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
 * @param datanodes stock DataNodes to start (0: none); each reports to every namenode
 * @param namenodes hops namenode processes over one MariaDB, reached through hops-client's failover
 *     proxy provider as one HA nameservice; null for the single namenode reached by its address
 * @param smallFiles hops keeps small files in the database: the namenode with {@code
 *     hops.smallfiles.db-by-default}, the clients with hops-client's {@code
 *     HopsDistributedFileSystem} (DESIGN.md §10)
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
    int datanodes,
    Integer namenodes,
    boolean smallFiles) {

  /** How long a namenode may take to serve, and a datanode to register. */
  static final long STARTUP_SECONDS = 120;

  static final long DATANODE_SECONDS = 45;
}
