package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.everyBlockOn;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.rows;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.withBlockFile;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * Deleting files with blocks against stock DataNodes: the block rows go at once, every replica
 * becomes an invalidation, and the leader tells the datanodes, whose block files disappear and
 * whose used space comes back. Also for a directory, an overwritten file and a file still being
 * written (its pipeline's replicas).
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class DeleteBlocksTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int SUBTREE_BOUND = 8;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    // Small, so that a tree of a few dozen files takes the subtree protocol.
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, SUBTREE_BOUND);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static List<Long> blockIds(String path) throws IOException {
    List<Long> ids = new ArrayList<>();
    for (LocatedBlock b : located(fs, path)) {
      ids.add(b.getBlock().getBlockId());
    }
    return ids;
  }

  private static void waitUntilGoneFromDisks(List<Long> ids) throws IOException {
    for (long id : ids) {
      waitFor(
          "blk_" + id + " deleted from every datanode's disk",
          30,
          () -> withBlockFile(cluster, id).isEmpty());
    }
    // A removed block's lookup row stays until its datanodes reported the deletions.
    waitFor(
        "the lookup rows of the deleted blocks gone once their deletions are reported",
        30,
        () ->
            rows(cluster, BlockLookupRow.TABLE).stream().noneMatch(b -> ids.contains(b.blockId())));
  }

  private static void assertNoRowsOf(List<Long> ids) throws IOException {
    assertThat(rows(cluster, BlockInfoRow.TABLE)).noneMatch(b -> ids.contains(b.blockId()));
    assertThat(rows(cluster, ReplicaRow.TABLE)).noneMatch(r -> ids.contains(r.blockId()));
    assertThat(rows(cluster, ReplicaUnderConstructionRow.TABLE))
        .noneMatch(r -> ids.contains(r.blockId()));
  }

  private static Map<String, long[]> usage() {
    Map<String, long[]> out = new HashMap<>();
    for (DatanodeState n : cluster.namenode().namesystem().blocks().datanodes().live()) {
      out.put(n.uuid(), new long[] {n.dfsUsed(), n.remaining()});
    }
    return out;
  }

  /** First, so the datanodes' used space is not still shrinking from the other tests' deletes. */
  @Test
  @Order(1)
  void deletingAFileDeletesItsBlockFilesAndGivesTheSpaceBack() throws Exception {
    String path = "/del/file";
    long size = 8L * BLOCK;
    Map<String, long[]> empty = usage();
    write(fs, path, bytes((int) size, 3), (short) 3, BLOCK);
    waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
    List<Long> ids = blockIds(path);
    assertThat(ids).hasSize(8);
    for (long id : ids) {
      assertThat(withBlockFile(cluster, id)).hasSize(3);
    }
    // Heartbeats report the space the replicas take.
    waitFor(
        () ->
            "the datanodes report the file's bytes as used: "
                + show(empty)
                + " then "
                + show(usage()),
        20,
        () ->
            usage().entrySet().stream()
                .allMatch(e -> e.getValue()[0] >= empty.get(e.getKey())[0] + size));
    Map<String, long[]> full = usage();

    assertThat(fs.delete(new Path(path), false)).isTrue();

    assertNoRowsOf(ids);
    waitUntilGoneFromDisks(ids);
    waitFor(
        () -> "the datanodes report the space free again: " + show(full) + " then " + show(usage()),
        20,
        () ->
            usage().entrySet().stream()
                // Used space only: "remaining" is the disk's free space, which other processes
                // on the machine change by more than the file's size.
                .allMatch(e -> e.getValue()[0] < empty.get(e.getKey())[0] + BLOCK));
    waitFor(
        "the invalidations sent and gone",
        20,
        () -> rows(cluster, InvalidatedBlockRow.TABLE).isEmpty());
  }

  private static String show(Map<String, long[]> usage) {
    StringBuilder b = new StringBuilder();
    usage.forEach(
        (k, v) ->
            b.append(k, 0, 8)
                .append(" used ")
                .append(v[0])
                .append(" remaining ")
                .append(v[1])
                .append("; "));
    return b.toString();
  }

  @Test
  void deletingADirectoryDeletesTheBlocksOfEveryFileBelow() throws Exception {
    write(fs, "/deldir/a/one", bytes(BLOCK + 5, 4), (short) 2, BLOCK);
    write(fs, "/deldir/b/two", bytes(3 * 1024, 5), (short) 3, BLOCK);
    waitFor("replicas of one", 20, () -> everyBlockOn(fs, "/deldir/a/one", 2));
    waitFor("replicas of two", 20, () -> everyBlockOn(fs, "/deldir/b/two", 3));
    List<Long> ids = new ArrayList<>(blockIds("/deldir/a/one"));
    ids.addAll(blockIds("/deldir/b/two"));
    assertThat(ids).hasSize(3);

    assertThat(fs.delete(new Path("/deldir"), true)).isTrue();

    assertNoRowsOf(ids);
    waitUntilGoneFromDisks(ids);
  }

  @Test
  void deletingATreeOverTheBoundReleasesEveryBlockBatchByBatch() throws Exception {
    List<String> files = new ArrayList<>();
    for (int d = 0; d < 4; d++) {
      for (int f = 0; f < 6; f++) {
        String path = "/deltree/d" + d + "/s/f" + f;
        write(fs, path, bytes(2 * 1024 + f, 10 + d * 6 + f), (short) 2, BLOCK);
        files.add(path);
      }
    }
    List<Long> ids = new ArrayList<>();
    for (String f : files) {
      waitFor("replicas of " + f, 20, () -> everyBlockOn(fs, f, 2));
      ids.addAll(blockIds(f));
    }
    assertThat(ids).hasSize(24);
    // 33 inodes: four times the bound, so deleted in many transactions.
    assertThat(fs.delete(new Path("/deltree"), true)).isTrue();
    assertThat(fs.exists(new Path("/deltree"))).isFalse();
    io.hops.namenode.subtree.Reclaims.await(cluster.namenode().namesystem().storage());
    assertNoRowsOf(ids);
    waitUntilGoneFromDisks(ids);
    assertThat(
            io.hops.namenode.check.NamespaceChecker.violations(
                cluster.namenode().namesystem().storage()))
        .isEmpty();
  }

  @Test
  void overwritingAFileDeletesTheOldBlocks() throws Exception {
    String path = "/delover/f";
    write(fs, path, bytes(2 * BLOCK, 6), (short) 3, BLOCK);
    waitFor("three replicas of each block", 20, () -> everyBlockOn(fs, path, 3));
    List<Long> old = blockIds(path);

    byte[] now = bytes(BLOCK / 2, 7);
    write(fs, path, now, (short) 2, BLOCK); // create with OVERWRITE

    assertNoRowsOf(old);
    waitUntilGoneFromDisks(old);
    assertThat(read(fs, path, now.length)).isEqualTo(now);
  }

  @Test
  void deletingAFileBeingWrittenDeletesItsPipelineReplicas() throws Exception {
    String path = "/delopen/f";
    List<Long> ids;
    FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 3, BLOCK);
    try {
      out.write(bytes(BLOCK + BLOCK / 2, 8)); // one full block, then half of the second
      out.hflush();
      ids = blockIds(path);
      assertThat(ids).hasSize(2);
      waitFor(
          "the block being written is on its pipeline's disks",
          20,
          () -> withBlockFile(cluster, ids.get(1)).size() == 3);

      assertThat(fs.delete(new Path(path), false)).isTrue();
      assertNoRowsOf(ids);
    } finally {
      try {
        out.close(); // fails: the file is gone
      } catch (IOException expected) {
        // as with HDFS
      }
    }
    waitUntilGoneFromDisks(ids);
  }
}
