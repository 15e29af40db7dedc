package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.subtree.Reclaims;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * No transaction reads and writes more rows than {@code hops.namenode.transaction.max-rows} (200
 * here), whatever a delete or a concat holds: files of 1 KB blocks written by the stock client to a
 * stock DataNode, every transaction's rows counted by the runner's observer.
 */
class TransactionRowBoundTest {
  private static final int BOUND = 200;
  private static final int BLOCK = 1024;

  /** One observed transaction: its operation and its rows read and written. */
  private record Seen(String op, AccessCounts counts) {
    long rows() {
      return counts.rowsRead() + counts.rowsWritten();
    }
  }

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.TRANSACTION_MAX_ROWS, BOUND);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    return conf;
  }

  private static List<Seen> observe(HopsTestCluster cluster) {
    List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    cluster.namenode().namesystem().runner().observe((op, c) -> seen.add(new Seen(op, c)));
    return seen;
  }

  private static void write(DistributedFileSystem fs, Path p, int blocks) throws Exception {
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      out.write(new byte[blocks * BLOCK]);
    }
  }

  private static void assertUnderBound(List<Seen> seen) {
    synchronized (seen) {
      assertThat(seen).isNotEmpty();
      for (Seen s : seen) {
        assertThat(s.rows())
            .as("rows read and written by %s (%s)", s.op(), s.counts())
            .isLessThanOrEqualTo(BOUND);
      }
    }
  }

  @Test
  void aDirectoryWhoseFilesHoldMoreRowsThanTheBoundIsDeletedInTransactionsUnderIt()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      deleteADirectoryOfBigFiles(cluster);
    }
  }

  @Test
  void theSameOverMariadb() throws Exception {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf());
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    try (cluster) {
      deleteADirectoryOfBigFiles(cluster);
    }
  }

  private static void deleteADirectoryOfBigFiles(HopsTestCluster cluster) throws Exception {
    cluster.startDatanodes(1);
    try (DistributedFileSystem fs = cluster.client()) {
      Path dir = new Path("/d");
      // 12 files of 8 blocks: about 700 rows of blocks, replicas and invalidations in all.
      List<Long> files = new ArrayList<>();
      for (int i = 0; i < 12; i++) {
        Path f = new Path(dir, "f" + i);
        write(fs, f, 8);
        files.add(fileId(fs, f));
      }
      Storage storage = cluster.namenode().namesystem().storage();
      List<Seen> seen = observe(cluster);
      assertThat(fs.delete(dir, true)).isTrue();
      assertThat(fs.exists(dir)).isFalse();
      Reclaims.await(storage);
      assertUnderBound(seen);
      long batches;
      synchronized (seen) {
        batches = seen.stream().filter(s -> s.op().equals("subtreeDeleteBatch")).count();
      }
      assertThat(batches).as("delete batches").isGreaterThan(3);
      try (Transaction tx = storage.begin()) {
        for (long f : files) {
          assertThat(tx.findByPartition(BlockInfoRow.TABLE, f, LockMode.READ_COMMITTED)).isEmpty();
        }
      }
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
    }
  }

  @Test
  void aFileOfMoreBlocksThanOneTransactionFreesIsDeletedInTransactionsUnderTheBound()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(1);
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/big");
        write(fs, p, 40);
        long file = fileId(fs, p);
        Storage storage = cluster.namenode().namesystem().storage();
        List<Seen> seen = observe(cluster);
        assertThat(fs.delete(p, false)).isTrue();
        assertThat(fs.exists(p)).isFalse();
        // Unlinked, its blocks left to the leader: consistent already.
        try (Transaction tx = storage.begin()) {
          assertThat(
                  tx.find(
                      ReleasedFileRow.TABLE,
                      ReleasedFileRow.TABLE.key(file),
                      LockMode.READ_COMMITTED))
              .isNotNull();
        }
        assertThat(NamespaceChecker.violations(storage)).isEmpty();

        long deadline = System.nanoTime() + 30_000_000_000L;
        while (!cluster.namenode().namesystem().blocks().isLeader()) {
          assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
          Thread.sleep(50);
        }
        for (int round = 0; round < 10 && !released(storage, file); round++) {
          cluster.namenode().housekeeping().runOnce();
        }
        assertThat(released(storage, file)).as("released").isTrue();
        List<Seen> deleting;
        synchronized (seen) {
          deleting =
              seen.stream()
                  .filter(s -> s.op().equals("delete") || s.op().equals("releaseBlocks"))
                  .toList();
        }
        assertUnderBound(new ArrayList<>(deleting));
        assertThat(deleting.stream().filter(s -> s.op().equals("releaseBlocks")).count())
            .isGreaterThan(1);
        try (Transaction tx = storage.begin()) {
          assertThat(tx.findByPartition(BlockInfoRow.TABLE, file, LockMode.READ_COMMITTED))
              .isEmpty();
          assertThat(tx.findByPartition(ReplicaRow.TABLE, file, LockMode.READ_COMMITTED)).isEmpty();
        }
        assertThat(NamespaceChecker.violations(storage)).isEmpty();
      }
    }
  }

  @Test
  void aConcatWhoseSourcesWouldPassTheBoundIsRefusedAndChangesNothing() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(1);
      try (DistributedFileSystem fs = cluster.client()) {
        Path target = new Path("/c/target");
        Path a = new Path("/c/a");
        Path b = new Path("/c/b");
        write(fs, target, 1);
        // 10 blocks each: 110 rows to move per source, 220 for both.
        write(fs, a, 10);
        write(fs, b, 10);
        assertThatThrownBy(() -> fs.concat(target, new Path[] {a, b}))
            .isInstanceOfSatisfying(
                org.apache.hadoop.ipc.RemoteException.class,
                e ->
                    assertThat(e.getClassName())
                        .isEqualTo(
                            org.apache.hadoop.HadoopIllegalArgumentException.class.getName()))
            .hasMessageContaining("concat fewer or smaller files at a time");
        assertThat(fs.exists(a)).isTrue();
        assertThat(fs.exists(b)).isTrue();
        assertThat(fs.getFileStatus(target).getLen()).isEqualTo(BLOCK);

        fs.concat(target, new Path[] {a});
        assertThat(fs.exists(a)).isFalse();
        assertThat(fs.getFileStatus(target).getLen()).isEqualTo(11L * BLOCK);
        assertThat(NamespaceChecker.violations(cluster.namenode().namesystem().storage()))
            .isEmpty();
      }
    }
  }

  private static long fileId(DistributedFileSystem fs, Path p) throws Exception {
    return fs.getClient().getNamenode().getFileInfo(p.toUri().getPath()).getFileId();
  }

  private static boolean released(Storage storage, long file) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(
              ReleasedFileRow.TABLE, ReleasedFileRow.TABLE.key(file), LockMode.READ_COMMITTED)
          == null;
    }
  }
}
