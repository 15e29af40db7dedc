package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.subtree.BulkTree;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@code allowSnapshot} and {@code createSnapshot} against renames and subtree operations on
 * another namenode over the same database (docs/architecture.md, "Snapshots", snapshots and subtree
 * operations). The races are made certain by holding the snapshot id counter's row in a transaction
 * of the test: the allow has resolved its path and waits there while the other namenode renames.
 * What HDFS users see is HDFS's, whose global lock orders the two calls: the rename is refused as
 * nesting snapshottable directories, never are both done.
 */
class SnapshotSubtreeMarksTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void stop() {
    pool.shutdownNow();
  }

  @Test
  void anAllowRacingARenameOfItsAncestorBelowASnapshottableDirectoryNeverNests() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(SnapshotTestFiles.snapshotsOn())) {
      HopsNameNode second = cluster.startAnotherNamenode();
      DistributedFileSystem fs = cluster.client();
      DistributedFileSystem fs2 = cluster.client(second);
      fs.mkdirs(new Path("/s"));
      fs.mkdirs(new Path("/p/x"));
      fs.allowSnapshot(new Path("/s"));
      fs.createSnapshot(new Path("/s"), "s0");

      String[] out =
          whileCounterHeld(
              cluster.namenode().namesystem().storage(),
              () -> {
                fs.allowSnapshot(new Path("/p/x"));
                return "ok";
              },
              () -> {
                fs2.rename(new Path("/p"), new Path("/s/p"), Options.Rename.NONE);
                return "ok";
              });

      assertThat(out[0]).isEqualTo("ok");
      assertThat(out[1])
          .isEqualTo(
              "SnapshotException: Unable to rename because /p has snapshottable descendant"
                  + " directories and /s is a descent of a snapshottable directory, and HDFS does"
                  + " not support nested snapshottable directory.");
      assertNoneNested(fs2);
    }
  }

  @Test
  void anAllowRacingAMoveOfASnapshottableDirectoryBelowItNeverNests() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(SnapshotTestFiles.snapshotsOn())) {
      HopsNameNode second = cluster.startAnotherNamenode();
      DistributedFileSystem fs = cluster.client();
      DistributedFileSystem fs2 = cluster.client(second);
      fs.mkdirs(new Path("/s"));
      fs.mkdirs(new Path("/q/t"));
      fs.mkdirs(new Path("/x/sub"));
      fs.allowSnapshot(new Path("/s"));
      fs.createSnapshot(new Path("/s"), "s0");
      fs.allowSnapshot(new Path("/q/t"));

      String[] out =
          whileCounterHeld(
              cluster.namenode().namesystem().storage(),
              () -> {
                fs.allowSnapshot(new Path("/x"));
                return "ok";
              },
              () -> {
                fs2.rename(new Path("/q"), new Path("/x/sub/q"), Options.Rename.NONE);
                return "ok";
              });

      assertThat(out[0]).isEqualTo("ok");
      assertThat(out[1])
          .isEqualTo(
              "SnapshotException: Unable to rename because /q has snapshottable descendant"
                  + " directories and /x/sub is a descent of a snapshottable directory, and HDFS"
                  + " does not support nested snapshottable directory.");
      assertNoneNested(fs2);
    }
  }

  @Test
  void aSnapshotWaitsForABigDeleteInPlaceBelowIt() throws Exception {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, 50);
    conf.setInt(NamenodeConfig.SUBTREE_THREADS, 1);
    // No snapshot covers the subtree when the delete starts: it is deleted in place, in batches.
    conf.setBoolean(NamenodeConfig.SUBTREE_DELETE_IN_BACKGROUND, false);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      HopsNameNode second = cluster.startAnotherNamenode();
      DistributedFileSystem fs = cluster.client();
      DistributedFileSystem fs2 = cluster.client(second);
      fs.mkdirs(new Path("/s/keep"));
      int n =
          BulkTree.build(cluster.namenode().namesystem().storage(), fs, new Path("/s/t"), 10, 40);
      fs.allowSnapshot(new Path("/s"));
      cluster
          .namenode()
          .namesystem()
          .faults()
          .arm(Faults.Point.SUBTREE_STEP, Faults.delay(Duration.ofMillis(250)));

      Future<Boolean> delete = pool.submit(() -> fs.delete(new Path("/s/t"), true));
      // Until the batches have deleted part of the subtree.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (fs2.getContentSummary(new Path("/s/t")).getFileCount() == n - 11) {
        assertThat(System.nanoTime()).isLessThan(deadline);
        assertThat(delete.isDone()).isFalse();
        Thread.sleep(20);
      }
      fs2.createSnapshot(new Path("/s"), "s1");

      assertThat(delete.isDone()).as("the snapshot waited for the delete").isTrue();
      assertThat(delete.get()).isTrue();
      assertThat(fs2.exists(new Path("/s/.snapshot/s1/t"))).isFalse();
      assertThat(fs2.listStatus(new Path("/s/.snapshot/s1"))).hasSize(1);
      assertThat(fs2.exists(new Path("/s/.snapshot/s1/keep"))).isTrue();
    }
  }

  /**
   * Runs {@code first} on its namenode while the test holds the snapshot counter's row, then {@code
   * second} while the first waits for the row, and lets the row go: the outcomes of both, "ok" or
   * the exception's simple class name and message.
   */
  private String[] whileCounterHeld(
      Storage storage, Callable<String> first, Callable<String> second) throws Exception {
    Future<String> a;
    Future<String> b;
    try (Transaction hold = storage.begin()) {
      assertThat(hold.find(VariableRow.TABLE, SnapshotIds.KEY, LockMode.EXCLUSIVE)).isNotNull();
      a = pool.submit(() -> outcome(first));
      Thread.sleep(1500); // the first has resolved its path and waits for the counter
      b = pool.submit(() -> outcome(second));
      Thread.sleep(1500); // the second has done what it could meanwhile
    }
    return new String[] {a.get(30, TimeUnit.SECONDS), b.get(30, TimeUnit.SECONDS)};
  }

  private static String outcome(Callable<String> call) {
    try {
      return call.call();
    } catch (Exception e) {
      Throwable t = e;
      if (t instanceof org.apache.hadoop.ipc.RemoteException r) {
        t = r.unwrapRemoteException();
      }
      // The first line: a remote exception's message carries the server's stack after it.
      return t.getClass().getSimpleName() + ": " + t.getMessage().lines().findFirst().orElse("");
    }
  }

  private static void assertNoneNested(DistributedFileSystem fs) throws Exception {
    List<String> paths = new ArrayList<>();
    for (SnapshottableDirectoryStatus s : fs.getSnapshottableDirListing()) {
      paths.add(s.getFullPath().toString());
    }
    for (String a : paths) {
      for (String b : paths) {
        assertThat(b.startsWith(a + "/")).as(b + " below " + a).isFalse();
      }
    }
  }
}
