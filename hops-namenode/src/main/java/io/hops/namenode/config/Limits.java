package io.hops.namenode.config;

import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * The namespace limits every create, mkdirs and rename checks, read from the configuration once at
 * start, as HDFS's namenode reads them. Reading them per call took {@link Configuration}'s monitor
 * on every RPC handler.
 *
 * @param maxComponentLength {@code dfs.namenode.fs-limits.max-component-length} (0: no limit)
 * @param maxDirectoryItems {@code dfs.namenode.fs-limits.max-directory-items}
 * @param minReplication {@code dfs.namenode.replication.min}
 * @param maxReplication {@code dfs.replication.max}
 * @param minBlockSize {@code dfs.namenode.fs-limits.min-block-size}
 * @param listLimit {@code dfs.ls.limit}: entries per listing page (the default if not positive)
 * @param inodesInOneTx the most inodes one transaction of a subtree operation handles ({@link
 *     NamenodeConfig#inodesInOneTx}): every delete and rename is bounded by it
 */
public record Limits(
    int maxComponentLength,
    int maxDirectoryItems,
    int minReplication,
    int maxReplication,
    long minBlockSize,
    int listLimit,
    int inodesInOneTx) {

  public static Limits of(Configuration conf) {
    return new Limits(
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_KEY,
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_REPLICATION_MAX_KEY, DFSConfigKeys.DFS_REPLICATION_MAX_DEFAULT),
        conf.getLongBytes(
            DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY,
            DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_DEFAULT),
        positiveOr(
            conf.getInt(DFSConfigKeys.DFS_LIST_LIMIT, DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT),
            DFSConfigKeys.DFS_LIST_LIMIT_DEFAULT),
        NamenodeConfig.inodesInOneTx(conf));
  }

  private static int positiveOr(int value, int fallback) {
    return value > 0 ? value : fallback;
  }
}
