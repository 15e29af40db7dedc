package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * No block is deleted while a snapshot references it, through the leader's death during a snapshot
 * deletion (issue 60's test): three {@code bin/hops namenode} processes over MariaDB and a datanode
 * process; files deleted after snapshots s1 and s2, more than the release's batches of 5 (the
 * transaction row bound lowered to 40). {@code deleteSnapshot s1} goes to the leader, which is
 * killed with SIGKILL right after (its version reclaim and, at the latest, its release batches cut
 * short). Every file s2 has reads byte for byte from {@code .snapshot/s2} through a surviving
 * namenode and keeps its blocks on the datanode, while those s1 alone had are invalidated; after
 * {@code deleteSnapshot s2} through another namenode every kept block is invalidated within a few
 * housekeeping rounds, no kept file or pending row is left, and the namespace check is clean.
 */
class SnapshotDeleteAcrossProcessesTest {
  private static final int BLOCK = 1024;
  private static final int FILES = 24;

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void noBlockASnapshotHasIsDeletedThroughTheLeadersDeath() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    Path work = Path.of("target/snapshot-delete-processes/" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(work);
    try (ProcessCluster cluster =
            new ProcessCluster(
                work,
                db,
                3,
                Map.of(
                    "hops.namenode.transaction.max-rows",
                    "40",
                    "dfs.blocksize",
                    Integer.toString(BLOCK)));
        Storage storage = Storages.open(DalConfig.of(db))) {
      cluster.startNamenodes();
      cluster.startDatanodes(1);
      int leader = cluster.leaderIndex();
      int other = (leader + 1) % cluster.namenodes();
      byte[][] data = new byte[FILES][];
      List<List<Long>> blocks = new ArrayList<>();
      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(cluster.clientOf(other))) {
        cluster.awaitLiveDatanodes(fs);
        org.apache.hadoop.fs.Path dir = new org.apache.hadoop.fs.Path("/s");
        fs.mkdirs(dir);
        for (int f = 0; f < FILES; f++) {
          data[f] = new byte[2 * BLOCK + 100];
          new Random(f).nextBytes(data[f]);
          try (FSDataOutputStream out = fs.create(path(f), true, 4096, (short) 1, BLOCK)) {
            out.write(data[f]);
          }
          List<Long> ids = new ArrayList<>();
          for (LocatedBlock b :
              fs.getClient().getLocatedBlocks(path(f).toString(), 0).getLocatedBlocks()) {
            ids.add(b.getBlock().getBlockId());
          }
          blocks.add(ids);
        }
        assertThat(stored(work, all(blocks, 0, FILES))).hasSize(3 * FILES);
        fs.allowSnapshot(dir);
        // s1 alone has the first half; s2 has the second, chmodded and deleted after it.
        fs.createSnapshot(dir, "s1");
        for (int f = 0; f < FILES / 2; f++) {
          fs.delete(path(f), false);
        }
        for (int f = FILES / 2; f < FILES; f++) {
          fs.setPermission(path(f), new FsPermission((short) 0600));
        }
        fs.createSnapshot(dir, "s2");
        for (int f = FILES / 2; f < FILES; f++) {
          fs.delete(path(f), false);
        }
      }
      assertThat(rows(storage, SnapshotKeptFileRow.TABLE)).hasSize(FILES);

      // deleteSnapshot s1 to the leader, which is killed as soon as it answers.
      AtomicReference<Throwable> answer = new AtomicReference<>();
      Thread call =
          new Thread(
              () -> {
                try (DistributedFileSystem toLeader =
                    (DistributedFileSystem) FileSystem.get(cluster.clientOf(leader))) {
                  toLeader.deleteSnapshot(new org.apache.hadoop.fs.Path("/s"), "s1");
                } catch (Throwable e) {
                  answer.set(e);
                }
              });
      call.start();
      // Killed as soon as the call's transaction shows (its first release batch committed), so
      // that the later batches are cut short, or, at the latest, right after its answer.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      int keptAtKill = FILES;
      while (call.isAlive() && System.nanoTime() < deadline) {
        keptAtKill = rows(storage, SnapshotKeptFileRow.TABLE).size();
        if (keptAtKill < FILES) {
          break;
        }
        Thread.sleep(5);
      }
      cluster.kill(leader);
      call.join(60_000);
      System.out.println(
          "leader killed with "
              + keptAtKill
              + " kept files left of "
              + FILES
              + (call.isAlive() || answer.get() != null ? ", before its answer" : ", answered"));

      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(cluster.clientOf(other))) {
        assertThat(fs.getSnapshotListing(new org.apache.hadoop.fs.Path("/s")))
            .extracting(st -> st.getFullPath().getName())
            .containsExactly("s2");
        Set<Long> keptForS2 = all(blocks, FILES / 2, FILES);
        Set<Long> s1Alone = all(blocks, 0, FILES / 2);
        awaitGone(work, s1Alone, 120);
        for (int f = FILES / 2; f < FILES; f++) {
          assertThat(read(fs, "/s/.snapshot/s2/f" + f, data[f].length))
              .as("f%d at s2", f)
              .isEqualTo(data[f]);
        }
        assertThat(stored(work, keptForS2)).as("blocks s2 has").isEqualTo(keptForS2);
        awaitNoPendingRows(storage, 120);
        assertThat(stored(work, keptForS2)).as("blocks s2 has").isEqualTo(keptForS2);

        fs.deleteSnapshot(new org.apache.hadoop.fs.Path("/s"), "s2");
        awaitGone(work, keptForS2, 120);
        awaitNoPendingRows(storage, 120);
      }
      assertThat(rows(storage, SnapshotKeptFileRow.TABLE)).as("kept files").isEmpty();
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
    }
  }

  private static org.apache.hadoop.fs.Path path(int f) {
    return new org.apache.hadoop.fs.Path("/s/f" + f);
  }

  private static Set<Long> all(List<List<Long>> blocks, int from, int to) {
    Set<Long> out = new HashSet<>();
    for (int f = from; f < to; f++) {
      out.addAll(blocks.get(f));
    }
    return out;
  }

  /** Which of {@code ids} have a block file in the datanodes' directories. */
  private static Set<Long> stored(Path work, Set<Long> ids) throws Exception {
    Set<Long> found = new HashSet<>();
    try (Stream<Path> files = Files.walk(work)) {
      files
          .map(p -> p.getFileName().toString())
          .filter(n -> n.startsWith("blk_") && !n.endsWith(".meta"))
          .map(n -> Long.parseLong(n.substring(4)))
          .filter(ids::contains)
          .forEach(found::add);
    }
    return found;
  }

  private static void awaitGone(Path work, Set<Long> ids, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!stored(work, ids).isEmpty()) {
      assertThat(System.nanoTime())
          .as("blocks still on the datanode: %s", stored(work, ids))
          .isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private static void awaitNoPendingRows(Storage storage, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (true) {
      List<SnapshotVersionLogRow> pending;
      try (Transaction tx = storage.begin()) {
        pending =
            tx.scanFrom(
                SnapshotVersionLogRow.TABLE,
                SnapshotVersionLogRow.PENDING,
                null,
                100,
                LockMode.READ_COMMITTED);
      }
      if (pending.isEmpty()) {
        return;
      }
      assertThat(System.nanoTime()).as("pending rows: %s", pending).isLessThan(deadline);
      Thread.sleep(500);
    }
  }

  private static <R extends Record> List<R> rows(Storage storage, io.hops.dal.schema.Table<R> t)
      throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(t, LockMode.READ_COMMITTED);
    }
  }

  private static byte[] read(FileSystem fs, String p, int length) throws Exception {
    byte[] got = new byte[length];
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(p))) {
      in.readFully(got);
    }
    return got;
  }
}
