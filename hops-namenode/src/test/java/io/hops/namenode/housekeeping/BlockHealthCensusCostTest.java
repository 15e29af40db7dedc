package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.IdRange;
import io.hops.dal.SchemaAdmin;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.junit.jupiter.api.Test;

/**
 * The block health census judges a page of queued blocks with one read per table, not four reads
 * per block: at 100,000 replicas a datanode, the leader's rounds spent most of their time judging
 * the blocks a dead datanode's reports queued one at a time (docs/benchmarks.md, "Decommission and
 * re-replication").
 */
class BlockHealthCensusCostTest {
  private static final int FILES = 120;

  @Test
  void aPassJudgesItsBlocksWithAFewReadsPerPageAndCountsThemLikeBefore() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 1024);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(2);
      Namesystem ns = cluster.namenode().namesystem();
      try (DistributedFileSystem fs = cluster.client()) {
        for (int i = 0; i < FILES; i++) {
          try (FSDataOutputStream out = fs.create(file(i), true, 4096, (short) 2, 1024)) {
            out.write(new byte[1024]);
          }
        }
        for (int i = 0; i < FILES; i++) {
          HopsTestCluster.awaitReplicas(fs, file(i), (short) 2);
        }
        // Two datanodes for three replicas: every block stays queued, low on redundancy.
        for (int i = 0; i < FILES; i++) {
          fs.setReplication(file(i), (short) 3);
        }
        awaitLeader(ns);
        Counting counting = new Counting(ns.storage());
        Configuration pages = new Configuration(false);
        pages.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, 50);
        BlockHealthCensus census =
            new BlockHealthCensus(
                counting, new LeaderRunner(ns.runner(), ns.blocks()), ns.blocks(), pages);
        int rounds = 0;
        while (fs.getClient().getNamenode().getStats()[ClientProtocol.GET_STATS_LOW_REDUNDANCY_IDX]
            != FILES) {
          assertThat(rounds).as("rounds of a pass over %d blocks", FILES).isLessThan(20);
          census.runOnce();
          rounds++;
        }
        long accesses = counting.total();
        // Before: four reads a block, 480 for the pass. Now a page of 50 rows costs its scan and
        // one read per table (corrupt replicas, blocks, files, replicas); the empty tables' pages.
        assertThat(accesses).as("the census's reads for %d blocks", FILES).isLessThan(FILES / 4);
        long[] stats = fs.getClient().getNamenode().getStats();
        assertThat(stats[ClientProtocol.GET_STATS_MISSING_BLOCKS_IDX]).isZero();
        assertThat(stats[ClientProtocol.GET_STATS_CORRUPT_BLOCKS_IDX]).isZero();
      }
    }
  }

  private static void awaitLeader(Namesystem ns) throws InterruptedException {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (!ns.blocks().isLeader()) {
      assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  private static Path file(int i) {
    return new Path("/census/f" + i);
  }

  /** The store, counting the accesses of the transactions begun through it (and only those). */
  private static final class Counting implements Storage {
    private final Storage store;
    private final List<Transaction> begun = new ArrayList<>();

    Counting(Storage store) {
      this.store = store;
    }

    long total() {
      long n = 0;
      for (Transaction tx : begun) {
        n += tx.accessCounts().total();
      }
      return n;
    }

    @Override
    public String engine() {
      return store.engine();
    }

    @Override
    public Transaction begin(Object partitionHint) throws StorageException {
      Transaction tx = store.begin(partitionHint);
      begun.add(tx);
      return tx;
    }

    @Override
    public IdRange allocateIds(String counter, int count) throws StorageException {
      return store.allocateIds(counter, count);
    }

    @Override
    public SchemaAdmin schema() {
      return store.schema();
    }

    @Override
    public AccessCounts accessCounts() {
      return store.accessCounts();
    }

    @Override
    public void close() {}
  }
}
