package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The leader's judgement of startup safe mode counts the cluster's blocks once and again only while
 * its thresholds are not met and the count has aged ({@link StartupSafeMode}), and reads again only
 * the storages whose replicas changed: the judgement that follows the last full report of a big
 * cluster reads neither. Judged over the real store of a cluster whose datanode holds one file's
 * block; the store is wrapped only to count the block counts and replica reads it is asked for.
 */
class StartupSafeModeTest {
  private static final long ORPHAN_INODE = 9_999_999L;
  private static final long ORPHAN_BLOCK = 8_888_888L;
  private static HopsTestCluster cluster;

  @BeforeAll
  static void oneBlockOnADatanode() throws Exception {
    cluster = new HopsTestCluster();
    cluster.startDatanodes(1);
    try (DistributedFileSystem fs = cluster.client()) {
      try (FSDataOutputStream out = fs.create(new Path("/ssm/f"), (short) 1)) {
        out.write(new byte[100]);
      }
      HopsTestCluster.awaitReplicas(fs, new Path("/ssm/f"), 1);
    }
  }

  @AfterAll
  static void stop() {
    cluster.close();
  }

  @Test
  void aJudgementWhoseThresholdsHoldCountsTheBlocksOnlyTheFirstTime() throws Exception {
    AtomicInteger counts = new AtomicInteger();
    StartupSafeMode thresholds = judge(counts, 1.0f, TimeUnit.HOURS.toMillis(1));

    assertThat(thresholds.evaluate()).as("every block has its replica").isTrue();
    assertThat(thresholds.evaluate()).isTrue();
    assertThat(thresholds.evaluate()).isTrue();

    assertThat(counts.get()).as("block counts over three judgements").isEqualTo(1);
    assertThat(thresholds.tip()).contains("total blocks " + blocks());
  }

  @Test
  void aTotalThatFellIsCountedAgainOnceTheCountIsOlderThanThePeriod() throws Exception {
    AtomicInteger counts = new AtomicInteger();
    StartupSafeMode fresh = judge(counts, 1.0f, 0);
    StartupSafeMode aged = judge(new AtomicInteger(), 1.0f, TimeUnit.HOURS.toMillis(1));
    insertOrphanBlock();
    try {
      assertThat(fresh.evaluate()).as("a block without replicas: not met").isFalse();
      assertThat(aged.evaluate()).isFalse();
    } finally {
      deleteOrphanBlock();
    }

    // The block is gone: a count of any age is redone while the thresholds are not met.
    assertThat(fresh.evaluate()).as("counted again at once").isTrue();
    assertThat(counts.get())
        .as(
            "the first count (its judgement read every storage: no recount), and the count after"
                + " the delete")
        .isEqualTo(2);
    // One counted within the hour keeps its total: the end waits for the period.
    assertThat(aged.evaluate()).as("the hour-old count is kept").isFalse();
    assertThat(aged.tip()).contains("total blocks " + (blocks() + 1));
  }

  /**
   * A judgement reads again only the storages whose replica rows changed since the last one, as a
   * transaction noted them ({@link ChangedStorages}): none when nothing changed, so the judgement
   * after the last report of a restart reads no replica; the one after one more report reads that
   * report's storage alone, and counts what it holds now.
   */
  @Test
  void aJudgementReadsAgainOnlyTheStoragesNotedChanged() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    StartupSafeMode thresholds =
        judge(new AtomicInteger(), reads, 1.0f, TimeUnit.HOURS.toMillis(1));
    int storages = storagesHeardFrom();

    assertThat(thresholds.evaluate()).isTrue();
    assertThat(reads.get()).as("the first judgement reads every storage").isEqualTo(storages);
    assertThat(thresholds.evaluate()).isTrue();
    assertThat(thresholds.evaluate()).isTrue();
    assertThat(reads.get()).as("nothing changed: no storage read again").isEqualTo(storages);

