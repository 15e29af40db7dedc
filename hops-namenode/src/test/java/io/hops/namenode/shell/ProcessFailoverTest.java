package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.election.Member;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.cli.NamenodesCommand;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Many namenodes as an operator runs them: three {@code bin/hops namenode} processes over MariaDB
 * and three {@code bin/hops datanode} processes reporting to all of them. While a stock client (an
 * HA nameservice of the three) writes and reads files, the leader is killed with SIGKILL three
 * times and started again, each kill once the writer has had {@code -Dhops.failover.files-per-kill}
 * files (20 by default) acknowledged since the cluster came back from the last one. Every file
 * whose close was acknowledged is there, byte for byte, every block reaches its replication, and
 * the namespace's invariants hold. (Failed client operations are counted here, not asserted:
 * hammer-bench's FailoverUnderLoadTest asserts that none fail.)
 */
class ProcessFailoverTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int NAMENODES = 3;
  private static final int KILLS = 3;
  private static final org.apache.hadoop.fs.Path HOME =
      new org.apache.hadoop.fs.Path("/user/alice");
  private static final org.apache.hadoop.fs.Path MOVE = new org.apache.hadoop.fs.Path(HOME, "move");

  /** Where a move of {@link #MOVE} to alice's trash puts it. */
  private static final org.apache.hadoop.fs.Path MOVED =
      new org.apache.hadoop.fs.Path(HOME, ".Trash/Current/move");

  private final Map<String, String> extraConf = new java.util.LinkedHashMap<>();
  private ProcessCluster cluster;

  @AfterEach
  void stopAll() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
  }

  /** MariaDB settings from the environment, or a skipped test; the database emptied. */
  private static Map<String, String> database() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    return db;
  }

  /** Three namenode processes over {@code db}, and {@code datanodes} datanodes reporting to all. */
  private void startCluster(Map<String, String> db, int datanodes) throws Exception {
    Map<String, String> settings = new java.util.LinkedHashMap<>();
    settings.put("hops.metadata.pool.size", "20");
    settings.put("dfs.blocksize", Integer.toString(BLOCK));
    settings.putAll(extraConf);
    cluster =
        new ProcessCluster(
            Path.of("target/process-failover/" + System.nanoTime()), db, NAMENODES, settings);
    cluster.startNamenodes();
    cluster.startDatanodes(datanodes);
  }

  /**
   * Leader failover as an operator sees it: the leader gets SIGKILL, and the time until the new
   * leader's housekeeping starts (its log line) is measured, {@code -Dhops.measure.failover=N}
   * times (not part of the normal build).
   */
  @Test
  @Timeout(value = 900, unit = TimeUnit.SECONDS)
  void measureLeaderFailover() throws Exception {
    int runs = Integer.getInteger("hops.measure.failover", 0);
    assumeTrue(runs > 0, "set -Dhops.measure.failover=N to measure");
    startCluster(database(), 0);
    Configuration client = new Configuration(false);
    List<Long> millis = new ArrayList<>();
    for (int run = 0; run < runs; run++) {
      int leader = cluster.leaderIndex();
      Thread.sleep(3_000); // a steady state: every namenode has run a few rounds
      long killed = System.currentTimeMillis();
      cluster.kill(leader);
      long resumed = -1;
      while (resumed < 0 && System.currentTimeMillis() - killed < 30_000) {
        for (Path log : logsSince(killed)) {
          resumed = firstLineAfter(log, "housekeeping starts as leader", killed);
          if (resumed > 0) {
            break;
          }
        }
        Thread.sleep(50);
      }
      assertThat(resumed).as("a new leader's housekeeping started").isPositive();
      millis.add(resumed - killed);
      System.out.printf("failover run %d: %d ms%n", run + 1, resumed - killed);
      cluster.startNamenode(leader);
    }
    List<Long> sorted = new ArrayList<>(millis);
    sorted.sort(null);
    System.out.printf(
        "leader failover over %d runs: median %d ms, max %d ms, all %s%n",
        runs, sorted.get(sorted.size() / 2), sorted.get(sorted.size() - 1), millis);
  }

  /** The error logs (where slf4j-simple writes) of the namenodes. */
  private List<Path> logsSince(long since) throws IOException {
    try (var files = Files.list(cluster.work())) {
      return files
          .filter(f -> f.getFileName().toString().matches("namenode-.*\\.err"))
          .filter(f -> f.toFile().lastModified() >= since - 1000)
          .toList();
    }
  }

  /** The wall-clock time of the first line with {@code text} logged after {@code since}, or -1. */
  private static long firstLineAfter(Path log, String text, long since) throws IOException {
    java.time.LocalDate today = java.time.LocalDate.now(java.time.ZoneId.systemDefault());
    for (String line : Files.readAllLines(log, StandardCharsets.UTF_8)) {
      if (!line.contains(text) || line.length() < 12) {
        continue;
      }
      long t =
          java.time.LocalDateTime.of(today, java.time.LocalTime.parse(line.substring(0, 12)))
              .atZone(java.time.ZoneId.systemDefault())
              .toInstant()
              .toEpochMilli();
      if (t >= since) {
        return t;
      }
    }
    return -1;
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void killingTheLeaderThreeTimesLosesNoAcknowledgedFile() throws Exception {
    Map<String, String> db = database();
    startCluster(db, 3);
    Configuration client = cluster.haClient();
    client.setLong("dfs.blocksize", BLOCK);

    Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
    AtomicInteger failed = new AtomicInteger();
    AtomicBoolean stop = new AtomicBoolean();
    try (FileSystem fs = FileSystem.get(FileSystem.getDefaultUri(client), client)) {
      cluster.awaitLiveDatanodes(fs);
      Thread writer =
          new Thread(
              () -> {
                Random random = new Random(9);
                for (int n = 0; !stop.get(); n++) {
                  String name = "/failover/f" + n;
                  byte[] data = new byte[random.nextInt(BLOCK + BLOCK / 2) + 1];
                  random.nextBytes(data);
                  try (FSDataOutputStream out =
                      fs.create(
                          new org.apache.hadoop.fs.Path(name), true, 4096, (short) 3, BLOCK)) {
                    out.write(data);
                  } catch (IOException | RuntimeException e) {
                    failed.incrementAndGet();
                    continue;
                  }
                  acknowledged.put(name, data);
                }
              },
              "writer");
      writer.start();
      // A kill once the cluster writes again, not by the clock (every 15 s before: 107 s in CI,
      // 860 files to read back).
      int filesPerKill = Integer.getInteger("hops.failover.files-per-kill", 20);
      for (int k = 0; k < KILLS; k++) {
        awaitMore(acknowledged, filesPerKill, writer);
        int leader = cluster.leaderIndex();
        cluster.kill(leader);
        Thread.sleep(2_000);
        cluster.startNamenode(leader);
      }
      awaitMore(acknowledged, filesPerKill, writer);
      stop.set(true);
      writer.join(120_000);
      assertThat(acknowledged).as("files written while namenodes died").hasSizeGreaterThan(10);
      for (Map.Entry<String, byte[]> f : acknowledged.entrySet()) {
        org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path(f.getKey());
        byte[] back = new byte[f.getValue().length];
        try (FSDataInputStream in = fs.open(p)) {
          IOUtils.readFully(in, back, 0, back.length);
          assertThat(in.read()).isEqualTo(-1);
        }
        assertThat(back).as("content of %s", p).isEqualTo(f.getValue());
        HopsTestCluster.awaitReplicas(fs, p, 3);
      }
    }
    try (Storage s = Storages.open(DalConfig.of(db))) {
      assertThat(NamespaceChecker.violations(s)).isEmpty();
    }
    System.out.printf(
        "process failover: %d files acknowledged, %d client operations failed over %d kills%n",
        acknowledged.size(), failed.get(), KILLS);
  }

  /** Waits (90 s at most) until {@code files} more than now are acknowledged by {@code writer}. */
  private static void awaitMore(Map<String, byte[]> acknowledged, int files, Thread writer)
      throws InterruptedException {
    int target = acknowledged.size() + files;
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (acknowledged.size() < target) {
      assertThat(writer.isAlive()).as("the writer runs").isTrue();
      assertThat(System.nanoTime()).as("%d files acknowledged", files).isLessThan(deadline);
      Thread.sleep(50);
    }
  }

  /**
   * Issue 55: every namenode process gets SIGKILL at once while a stock HA client writes, and they
   * start again over the same database. The cluster starts in safe mode, as HDFS does: the writer's
   * calls are refused retriably until the datanodes (processes that lived on) are heard from and
   * the extension has passed, so no write fails and no file is left open; the namenodes never give
   * a writer a datanode they have not heard from since they started.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void killingEveryNamenodeAtOnceFailsNoWriteAndLeavesNoFileOpen() throws Exception {
    Map<String, String> db = database();
    extraConf.put("dfs.namenode.safemode.extension", "5000");
    startCluster(db, 3);
    Configuration client = cluster.haClient();
    client.setInt("dfs.client.failover.max.attempts", 200);
    client.setInt("dfs.client.retry.max.attempts", 200);
    try (FileSystem fs = FileSystem.get(FileSystem.getDefaultUri(client), client)) {
      org.apache.hadoop.hdfs.DistributedFileSystem dfs =
          (org.apache.hadoop.hdfs.DistributedFileSystem) fs;
      cluster.awaitLiveDatanodes(fs);
      Writer writer = new Writer(fs, "/restart", BLOCK);
      while (writer.acknowledged() < 10) {
        Thread.sleep(100);
      }
      cluster.killAll();
      int acknowledgedAtKill = writer.acknowledged();
      long restarted = System.nanoTime();
      cluster.startNamenode(0);
      Configuration direct = new Configuration(false);
      direct.setBoolean("fs.hdfs.impl.disable.cache", true);
      try (org.apache.hadoop.hdfs.DistributedFileSystem first =
          (org.apache.hadoop.hdfs.DistributedFileSystem)
              FileSystem.get(
                  java.net.URI.create("hdfs://127.0.0.1:" + cluster.rpcPort(0)), direct)) {
        assertThat(first.setSafeMode(SafeModeAction.SAFEMODE_GET))
            .as("the restarted cluster is in safe mode")
            .isTrue();
      }
      cluster.startNamenodesFrom(1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (dfs.setSafeMode(SafeModeAction.SAFEMODE_GET)) {
        assertThat(System.nanoTime()).as("safe mode left").isLessThan(deadline);
        Thread.sleep(200);
      }
      long safeModeMillis = (System.nanoTime() - restarted) / 1_000_000;
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (writer.acknowledged() < acknowledgedAtKill + 10 && writer.failures().isEmpty()) {
        assertThat(System.nanoTime()).as("the writer goes on").isLessThan(deadline);
        Thread.sleep(100);
      }
      writer.close();
      assertThat(writer.failures()).as("writes the stock client gave up on").isEmpty();
      writer.assertAcknowledgedFilesRead();
      assertThat(Writer.openFiles(dfs)).as("files left open").isEmpty();
      System.out.printf(
          "all %d namenodes killed and restarted under a writer: %d files written, none failed;"
              + " safe mode left %d ms after the restart began%n",
          NAMENODES, writer.acknowledged(), safeModeMillis);
    }
  }

  /**
   * Issue 11: a namenode process gets SIGKILL in the middle of a subtree delete and of a rename to
   * the trash (each transaction of theirs slowed down by fault injection so that the kill lands
   * inside them). The stock HA client fails over and resends the call; the next namenode clears the
   * dead one's mark once it has left the membership and finishes the operation: the tree is gone
   * (or moved whole), no mark is left, and the namespace's invariants hold.
   */
  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void subtreeOperationsCutBySigkillAreFinishedByTheClientsRetry() throws Exception {
    Map<String, String> db = database();
    extraConf.put(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, "50");
    extraConf.put(io.hops.namenode.config.NamenodeConfig.SUBTREE_FAULT_BATCH_DELAY_MS, "40");
    startCluster(db, 0);
    Configuration client = cluster.haClient();
    try (FileSystem fs = FileSystem.get(FileSystem.getDefaultUri(client), client)) {
      org.apache.hadoop.fs.Path big = new org.apache.hadoop.fs.Path("/big");
      int bigInodes;
      try (Storage s = Storages.open(DalConfig.of(db))) {
        // 12 directories of 40 files, written straight into the store as in the SIGSTOP test.
        bigInodes =
            io.hops.namenode.subtree.BulkTree.build(
                s, (org.apache.hadoop.hdfs.DistributedFileSystem) fs, big, 12, 40);
      }
      // The delete answers once the tree is unlinked; its rows are freed in the background.
      long[] cut =
          killWhileReclaiming(
              db,
              client,
              bigInodes,
              () -> {
                assertThat(fs.delete(big, true)).isTrue();
                assertThat(fs.exists(big)).isFalse();
              });
      System.out.printf(
          "subtree delete of %d inodes: its reclaim cut by SIGKILL with %d inodes left, finished"
              + " by another namenode %d ms after the kill%n",
          bigInodes, cut[0], cut[1]);
      int victim = (int) cut[2];
      cluster.startNamenode(victim);

      // A rename to the trash (what `hdfs dfs -rm` does with trash on).
      try (org.apache.hadoop.hdfs.DistributedFileSystem asAlice = aliceWithTrash(fs, client)) {
        int moveInodes = chain(asAlice, MOVE, 16, 10);
        // A new client: its calls go to the first namenode again, started anew above.
        long renameAt =
            killDuring(
                db,
                0,
                150,
                () -> asAlice.rename(MOVE, MOVED, org.apache.hadoop.fs.Options.Rename.TO_TRASH));
        assertThat(asAlice.exists(MOVE)).isFalse();
        assertThat(asAlice.getContentSummary(MOVED).getFileAndDirectoryCount())
            .isEqualTo(moveInodes);
        System.out.printf(
            "rename to the trash of %d inodes cut by SIGKILL after %d ms: finished by the retry%n",
            moveInodes, renameAt);
      }
    }
    assertCleanAfterSubtreeOperations(db);
  }

  /**
   * A namenode paused with SIGSTOP for 10 s (a long GC, a frozen VM) while it reclaims a deleted
   * subtree, and then the namenode a client's move to the trash runs on, paused in the middle of
   * its walk under the mark: either the paused namenode finishes when it resumes or another one
   * takes the work over, never both (a batch stops once its mark is no longer its process's); the
   * namespace check is clean and no partial tree is left under the new name. The tree has {@code
   * -Dhops.sigstop.dirs} × 50 files (20 by default: 1,021 inodes; 1,000 makes 51,001), the moved
   * one {@code -Dhops.sigstop.move-dirs} × 10 files (16: 177 inodes; 4,800 makes 52,801); both are
   * written straight into the store ({@code BulkTree}).
   */
  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void subtreeOperationsPausedBySigstopFinishOrAreTakenOverOnce() throws Exception {
    Map<String, String> db = database();
    extraConf.put(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, "50");
    // The small default trees are slowed down to be paused mid-way; the size needs no delay
    // (and a delayed walk of 50,000 inodes outlasts the client's retries of the resent call).
    extraConf.put(
        io.hops.namenode.config.NamenodeConfig.SUBTREE_FAULT_BATCH_DELAY_MS,
        System.getProperty("hops.sigstop.batch-delay-ms", "40"));
    startCluster(db, 0);
    Configuration client = cluster.haClient();
    try (FileSystem fs = FileSystem.get(FileSystem.getDefaultUri(client), client)) {
      org.apache.hadoop.fs.Path big = new org.apache.hadoop.fs.Path("/big");
      try (Storage s = Storages.open(DalConfig.of(db))) {
        // Written straight into the store (the namenodes read it as any other rows).
        int bigInodes =
            io.hops.namenode.subtree.BulkTree.build(
                s,
                (org.apache.hadoop.hdfs.DistributedFileSystem) fs,
                big,
                Integer.getInteger("hops.sigstop.dirs", 20),
                50);
        long total = inodeCount(s);
        assertThat(fs.delete(big, true)).isTrue();
        List<io.hops.dal.rows.InodeRow> detached = io.hops.namenode.subtree.Reclaims.pending(s);
        assertThat(detached).hasSize(1);
        int victim = indexOf(detached.get(0).subtreeLockOwner(), client);
        long deadline = System.currentTimeMillis() + 60_000;
        while (inodeCount(s) > total - bigInodes / 4 * 3) {
          assertThat(System.currentTimeMillis()).as("no reclaim progress").isLessThan(deadline);
          Thread.sleep(20);
        }
        cluster.signal(victim, "STOP");
        long stopped = System.currentTimeMillis();
        Thread.sleep(10_000);
        cluster.signal(victim, "CONT");
        io.hops.namenode.subtree.Reclaims.await(s, java.time.Duration.ofSeconds(120));
        assertThat(inodeCount(s)).isEqualTo(total - bigInodes);
        System.out.printf(
            "reclaim of a %d-inode delete paused by SIGSTOP for 10 s: done %d ms after the pause"
                + " began%n",
            bigInodes, System.currentTimeMillis() - stopped);
      }

      // A move to the trash.
      try (org.apache.hadoop.hdfs.DistributedFileSystem asAlice = aliceWithTrash(fs, client)) {
        int moveInodes;
        try (Storage s = Storages.open(DalConfig.of(db))) {
          moveInodes =
              io.hops.namenode.subtree.BulkTree.build(
                  s, asAlice, MOVE, Integer.getInteger("hops.sigstop.move-dirs", 16), 10);
        }
        long pausedAt =
            pauseDuring(
                db,
                0,
                150,
                () -> asAlice.rename(MOVE, MOVED, org.apache.hadoop.fs.Options.Rename.TO_TRASH));
        assertThat(asAlice.exists(MOVE)).isFalse();
        assertThat(asAlice.getContentSummary(MOVED).getFileAndDirectoryCount())
            .isEqualTo(moveInodes);
        System.out.printf(
            "rename to the trash of %d inodes paused by SIGSTOP for 10 s after %d ms: finished%n",
            moveInodes, pausedAt);
      }
    }
    assertCleanAfterSubtreeOperations(db);
  }

  /**
   * alice's client of {@code client}'s namenodes, her home and its trash made hers by {@code fs}: a
   * move to the trash by a user who is not the superuser walks the whole subtree under its mark,
   * checking that she may delete everything in it.
   */
  private static org.apache.hadoop.hdfs.DistributedFileSystem aliceWithTrash(
      FileSystem fs, Configuration client) throws Exception {
    org.apache.hadoop.fs.Path trash = MOVED.getParent();
    fs.mkdirs(trash);
    for (org.apache.hadoop.fs.Path p : List.of(HOME, trash.getParent(), trash)) {
      fs.setOwner(p, "alice", "alice");
    }
    return org.apache.hadoop.security.UserGroupInformation.createUserForTesting(
            "alice", new String[] {"alice"})
        .doAs(
            (java.security.PrivilegedExceptionAction<org.apache.hadoop.hdfs.DistributedFileSystem>)
                () ->
                    (org.apache.hadoop.hdfs.DistributedFileSystem)
                        FileSystem.newInstance(FileSystem.getDefaultUri(client), client));
  }

  /** The namespace check is clean, and no subtree operation or mark is left behind. */
  private static void assertCleanAfterSubtreeOperations(Map<String, String> db) throws Exception {
    try (Storage s = Storages.open(DalConfig.of(db))) {
      assertThat(NamespaceChecker.violations(s)).isEmpty();
      try (io.hops.dal.Transaction tx = s.begin()) {
        assertThat(
                tx.scanAll(
                    io.hops.dal.rows.OnGoingSubtreeOpRow.TABLE,
                    io.hops.dal.LockMode.READ_COMMITTED))
            .as("subtree operations left recorded")
            .isEmpty();
        assertThat(
                tx
                    .scanAll(io.hops.dal.rows.InodeRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)
                    .stream()
                    .filter(io.hops.dal.rows.InodeRow::subtreeLocked))
            .as("inodes left marked")
            .isEmpty();
      }
    }
  }

  /**
   * {@code depth} nested directories under {@code root}, each with {@code files} empty files: its
   * inode count. A deep tree makes a long quiesce (one level at a time).
   */
  private static int chain(FileSystem fs, org.apache.hadoop.fs.Path root, int depth, int files)
      throws IOException {
    org.apache.hadoop.fs.Path dir = root;
    for (int d = 0; d < depth; d++) {
      dir = new org.apache.hadoop.fs.Path(dir, "d" + d);
      fs.mkdirs(dir);
      for (int f = 0; f < files; f++) {
        fs.create(new org.apache.hadoop.fs.Path(dir, "f" + f)).close();
      }
    }
    return 1 + depth + depth * files;
  }

  /** An operation that may throw. */
  private interface Call {
    void run() throws Exception;
  }

  /**
   * Runs {@code delete}, waits until the namenode reclaiming the deleted subtree of {@code inodes}
   * inodes has freed part of it, kills that namenode, then waits for another one to take the rest
   * over. Returns the inodes left at the kill, the milliseconds from the kill to the end of the
   * reclaim, and the index of the namenode killed.
   */
  private long[] killWhileReclaiming(
      Map<String, String> db, Configuration conf, int inodes, Call delete) throws Exception {
    try (Storage s = Storages.open(DalConfig.of(db))) {
      long total = inodeCount(s);
      delete.run();
      List<io.hops.dal.rows.InodeRow> detached = io.hops.namenode.subtree.Reclaims.pending(s);
      assertThat(detached).hasSize(1);
      int victim = indexOf(detached.get(0).subtreeLockOwner(), conf);
      long deadline = System.currentTimeMillis() + 60_000;
      while (inodeCount(s) > total - inodes / 4) {
        assertThat(System.currentTimeMillis())
            .as("the reclaim made no progress")
            .isLessThan(deadline);
        Thread.sleep(20);
      }
      cluster.kill(victim);
      long killed = System.currentTimeMillis();
      assertThat(io.hops.namenode.subtree.Reclaims.pending(s))
          .as("the reclaim ended before it could be cut")
          .hasSize(1);
      long left = inodeCount(s) - (total - inodes);
      io.hops.namenode.subtree.Reclaims.await(s, java.time.Duration.ofSeconds(90));
      assertThat(inodeCount(s)).isEqualTo(total - inodes);
      return new long[] {left, System.currentTimeMillis() - killed, victim};
    }
  }

  /** The index of the namenode with election id {@code id}, asked of any namenode that answers. */
  private int indexOf(long id, Configuration conf) throws Exception {
    for (int n = 0; n < cluster.namenodes(); n++) {
      try {
        for (Member m :
            NamenodesCommand.fetch(new InetSocketAddress("127.0.0.1", cluster.rpcPort(n)), conf)
                .members()) {
          if (m.id() == id) {
            int p = Integer.parseInt(m.rpcAddress().replaceAll(".*:", ""));
            for (int i = 0; i < cluster.namenodes(); i++) {
              if (cluster.rpcPort(i) == p) {
                return i;
              }
            }
          }
        }
      } catch (IOException e) {
        // that one is down: ask another
      }
    }
    throw new AssertionError("no namenode has id " + id);
  }

  private static long inodeCount(Storage s) throws IOException {
    try (io.hops.dal.Transaction tx = s.begin()) {
      return tx.scanAll(io.hops.dal.rows.InodeRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)
          .size();
    }
  }

  /**
   * Runs {@code call} through the HA client (which sends it to the first namenode, {@code victim}
   * here being the one it reaches), kills {@code victim} with SIGKILL {@code afterMarkMs} after the
   * operation marked its subtree, and waits for the call to return: after how many ms of the
   * operation the kill came.
   */
  private long killDuring(Map<String, String> db, int victim, long afterMarkMs, Call call)
      throws Exception {
    return cutDuring(db, afterMarkMs, () -> cluster.kill(victim), call);
  }

  /**
   * As {@link #killDuring}, but {@code victim} is paused with SIGSTOP for 10 s and then resumed:
   * after how many ms of the operation the pause came.
   */
  private long pauseDuring(Map<String, String> db, int victim, long afterMarkMs, Call call)
      throws Exception {
    return cutDuring(
        db,
        afterMarkMs,
        () -> {
          cluster.signal(victim, "STOP");
          Thread.sleep(10_000);
          cluster.signal(victim, "CONT");
        },
        call);
  }

  /**
   * Runs {@code call} on a thread of its own, does {@code fault} {@code afterMarkMs} after the
   * operation marked its subtree, and waits for the call to return: after how many ms of the
   * operation the fault came.
   */
  private long cutDuring(Map<String, String> db, long afterMarkMs, Call fault, Call call)
      throws Exception {
    java.util.concurrent.atomic.AtomicReference<Throwable> failure =
        new java.util.concurrent.atomic.AtomicReference<>();
    Thread t =
        new Thread(
            () -> {
              try {
                call.run();
              } catch (Throwable e) {
                failure.set(e);
              }
            },
            "subtree-call");
    t.start();
    long start = System.currentTimeMillis();
    try (Storage s = Storages.open(DalConfig.of(db))) {
      long deadline = start + 60_000;
      while (true) {
        try (io.hops.dal.Transaction tx = s.begin()) {
          if (!tx.scanAll(
                  io.hops.dal.rows.OnGoingSubtreeOpRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED)
              .isEmpty()) {
            break;
          }
        }
        assertThat(t.isAlive()).as("the operation ended before it could be cut").isTrue();
        assertThat(System.currentTimeMillis()).as("no subtree mark").isLessThan(deadline);
        Thread.sleep(20);
      }
    }
    Thread.sleep(afterMarkMs); // some of its batches done
    assertThat(t.isAlive()).as("the operation ended before it could be cut").isTrue();
    long at = System.currentTimeMillis() - start;
    fault.run();
    t.join(180_000);
    assertThat(t.isAlive()).as("the call returned").isFalse();
    if (failure.get() != null) {
      throw new AssertionError("the call failed across the fault", failure.get());
    }
    return at;
  }
}
