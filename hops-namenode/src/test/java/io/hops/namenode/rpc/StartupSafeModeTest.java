package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockManager;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
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
 * its thresholds are not met and the count has aged ({@link StartupSafeMode}): the judgement that
 * follows the last full report of a big cluster reads the replicas alone. Judged over the real
 * store of a cluster whose datanode holds one file's block; the store is wrapped only to count the
 * block counts it is asked for.
 */
class StartupSafeModeTest {
  private static final long ORPHAN_INODE = 9_999_999L;
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
        .as("the first count, its redo, and the count after the delete")
        .isEqualTo(3);
    // One counted within the hour keeps its total: the end waits for the period.
    assertThat(aged.evaluate()).as("the hour-old count is kept").isFalse();
    assertThat(aged.tip()).contains("total blocks " + (blocks() + 1));
  }

  private static StartupSafeMode judge(AtomicInteger counts, float threshold, long recountMillis) {
    Configuration conf = new Configuration(false);
    conf.setFloat(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY, threshold);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    BlockManager bm = cluster.namenode().namesystem().blocks();
    return new StartupSafeMode(
        counting(cluster.namenode().storage(), counts), bm, conf, recountMillis);
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
          new BlockInfoRow(ORPHAN_INODE, 8_888_888L, 0, 0, 10, 1, (byte) 0, 0, -1, 0));
      tx.commit();
    }
  }

  private static void deleteOrphanBlock() throws Exception {
    try (Transaction tx = cluster.namenode().storage().begin()) {
      tx.delete(BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(ORPHAN_INODE, 8_888_888L));
      tx.commit();
    }
  }

  /** The store, with each block count its transactions make counted in {@code counts}. */
  private static Storage counting(Storage storage, AtomicInteger counts) {
    return (Storage)
        Proxy.newProxyInstance(
            Storage.class.getClassLoader(),
            new Class<?>[] {Storage.class},
            (proxy, method, args) -> {
              Object result = invoke(storage, method, args);
              if (result instanceof Transaction t) {
                return countingCountAll(t, counts);
              }
              return result;
            });
  }

  private static Transaction countingCountAll(Transaction t, AtomicInteger counts) {
    return (Transaction)
        Proxy.newProxyInstance(
            Transaction.class.getClassLoader(),
            new Class<?>[] {Transaction.class},
            (proxy, method, args) -> {
              if (method.getName().equals("countAll") && args[0] == BlockInfoRow.TABLE) {
                counts.incrementAndGet();
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