    ReplicaRow replica = theReplica();
    changeNoted(tx -> tx.delete(ReplicaRow.TABLE, replica), replica.storageId());
    try {
      thresholds.evaluate(); // once off, it stays off, as HDFS's: the tip shows the count
      assertThat(reads.get()).as("the noted storage read again").isEqualTo(storages + 1);
      assertThat(thresholds.tip())
          .as("the block lost its replica")
          .startsWith("The reported blocks 0 needs additional 1 blocks");
      forget(thresholds.takeChangesSeen());
    } finally {
      changeNoted(tx -> tx.insert(ReplicaRow.TABLE, replica), replica.storageId());
    }
    thresholds.evaluate();
    assertThat(reads.get()).isEqualTo(storages + 2);
    assertThat(thresholds.tip()).as("the replica is back").startsWith("The reported blocks 1 has");
    forget(thresholds.takeChangesSeen());
    assertThat(thresholds.evaluate()).isTrue();
    assertThat(reads.get()).as("the notes read are gone").isEqualTo(storages + 2);
  }

  /**
   * A transaction that only adds replicas to a storage names their block ids in its note ({@link
   * ChangedStorages#noteAdded}, as a first report's bulk path does): the judgement adds them to
   * what it read and reads no storage again, so the judgements during a first report of a million
   * replicas do not read the storage anew every half second.
   */
  @Test
  void aJudgementAddsTheNotedBlockIdsWithoutReadingTheStorageAgain() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    insertOrphanBlock();
    ReplicaRow replica = theReplica();
    ReplicaRow orphans =
        new ReplicaRow(ORPHAN_INODE, ORPHAN_BLOCK, replica.storageId(), replica.replicaIndex());
    try {
      StartupSafeMode thresholds =
          judge(new AtomicInteger(), reads, 1.0f, TimeUnit.HOURS.toMillis(1));
      int storages = storagesHeardFrom();
      assertThat(thresholds.evaluate()).as("the orphan block has no replica").isFalse();
      assertThat(reads.get()).isEqualTo(storages);

      run(
          "addedNoted",
          tx -> {
            tx.insert(ReplicaRow.TABLE, orphans);
            ChangedStorages.noteAdded(tx, replica.storageId(), new long[] {ORPHAN_BLOCK});
          });
      assertThat(thresholds.evaluate()).as("the noted replica counts").isTrue();
      assertThat(reads.get()).as("no storage read again").isEqualTo(storages);
      assertThat(thresholds.tip()).startsWith("The reported blocks 2 has reached");
      forget(thresholds.takeChangesSeen());
    } finally {
      run("cleanUp", tx -> tx.delete(ReplicaRow.TABLE, orphans));
      deleteOrphanBlock();
    }
  }

  /**
   * A recount reads every replica of the heard-from datanodes again: it is made only when nothing
   * was noted changed since the last judgement (while reports are applied it would only cost, and
   * delay the end), and the next waits at least nine times as long as the last took (a store made
   * slow to count here), so recounts of a big cluster stuck in safe mode take at most a tenth of
   * the leader's time.
   */
  @Test
  void aRecountWaitsForQuietAndNineTimesAsLongAsTheLastTook() throws Exception {
    AtomicInteger counts = new AtomicInteger();
    insertOrphanBlock(); // so the thresholds are never met
    try {
      StartupSafeMode thresholds =
          new StartupSafeMode(
              counting(cluster.namenode().storage(), counts, new AtomicInteger(), 100),
              cluster.namenode().namesystem().blocks(),
              conf(1.0f),
              0,
              StartupSafeMode.RECOUNT_COST_FACTOR);
      assertThat(thresholds.evaluate()).isFalse();
      assertThat(counts.get()).as("the first count; its judgement read every storage").isEqualTo(1);

      ReplicaRow replica = theReplica();
      Thread.sleep(100 * (StartupSafeMode.RECOUNT_COST_FACTOR + 3));
      changeNoted(tx -> {}, replica.storageId());
      assertThat(thresholds.evaluate()).isFalse();
      forget(thresholds.takeChangesSeen());
      assertThat(counts.get()).as("a storage noted changed: no recount").isEqualTo(1);

      Thread.sleep(100 * (StartupSafeMode.RECOUNT_COST_FACTOR + 3));
      assertThat(thresholds.evaluate()).isFalse();
      long recounted = System.nanoTime();
      assertThat(counts.get()).as("nothing changed: counted again").isEqualTo(2);
      assertThat(thresholds.evaluate()).isFalse();
      assertThat(counts.get()).as("the recount took 100 ms or more: none at once").isEqualTo(2);
      while (counts.get() == 2 && System.nanoTime() < recounted + TimeUnit.SECONDS.toNanos(30)) {
        Thread.sleep(20);
        thresholds.evaluate();
      }
      assertThat(counts.get()).as("counted again in the end").isEqualTo(3);
      assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - recounted))
          .as("not within nine times the 100 ms the recount took")
          .isGreaterThanOrEqualTo(850);
    } finally {
      deleteOrphanBlock();
    }
  }

  /**
   * A namenode that serves already writes no notes (a leader that starts over it judges alone), so
   * a judgement whose thresholds are not met reads every storage again with its recount: a replica
   * recorded without a note is counted then, and the judgement is not stuck.
   */
  @Test
  void aJudgementNotMetReadsEveryStorageAgainWithItsRecount() throws Exception {
    AtomicInteger reads = new AtomicInteger();
    StartupSafeMode thresholds = judge(new AtomicInteger(), reads, 1.0f, 0);
    int storages = storagesHeardFrom();
    ReplicaRow replica = theReplica();
    changeUnnoted(tx -> tx.delete(ReplicaRow.TABLE, replica));
    try {
      assertThat(thresholds.evaluate()).as("no replica: not met").isFalse();
    } finally {
      changeUnnoted(tx -> tx.insert(ReplicaRow.TABLE, replica));
    }
    int before = reads.get();
    assertThat(thresholds.evaluate()).as("the replica recorded without a note is counted").isTrue();
    assertThat(reads.get() - before).as("every storage read again").isEqualTo(storages);
  }

  /** Runs {@code write} with no note, as a namenode that serves already writes. */
  private static void changeUnnoted(Write write) throws IOException {
    run("changeUnnoted", write);
  }

  /** What a test writes in a transaction. */
  private interface Write {
    void apply(ExecutePhase tx) throws IOException;
  }

  /** Runs {@code write} and notes the storage changed in the same transaction, as reports do. */
  private static void changeNoted(Write write, int storageId) throws IOException {
    run(
        "changeNoted",
        tx -> {
          write.apply(tx);
          ChangedStorages.note(tx, List.of(storageId));
        });
  }

  /** Runs {@code write} in one transaction of the namenode's runner. */
  private static void run(String name, Write write) throws IOException {
    cluster
        .namenode()
        .namesystem()
        .runner()
        .run(
            () ->
                new Operation<Void>() {
                  @Override
                  public String name() {
                    return name;
                  }

                  @Override
                  protected void lock(LockPhase tx) {}

                  @Override
                  protected Void execute(ExecutePhase tx) throws IOException {
                    write.apply(tx);
                    return null;
                  }
                });
  }

  private static void forget(List<Key> notes) throws IOException {
    cluster.namenode().namesystem().runner().run(() -> ChangedStorages.forget(notes));
  }

  private static ReplicaRow theReplica() throws Exception {
    try (Transaction tx = cluster.namenode().storage().begin()) {
      List<ReplicaRow> all = tx.scanAll(ReplicaRow.TABLE, LockMode.READ_COMMITTED);
      assertThat(all).hasSize(1);
      return all.get(0);
    }
  }

  private static int storagesHeardFrom() {
    int n = 0;
    for (DatanodeState d : cluster.namenode().namesystem().blocks().datanodes().live()) {
      n += d.heardFrom() ? d.storages().size() : 0;
    }
    return n;
  }

  private static StartupSafeMode judge(AtomicInteger counts, float threshold, long recountMillis) {
    return judge(counts, new AtomicInteger(), threshold, recountMillis);
  }

  /** Judges with recounts as old as {@code recountMillis}, however long the last one took. */
  private static StartupSafeMode judge(
      AtomicInteger counts, AtomicInteger reads, float threshold, long recountMillis) {
    BlockManager bm = cluster.namenode().namesystem().blocks();
    return new StartupSafeMode(
        counting(cluster.namenode().storage(), counts, reads, 0),
        bm,
        conf(threshold),
        recountMillis,
        0);
  }

  private static Configuration conf(float threshold) {
    Configuration conf = new Configuration(false);
    conf.setFloat(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY, threshold);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    return conf;
  }

  private static long blocks() throws Exception {
    try (Transaction tx = cluster.namenode().storage().begin()) {
      return tx.countAll(BlockInfoRow.TABLE);
    }
  }

  private static void insertOrphanBlock() throws Exception {
    try (Transaction tx = cluster.namenode().storage().begin()) {
      tx.insert(
          BlockInfoRow.TABLE,
          new BlockInfoRow(ORPHAN_INODE, ORPHAN_BLOCK, 0, 0, 10, 1, (byte) 0, 0, -1, 0));
      tx.commit();
    }
  }

  private static void deleteOrphanBlock() throws Exception {
    try (Transaction tx = cluster.namenode().storage().begin()) {
      tx.delete(BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(ORPHAN_INODE, ORPHAN_BLOCK));
      tx.commit();
    }
  }

  /**
   * The store, with each block count its transactions make counted in {@code counts} (and slowed by
   * {@code countMillis}), and each read of a storage's block ids in {@code reads}.
   */
  private static Storage counting(
      Storage storage, AtomicInteger counts, AtomicInteger reads, long countMillis) {
    return (Storage)
        Proxy.newProxyInstance(
            Storage.class.getClassLoader(),
            new Class<?>[] {Storage.class},
            (proxy, method, args) -> {
              Object result = invoke(storage, method, args);
              if (result instanceof Transaction t) {
                return countingReads(t, counts, reads, countMillis);
              }
              return result;
            });
  }

  private static Transaction countingReads(
      Transaction t, AtomicInteger counts, AtomicInteger reads, long countMillis) {
    return (Transaction)
        Proxy.newProxyInstance(
            Transaction.class.getClassLoader(),
            new Class<?>[] {Transaction.class},
            (proxy, method, args) -> {
              if (method.getName().equals("countAll") && args[0] == BlockInfoRow.TABLE) {
                counts.incrementAndGet();
                Thread.sleep(countMillis);
              }
              if (method.getName().equals("findKeyLongsByIndex") && args[0] == ReplicaRow.TABLE) {
                reads.incrementAndGet();
              }
              return invoke(t, method, args);
            });
  }

  private static Object invoke(Object target, java.lang.reflect.Method method, Object[] args)
      throws Throwable {
    try {
      return method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
  }
}
