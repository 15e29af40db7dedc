package io.hops.namenode.subtree;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Issue 11's sizes, with the default bound of 1,000 inodes per transaction and the stock client: a
 * delete of a 200,000-inode tree with blocks on a real datanode, a rename of a 200,000-inode tree
 * while 16 clients work inside it, and chmod, chown and a quota on a 100,000-inode tree while 8
 * clients work inside it. The trees are written straight into the store ({@link BulkTree}); times
 * are printed.
 */
class BigTreeTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static Storage storage;

  @BeforeAll
  static void start() throws IOException {
    cluster = new HopsTestCluster();
    cluster.startDatanodes(1);
    fs = cluster.client();
    storage = cluster.namenode().namesystem().storage();
  }

  @AfterAll
  static void stop() throws IOException {
    fs.close();
    cluster.close();
  }

  @AfterEach
  void consistent() throws IOException {
    Reclaims.await(storage, java.time.Duration.ofMinutes(3));
    assertThat(NamespaceChecker.violations(storage)).isEmpty();
  }

  private static long rows() throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }

  @Test
  void aTreeOf200000InodesWithBlocksIsDeletedByOneCallAndItsBlocksLeaveTheDatanode()
      throws Exception {
    Path top = new Path("/del200k");
    long before = rows();
    int n = BulkTree.build(storage, fs, top, 200, 1000);
    List<LocatedBlock> blocks = new ArrayList<>();
    for (int i = 0; i < 8; i++) {
      Path f = new Path(top, "data/f" + i);
      try (FSDataOutputStream out = fs.create(f, true, 4096, (short) 1, 1024 * 1024)) {
        out.write(new byte[1024 + i]);
      }
      blocks.addAll(fs.getClient().getLocatedBlocks(f.toString(), 0).getLocatedBlocks());
    }
    n += 1 + 8;
    assertThat(blocks).hasSize(8);
    DataNode dn = cluster.datanodes().get(0);
    for (LocatedBlock b : blocks) {
      assertThat(dn.getFSDataset().contains(b.getBlock())).isTrue();
    }
    assertThat(fs.getContentSummary(top).getFileAndDirectoryCount()).isEqualTo(n);
    assertThat(rows()).isEqualTo(before + n);

    long t0 = System.nanoTime();
    assertThat(fs.delete(top, true)).isTrue();
    long deleted = System.nanoTime();
    assertThat(fs.exists(top)).isFalse();
    assertThat(fs.exists(new Path(top, "d7/f7"))).isFalse();
    Reclaims.await(storage, java.time.Duration.ofMinutes(3));
    long reclaimed = System.nanoTime();
    assertThat(rows()).isEqualTo(before);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    for (LocatedBlock b : blocks) {
      while (dn.getFSDataset().contains(b.getBlock()) && System.nanoTime() < deadline) {
        Thread.sleep(100);
      }
      assertThat(dn.getFSDataset().contains(b.getBlock()))
          .as("block %s gone from the datanode", b.getBlock())
          .isFalse();
    }
    System.out.printf(
        "subtree: delete of %d inodes answered in %d ms, rows reclaimed in %d ms more%n",
        n,
        TimeUnit.NANOSECONDS.toMillis(deleted - t0),
        TimeUnit.NANOSECONDS.toMillis(reclaimed - deleted));
  }

  /** What one client did, in order: each operation and whether it found its path. */
  private record Op(String kind, String name, boolean done) {}

  @Test
  void aTreeOf200000InodesMovesAtomicallyWhile16ClientsWorkInsideIt() throws Exception {
    Path src = new Path("/mv200k/src");
    Path dst = new Path("/mv200k/dst");
    int n = BulkTree.build(storage, fs, src, 200, 1000);
    int clients = 16;
    AtomicBoolean moved = new AtomicBoolean();
    List<List<Op>> logs = new ArrayList<>();
    ExecutorService pool = Executors.newFixedThreadPool(clients);
    List<Future<?>> work = new ArrayList<>();
    for (int c = 0; c < clients; c++) {
      List<Op> log = java.util.Collections.synchronizedList(new ArrayList<>());
      logs.add(log);
      int me = c;
      work.add(pool.submit(() -> client(new Path(src, "d" + me), log, moved)));
    }
    // Once every client has done a few rounds of its operations.
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (logs.stream().anyMatch(l -> l.size() < 15) && System.nanoTime() < deadline) {
      Thread.sleep(20);
    }
    long t0 = System.nanoTime();
    assertThat(fs.rename(src, dst)).isTrue();
    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
    moved.set(true);
    for (Future<?> f : work) {
      f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();

    int created = 0;
    int removed = 0;
    for (int c = 0; c < clients; c++) {
      List<Op> log = logs.get(c);
      Path mine = new Path(dst, "d" + c);
      // Before the move everything found its path, after it nothing did: no operation was cut.
      int firstMissed = 0;
      while (firstMissed < log.size() && log.get(firstMissed).done()) {
        firstMissed++;
      }
      for (int i = firstMissed; i < log.size(); i++) {
        assertThat(log.get(i).done()).as("client %d, op %d after a miss: %s", c, i, log).isFalse();
      }
      assertThat(firstMissed).as("client %d worked before the move", c).isPositive();
      assertThat(log.size()).as("client %d worked after the move", c).isGreaterThan(firstMissed);
      for (Op op : log) {
        boolean there = fs.exists(new Path(mine, op.name()));
        switch (op.kind()) {
          case "create" -> {
            assertThat(there).as("%s created: %s", op.name(), op.done()).isEqualTo(op.done());
            created += op.done() ? 1 : 0;
          }
          case "delete" -> {
            assertThat(there).as("%s deleted: %s", op.name(), op.done()).isEqualTo(!op.done());
            removed += op.done() ? 1 : 0;
          }
          default -> {}
        }
      }
    }
    assertThat(fs.exists(src)).isFalse();
    assertThat(fs.getContentSummary(dst).getFileAndDirectoryCount())
        .isEqualTo(n + created - removed);
    System.out.printf(
        "subtree: rename of %d inodes took %d ms while %d clients worked inside (%d created,"
            + " %d deleted)%n",
        n, ms, clients, created, removed);
    assertThat(fs.delete(new Path("/mv200k"), true)).isTrue();
  }

  /**
   * Creates a file with a few bytes, reads one of the tree's files and deletes another, in turn, in
   * {@code dir}, until a while after the move; each operation either finds its path or gets a
   * {@link FileNotFoundException}, and nothing else.
   */
  private static Void client(Path dir, List<Op> log, AtomicBoolean moved) throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      int misses = 0;
      for (int i = 0; misses < 20 && i < 1000; i++) {
        boolean done;
        String name = "new" + i;
        // Not create(), which would make the moved directories again.
        try (FSDataOutputStream out =
            c.createNonRecursive(new Path(dir, name), false, 4096, (short) 1, 1 << 20, null)) {
          out.write(name.getBytes(java.nio.charset.StandardCharsets.UTF_8));
          done = true;
        } catch (FileNotFoundException e) {
          done = false;
        }
        log.add(new Op("create", name, done));
        try (FSDataInputStream in = c.open(new Path(dir, "f" + (999 - i)))) {
          assertThat(in.read()).isEqualTo(-1);
          log.add(new Op("read", "f" + (999 - i), true));
        } catch (FileNotFoundException e) {
          log.add(new Op("read", "f" + (999 - i), false));
        }
        try {
          boolean gone = c.delete(new Path(dir, "f" + i), false);
          log.add(new Op("delete", "f" + i, gone));
        } catch (FileNotFoundException e) {
          log.add(new Op("delete", "f" + i, false));
        }
        if (moved.get() && !log.get(log.size() - 1).done()) {
          misses++;
        }
      }
    }
    return null;
  }

  @Test
  void chmodChownAndAQuotaOnATreeOf100000InodesWhile8ClientsWorkInsideIt() throws Exception {
    Path top = new Path("/q100k");
    int n = BulkTree.build(storage, fs, top, 100, 1000);
    AtomicBoolean stop = new AtomicBoolean();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<Integer>> work = new ArrayList<>();
    ConcurrentHashMap<String, Boolean> seen = new ConcurrentHashMap<>();
    for (int c = 0; c < 8; c++) {
      Path dir = new Path(top, "d" + c);
      work.add(
          pool.submit(
              () -> {
                int ops = 0;
                try (DistributedFileSystem w = cluster.client()) {
                  for (int i = 0; !stop.get() || i < 5; i++, ops++) {
                    try (FSDataOutputStream out = w.create(new Path(dir, "w" + i))) {
                      out.write(1);
                    }
                    w.mkdirs(new Path(dir, "m" + i + "/x"));
                    w.delete(new Path(dir, "f" + i), false);
                    seen.put(dir + "/w" + i, true);
                  }
                }
                return ops;
              }));
    }
    Thread.sleep(1_000);
    long t0 = System.nanoTime();
    fs.setPermission(top, new FsPermission((short) 0750));
    long t1 = System.nanoTime();
    fs.setOwner(top, "alice", "staff");
    long t2 = System.nanoTime();
    fs.setQuota(top, 10_000_000, 1L << 40);
    long t3 = System.nanoTime();
    // The shell's recursive forms walk the tree from the client, one call per inode; on one
    // directory of the tree here, for time.
    assertThat(
            ToolRunner.run(
                new FsShell(cluster.clientConf()),
                new String[] {"-chmod", "-R", "700", "/q100k/d50"}))
        .isZero();
    assertThat(
            ToolRunner.run(
                new FsShell(cluster.clientConf()),
                new String[] {"-chown", "-R", "bob:staff", "/q100k/d50"}))
        .isZero();
    stop.set(true);
    int ops = 0;
    for (Future<Integer> f : work) {
      ops += f.get(2, TimeUnit.MINUTES);
    }
    pool.shutdown();

    assertThat(fs.getFileStatus(top).getPermission()).isEqualTo(new FsPermission((short) 0750));
    assertThat(fs.getFileStatus(top).getOwner()).isEqualTo("alice");
    assertThat(fs.getFileStatus(new Path(top, "d50/f3")).getPermission().toShort())
        .isEqualTo((short) 0700);
    assertThat(fs.getFileStatus(new Path(top, "d50/f3")).getOwner()).isEqualTo("bob");
    // Usage counted under the mark stays exact through the clients' work.
    ContentSummary cs = fs.getContentSummary(top);
    QuotaUsage q = fs.getQuotaUsage(top);
    assertThat(q.getQuota()).isEqualTo(10_000_000);
    assertThat(q.getFileAndDirectoryCount()).isEqualTo(cs.getFileAndDirectoryCount());
    assertThat(q.getSpaceConsumed()).isEqualTo(cs.getSpaceConsumed());
    assertThat(cs.getFileAndDirectoryCount()).isGreaterThan(n);
    System.out.printf(
        "subtree: on %d inodes with %d client operations meanwhile: chmod %d ms, chown %d ms,"
            + " setQuota %d ms%n",
        n,
        ops,
        TimeUnit.NANOSECONDS.toMillis(t1 - t0),
        TimeUnit.NANOSECONDS.toMillis(t2 - t1),
        TimeUnit.NANOSECONDS.toMillis(t3 - t2));
    assertThat(seen).isNotEmpty();
    assertThat(fs.delete(top, true)).isTrue();
  }
}
