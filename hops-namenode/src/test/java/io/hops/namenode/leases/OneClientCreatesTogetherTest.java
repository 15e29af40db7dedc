package io.hops.namenode.leases;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.HopsTestCluster;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The creates and closes of one client (one DFSClient, shared by the threads of a Spark executor or
 * a MapReduce task) do not queue on its lease row: a create joins a lease renewed within {@link
 * LeaseChanges#FRESH_MILLIS} with a shared lock and without rewriting it, and a close deletes the
 * file's lease path only. Shown deterministically: while another transaction holds the lease row
 * shared, as an in-flight create of the same client does, a create and a close of that client still
 * go through (an exclusive lock on the row would wait for that transaction).
 */
class OneClientCreatesTogetherTest {
  private static final int THREADS = 16;
  private static final int FILES_PER_THREAD = 8;

  private static HopsTestCluster cluster;
  private static Storage storage;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    cluster.startDatanodes(1);
    storage = cluster.namenode().namesystem().storage();
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aCreateAndACloseGoThroughWhileAnotherCreateOfTheClientHoldsItsLease() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      FSDataOutputStream first = c.create(new Path("/together/first")); // a lease row now
      renewAheadOfTime(holder);
      try (Transaction inFlight = storage.begin()) {
        assertThat(inFlight.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.SHARED))
            .isNotNull();
        Future<Boolean> createAndClose =
            pool.submit(
                () -> {
                  c.create(new Path("/together/second")).close();
                  return c.isFileClosed(new Path("/together/second"));
                });
        // An exclusive lock on the lease row would wait until the transaction above ends, that is
        // past this bound (the namenode gives up on a lock first and the client retries).
        assertThat(createAndClose.get(60, TimeUnit.SECONDS)).isTrue();
      }
      first.close();
      assertThat(leasePaths(holder)).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * An append of the client joins its fresh lease as a create does: while another transaction holds
   * the lease row shared, the append and its close go through, and the row is not rewritten.
   */
  @Test
  void anAppendGoesThroughWhileAnotherCreateOfTheClientHoldsItsLease() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      Path file = new Path("/together/appended");
      try (FSDataOutputStream out = c.create(file, (short) 1)) { // a lease row now
        out.write(new byte[] {1, 2});
      }
      long renewed = renewAheadOfTime(holder);
      try (Transaction inFlight = storage.begin()) {
        assertThat(inFlight.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.SHARED))
            .isNotNull();
        Future<Long> appendAndClose =
            pool.submit(
                () -> {
                  try (FSDataOutputStream out = c.append(file)) {
                    out.write(3);
                  }
                  return c.getFileStatus(file).getLen();
                });
        // An exclusive lock on the lease row would wait until the transaction above ends.
        assertThat(appendAndClose.get(60, TimeUnit.SECONDS)).isEqualTo(3L);
      }
      assertThat(c.isFileClosed(file)).isTrue();
      assertThat(lease(holder).lastUpdate()).isEqualTo(renewed);
      assertThat(leasePaths(holder)).isEmpty();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * HDFS's getAdditionalBlock checks the writer against the file and does not renew its lease; no
   * more does addBlock here: with the lease row locked exclusively by another transaction (the
   * leader looking at it, or a create renewing it), the client's next block is still allocated and
   * its file closed.
   */
  @Test
  void aBlockIsAddedWhileTheLeaseRowIsLockedExclusively() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      Path file = new Path("/together/blocks");
      FSDataOutputStream out = c.create(file, (short) 1);
      try (Transaction other = storage.begin()) {
        assertThat(other.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.EXCLUSIVE))
            .isNotNull();
        Future<Long> writeAndClose =
            pool.submit(
                () -> {
                  out.write(new byte[] {1, 2, 3});
                  out.hflush(); // addBlock
                  out.close(); // complete
                  return c.getFileStatus(file).getLen();
                });
        // Waiting for the lease row would last until this transaction ends, past this bound.
        assertThat(writeAndClose.get(60, TimeUnit.SECONDS)).isEqualTo(3L);
      }
      assertThat(c.isFileClosed(file)).isTrue();
    } finally {
      pool.shutdownNow();
    }
  }

  /** Deleting an open file deletes its lease path by key and reads no lease row either. */
  @Test
  void anOpenFileIsDeletedWhileTheLeaseRowIsLockedExclusively() throws Exception {
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      Path file = new Path("/together/deleted-open");
      FSDataOutputStream out = c.create(file);
      try (Transaction other = storage.begin()) {
        assertThat(other.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.EXCLUSIVE))
            .isNotNull();
        Future<Boolean> delete = pool.submit(() -> c.delete(file, false));
        assertThat(delete.get(60, TimeUnit.SECONDS)).isTrue();
      }
      assertThat(c.exists(file)).isFalse();
      assertThat(leasePaths(holder)).isEmpty();
      assertThatThrownBy(out::close).hasMessageContaining("File does not exist");
    } finally {
      pool.shutdownNow();
    }
  }

  @Test
  void sixteenThreadsSharingOneClientCreateAndCloseTheirFiles() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      CountDownLatch go = new CountDownLatch(1);
      List<Future<?>> threads = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        threads.add(
            pool.submit(
                () -> {
                  go.await();
                  for (int i = 0; i < FILES_PER_THREAD; i++) {
                    c.create(new Path("/sixteen/t" + thread + "/f" + i)).close();
                  }
                  return null;
                }));
      }
      go.countDown();
      for (Future<?> f : threads) {
        f.get(120, TimeUnit.SECONDS);
      }
      for (int t = 0; t < THREADS; t++) {
        for (int i = 0; i < FILES_PER_THREAD; i++) {
          assertThat(c.isFileClosed(new Path("/sixteen/t" + t + "/f" + i))).isTrue();
        }
      }
      assertThat(leasePaths(holder)).isEmpty();
      assertThat(lease(holder)).as("until the leader drops it past the hard limit").isNotNull();
    } finally {
      pool.shutdownNow();
    }
  }

  /**
   * Sets the lease of {@code holder} as renewed an hour from now, so that it counts as just renewed
   * whatever the time the test's next steps take on a busy machine; returns that time.
   */
  private static long renewAheadOfTime(String holder) throws Exception {
    long renewed = System.currentTimeMillis() + 3_600_000;
    try (Transaction tx = storage.begin()) {
      LeaseRow now = tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.EXCLUSIVE);
      tx.update(LeaseRow.TABLE, new LeaseRow(holder, renewed, now.count()));
      tx.commit();
    }
    return renewed;
  }

  private static List<LeasePathRow> leasePaths(String holder) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED);
    }
  }

  private static LeaseRow lease(String holder) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED);
    }
  }
}
