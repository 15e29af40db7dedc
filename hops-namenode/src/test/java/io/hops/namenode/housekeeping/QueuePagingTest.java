package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A housekeeping round costs a page of each queue, not the queue: with 100,000 invalidations and
 * 100,000 pending re-replications queued, a round reads a few pages of rows (before, every row of
 * both tables), and rounds after rounds work the backlog off, a page at a time.
 */
// Serial: counts one leader's rounds; starved of CPU beside a second test JVM, more rounds than
// the three it asks for ran (docs/development.md, "The whole suite").
@Tag("serial")
class QueuePagingTest {
  private static final int BACKLOG = 100_000;
  private static final int PAGE = 1000;

  @Test
  void aRoundWithABacklogOfOneHundredThousandReadsAPage() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.HOUSEKEEPING_PAGE_ROWS, PAGE);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      long now = cluster.namenode().namesystem().blocks().now();
      for (int i = 0; i < BACKLOG; i += 5000) {
        try (Transaction tx = storage.begin()) {
          for (int j = i; j < i + 5000; j++) {
            // Replicas on a storage no datanode has: each round drops a page of them.
            tx.insert(InvalidatedBlockRow.TABLE, new InvalidatedBlockRow(j / 10, j, 999, 1, 1));
            // Copies in flight that have not timed out: each round only looks at a page.
            tx.insert(PendingBlockRow.TABLE, new PendingBlockRow(j / 10, j, now, 1, ""));
          }
          tx.commit();
        }
      }
      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!cluster.namenode().namesystem().blocks().isLeader()) {
        assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      for (int round = 0; round < 3; round++) {
        AccessCounts before = storage.accessCounts();
        housekeeping.runOnce();
        AccessCounts spent = storage.accessCounts().minus(before);
        // A page of invalidations, the same rows again when dropped, a page of pending copies,
        // and the block health census's page.
        assertThat(spent.rowsRead()).as("rows read by round %s", round).isLessThan(5L * PAGE);
      }
      try (Transaction tx = storage.begin()) {
        // Three rounds (and maybe the one a new leader runs at once) dropped a page each.
        int left = tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED).size();
        assertThat(left).isBetween(BACKLOG - 4 * PAGE, BACKLOG - 3 * PAGE);
        assertThat(tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED)).hasSize(BACKLOG);
      }
    }
  }
}
