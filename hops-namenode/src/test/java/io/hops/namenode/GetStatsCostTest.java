package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.housekeeping.Housekeeping;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * {@code getStats} ({@code hdfs dfs -df}, {@code dfsadmin -report}) costs one batched read however
 * many blocks there are and however many are in trouble (before: full scans of four tables and
 * three reads for every marked block), and reports what the leader's census counted: 1,000 blocks
 * with no replica are missing once the census has paged through them, a page a round.
 */
class GetStatsCostTest {
  private static final int MARKED = 1000;
  private static final int PAGE = 100;

  /** The fewest storage accesses of five getStats calls (others' background work may add some). */
  private static AccessCounts getStatsCost(HopsTestCluster cluster, ClientProtocol nn)
      throws Exception {
    Storage storage = cluster.namenode().namesystem().storage();
    AccessCounts fewest = null;
    for (int i = 0; i < 5; i++) {
      AccessCounts before = storage.accessCounts();
      nn.getStats();
      AccessCounts spent = storage.accessCounts().minus(before);
      if (fewest == null || spent.total() < fewest.total()) {
        fewest = spent;
      }
    }
    return fewest;
  }

  @Test
  void getStatsCostsOneBatchWithAThousandBlocksInTroubleAndCountsThem() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, PAGE);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        DistributedFileSystem fs = cluster.client()) {
      ClientProtocol nn = fs.getClient().getNamenode();
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!cluster.namenode().namesystem().blocks().isLeader()) {
        assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      housekeeping.runOnce();
      AccessCounts empty = getStatsCost(cluster, nn);
      assertThat(empty.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
      assertThat(empty.total()).as(empty.toString()).isEqualTo(1);
      assertThat(nn.getStats()[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX]).isZero();

      // A file of 1,000 complete blocks that no datanode holds, each marked for a check.
      Path file = new Path("/stats/f");
      assertThat(fs.createNewFile(file)).isTrue();
      fs.setReplication(file, (short) 2);
      long inodeId = fileId(fs, file);
      Storage storage = cluster.namenode().namesystem().storage();
      long now = cluster.namenode().namesystem().blocks().now();
      try (Transaction tx = storage.begin()) {
        for (int i = 0; i < MARKED; i++) {
          long blockId = 1_000_000L + i;
          tx.insert(
              BlockInfoRow.TABLE,
              new BlockInfoRow(
                  inodeId, blockId, i, i * 1024L, 1024, 1001, BlockState.COMPLETE, now, -1, 0));
          tx.insert(
              UnderReplicatedBlockRow.TABLE,
              new UnderReplicatedBlockRow(inodeId, blockId, 0, now, -1));
        }
        tx.commit();
      }
      assertThat(getStatsCost(cluster, nn))
          .as("getStats with 1,000 marked blocks")
          .isEqualTo(empty);

      // The census reads a page a round and publishes at the end of its pass.
      int rounds = 0;
      while (nn.getStats()[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX] != MARKED) {
        assertThat(rounds).as("rounds to count 1,000 marked blocks").isLessThan(3 * MARKED / PAGE);
        AccessCounts before = storage.accessCounts();
        housekeeping.runOnce();
        AccessCounts spent = storage.accessCounts().minus(before);
        // A page of marks for the census, a page of them for the re-replication check.
        assertThat(spent.rowsRead()).as("rows read by round %s", rounds).isLessThan(5L * PAGE);
        rounds++;
      }
      assertThat(rounds).as("a page a round").isGreaterThanOrEqualTo(MARKED / PAGE);
      long[] stats = nn.getStats();
      assertThat(stats[ClientProtocol.GET_STATS_MISSING_REPL_ONE_BLOCKS_IDX]).isZero();
      assertThat(stats[ClientProtocol.GET_STATS_LOW_REDUNDANCY_IDX]).isZero();
      assertThat(stats[ClientProtocol.GET_STATS_CORRUPT_BLOCKS_IDX]).isZero();
      assertThat(nn.getReplicatedBlockStats().getMissingReplicaBlocks()).isEqualTo(MARKED);
      assertThat(getStatsCost(cluster, nn)).as("getStats after the census").isEqualTo(empty);
    }
  }

  private static long fileId(DistributedFileSystem fs, Path p) throws Exception {
    return fs.getClient().getFileInfo(p.toUri().getPath()).getFileId();
  }
}
