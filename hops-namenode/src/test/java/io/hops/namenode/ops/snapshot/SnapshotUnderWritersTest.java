package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.namenode.ObservedCluster;
import io.hops.namenode.subtree.BulkTree;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A snapshot of a 200,000-inode tree taken while 8 clients write under it (issue 60;
 * docs/architecture.md, "Snapshots", writers and snapshots): it makes the accesses and writes the
 * rows a snapshot of a 110-inode tree does (no walk of the subtree), and it is a consistent cut:
 * each writer creates a file and then renames it, one after the other, so the snapshot must hold,
 * in each writer's directory, the renamed files of a prefix of its sequence and at most the next
 * one under its first name, never a gap, a file under both names, or a half-done step.
 */
class SnapshotUnderWritersTest {
  private static final int WRITERS = 8;
  private static final int DIRS = 200;
  private static final int FILES = 1_000;

  @RegisterExtension
  static final ObservedCluster observed = ObservedCluster.of(SnapshotTestFiles.snapshotsOn());

  @Test
  void aSnapshotOfABigTreeUnderWritersIsBoundedAndAConsistentCut() throws Exception {
    DistributedFileSystem fs = observed.fs();
    var storage = observed.cluster().namenode().namesystem().storage();
    BulkTree.build(storage, fs, new Path("/small"), 10, 10);
    int inodes = BulkTree.build(storage, fs, new Path("/big"), DIRS, FILES);
    assertThat(inodes).isGreaterThanOrEqualTo(200_000);
    fs.allowSnapshot(new Path("/small"));
    fs.allowSnapshot(new Path("/big"));
    fs.createSnapshot(new Path("/small"), "s0");
    AccessCounts small = observed.last("createSnapshot");

    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(WRITERS);
    List<Future<Integer>> writers = new ArrayList<>();
    for (int w = 0; w < WRITERS; w++) {
      String dir = "/big/w" + w;
      fs.mkdirs(new Path(dir));
      writers.add(pool.submit(() -> write(fs, dir, stop)));
    }
    long nanos;
    try {
      Thread.sleep(1_500);
      long t0 = System.nanoTime();
      fs.createSnapshot(new Path("/big"), "s1");
      nanos = System.nanoTime() - t0;
      Thread.sleep(1_000);
    } finally {
      stop.set(true);
      pool.shutdown();
      assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
    }
    AccessCounts big = observed.last("createSnapshot");
    System.out.printf(
        "createSnapshot of %,d inodes under %d writers: %.1f ms, %d accesses (%d of 110 inodes)%n",
        inodes, WRITERS, nanos / 1e6, big.total(), small.total());
    assertThat(big.toString()).as("accesses").isEqualTo(small.toString());
    // The snapshot id counter, which the first snapshot (s0) wrote, is one row read now.
    assertThat(big.rowsRead()).as("rows read").isEqualTo(small.rowsRead() + 1);
    assertThat(big.rowsWritten()).as("rows written").isEqualTo(small.rowsWritten());

    int cut = 0;
    for (int w = 0; w < WRITERS; w++) {
      int done = writers.get(w).get();
      Set<String> names = names(fs, "/big/.snapshot/s1/w" + w);
      int k = 0;
      while (names.contains("g" + k)) {
        k++;
      }
      Set<String> expected = new TreeSet<>();
      for (int i = 0; i < k; i++) {
        expected.add("g" + i);
      }
      if (names.contains("f" + k)) {
        expected.add("f" + k);
      }
      assertThat(names).as("writer %d's directory at s1", w).isEqualTo(expected);
      assertThat(k).as("writer %d's steps at s1", w).isLessThanOrEqualTo(done);
      assertThat(names(fs, "/big/w" + w)).as("writer %d's directory now", w).hasSize(done);
      cut += k;
    }
    assertThat(cut).as("steps before the snapshot").isPositive();
    assertThat(fs.listStatus(new Path("/big/.snapshot/s1"))).hasSize(DIRS + WRITERS);
    assertThat(fs.listStatus(new Path("/big/.snapshot/s1/d" + (DIRS - 1)))).hasSize(FILES);
    assertThat(fs.getContentSummary(new Path("/big/.snapshot/s1")).getFileCount())
        .isEqualTo((long) DIRS * FILES + cut + countFirstNames(fs));
  }

  /** Creates {@code f<n>} then renames it {@code g<n>}, n = 0, 1, ...; answers the steps done. */
  private static int write(DistributedFileSystem fs, String dir, AtomicBoolean stop)
      throws Exception {
    int n = 0;
    while (!stop.get()) {
      Path f = new Path(dir + "/f" + n);
      fs.create(f).close();
      assertThat(fs.rename(f, new Path(dir + "/g" + n))).isTrue();
      n++;
    }
    return n;
  }

  private static Set<String> names(DistributedFileSystem fs, String dir) throws Exception {
    Set<String> out = new TreeSet<>();
    for (FileStatus s : fs.listStatus(new Path(dir))) {
      out.add(s.getPath().getName());
    }
    return out;
  }

  /** The files the snapshot has under their first names (at most one per writer). */
  private static long countFirstNames(DistributedFileSystem fs) throws Exception {
    long n = 0;
    for (int w = 0; w < WRITERS; w++) {
      n += names(fs, "/big/.snapshot/s1/w" + w).stream().filter(s -> s.startsWith("f")).count();
    }
    return n;
  }
}
