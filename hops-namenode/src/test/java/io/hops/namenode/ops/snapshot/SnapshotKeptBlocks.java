package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.SideBySide;
import io.hops.namenode.check.NamespaceCheck;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;

/** What the snapshot tests check of blocks kept for snapshots on hops's side. */
final class SnapshotKeptBlocks {
  private SnapshotKeptBlocks() {}

  /**
   * Settings of a side by side whose kept blocks are checked: snapshots on, and hops's housekeeping
   * rounds run only when asked ({@link #leaderRounds}).
   */
  static Configuration roundsWhenAsked() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    return conf;
  }

  /** As {@link #roundsWhenAsked}, with blocks as small as {@code blockSize} allowed. */
  static Configuration roundsWhenAskedWithBlocksOf(long blockSize) {
    Configuration conf = roundsWhenAsked();
    conf.setLong(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, blockSize);
    return conf;
  }

  /** The blocks of {@code path} now; none for a missing file. */
  static List<LocatedBlock> blocksOf(org.apache.hadoop.hdfs.DistributedFileSystem fs, String path)
      throws IOException {
    if (!fs.exists(new org.apache.hadoop.fs.Path(path))) {
      return List.of();
    }
    return fs.getClient().getLocatedBlocks(path, 0).getLocatedBlocks();
  }

  /** Whether each block is still stored on one of hops's datanodes. */
  static List<Boolean> stored(SideBySide both, List<LocatedBlock> blocks) throws IOException {
    List<Boolean> out = new ArrayList<>();
    for (LocatedBlock b : blocks) {
      boolean any = false;
      for (DataNode dn : both.hops.datanodes()) {
        try {
          any |=
              dn.getFSDataset()
                      .getStoredBlock(b.getBlock().getBlockPoolId(), b.getBlock().getBlockId())
                  != null;
        } catch (org.apache.hadoop.hdfs.server.datanode.ReplicaNotFoundException gone) {
          // deleted
        }
      }
      out.add(any);
    }
    return out;
  }

  /**
   * Runs housekeeping rounds until none of {@code blocks} is stored on a datanode any more (a
   * minute at the most), and asserts it.
   */
  static void awaitInvalidated(SideBySide both, List<LocatedBlock> blocks) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (stored(both, blocks).contains(true) && System.currentTimeMillis() < deadline) {
      leaderRounds(both);
      Thread.sleep(300);
    }
    org.assertj.core.api.Assertions.assertThat(stored(both, blocks))
        .as("released blocks on the datanode")
        .allMatch(s -> !s);
  }

  /** One round of every housekeeping service on both of hops's namenodes. */
  static void leaderRounds(SideBySide both) throws Exception {
    for (HopsNameNode nn : new HopsNameNode[] {both.hops.namenode(), both.other}) {
      nn.housekeeping().runOnce();
    }
  }

  /** What the namespace check finds wrong on hops's side. */
  static List<?> namespaceProblems(SideBySide both) throws Exception {
    return new NamespaceCheck(
            both.hops.namenode().namesystem().storage(), 10_000, line -> {}, owner -> true)
        .run();
  }

  /** The kept blocks are still on the datanode after the leader's rounds; the namespace checks. */
  static void assertKept(SideBySide both, List<LocatedBlock> kept) throws Exception {
    leaderRounds(both);
    assertThat(stored(both, kept)).as("kept blocks on the datanode").allMatch(s -> s);
    assertThat(namespaceProblems(both)).isEmpty();
  }

  /**
   * No kept file or hold is left, the kept blocks are invalidated on the datanode, no released row
   * is left, and the namespace checks.
   */
  static void assertReleased(SideBySide both, List<LocatedBlock> kept) throws Exception {
    try (Transaction tx = both.hops.namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(SnapshotKeptFileRow.TABLE, LockMode.READ_COMMITTED))
          .as("kept files and holds")
          .isEmpty();
    }
    awaitInvalidated(both, kept);
    try (Transaction tx = both.hops.namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(ReleasedFileRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
    assertThat(namespaceProblems(both)).isEmpty();
  }
}
