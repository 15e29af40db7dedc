package io.hops.namenode.ops.snapshot;

import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * Whether the snapshot calls are served ({@value NamenodeConfig#SNAPSHOTS_ENABLED}) and HDFS's
 * per-directory limit ({@value DFSConfigKeys#DFS_NAMENODE_SNAPSHOT_MAX_LIMIT}) and the entries of a
 * page of a diff report ({@value DFSConfigKeys#DFS_NAMENODE_SNAPSHOT_DIFF_LISTING_LIMIT}) and the
 * entries the kept diff walks hold ({@value NamenodeConfig#SNAPSHOT_DIFF_CURSOR_ENTRIES}), read
 * once at start.
 */
public record SnapshotSettings(
    boolean enabled, int maxPerDirectory, int diffListingLimit, int diffCursorEntries) {
  /**
   * HDFS's snapshot quota of a snapshottable directory (DirectorySnapshottableFeature): no call
   * changes it, so every snapshottable directory has it; the root, which HDFS always makes
   * snapshottable, has 0 until it is allowed.
   */
  public static final int QUOTA = 1 << 16;

  public static SnapshotSettings of(Configuration conf) {
    return new SnapshotSettings(
        conf.getBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, NamenodeConfig.SNAPSHOTS_ENABLED_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_MAX_LIMIT,
            DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_MAX_LIMIT_DEFAULT),
        Math.max(
            1,
            conf.getInt(
                DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_DIFF_LISTING_LIMIT,
                DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_DIFF_LISTING_LIMIT_DEFAULT)),
        conf.getInt(
            NamenodeConfig.SNAPSHOT_DIFF_CURSOR_ENTRIES,
            NamenodeConfig.SNAPSHOT_DIFF_CURSOR_ENTRIES_DEFAULT));
  }
}
