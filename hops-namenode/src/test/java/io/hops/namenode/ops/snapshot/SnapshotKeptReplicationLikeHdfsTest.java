package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.digestOf;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Blocks that only a snapshot still reads (a deleted file's, and the block a truncate on a block
 * boundary took from the live file) are re-replicated when a datanode holding them dies, as HDFS
 * re-replicates them (its blocks map keeps the snapshot's INodeFile as their collection), against
 * hops and Apache HDFS in the same run: three datanodes a side, replication 2; one datanode holding
 * both blocks stops, each block gets back to two replicas on the others, and a second datanode
 * stops: the snapshot still reads both files byte for byte, as HDFS's does.
 */
class SnapshotKeptReplicationLikeHdfsTest {
  private static final int BLOCK = 64 * 1024;

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () ->
              SideBySide.named("snapshot-kept-replication")
                  .conf(fastDeadDatanodes())
                  .datanodes(3)
                  .start());

  /** Snapshots on, datanodes declared dead within seconds, housekeeping every 300 ms. */
  private static Configuration fastDeadDatanodes() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    return conf;
  }

  @Test
  void blocksKeptOnlyForASnapshotAreReplicatedAgainWhenADatanodeDies() throws Exception {
    byte[] deleted = bytes(BLOCK + 5_000, 1);
    byte[] truncated = bytes(2 * BLOCK, 2);
    List<String> reads = new ArrayList<>();
    for (SideBySide.Side s : List.of(both.hopsSide(), both.hdfsSide())) {
      DistributedFileSystem fs = s.admin();
      fs.mkdirs(new Path("/kr/d"));
      fs.allowSnapshot(new Path("/kr/d"));
      write(fs, "/kr/d/deleted", deleted);
      write(fs, "/kr/d/truncated", truncated);
      awaitReplicas(fs, List.of("/kr/d/deleted", "/kr/d/truncated"), Set.of());
      fs.createSnapshot(new Path("/kr/d"), "s1");
      assertThat(fs.delete(new Path("/kr/d/deleted"), false)).isTrue();
      assertThat(fs.truncate(new Path("/kr/d/truncated"), BLOCK))
          .as("a cut on a boundary")
          .isTrue();

      List<String> kept = List.of("/kr/d/.snapshot/s1/deleted", "/kr/d/.snapshot/s1/truncated");
      Set<String> dead = new HashSet<>();
      // A datanode that holds the deleted file's last block and the block the truncate kept.
      Set<String> victims = holders(fs, kept.get(0)).get(1);
      victims.retainAll(holders(fs, kept.get(1)).get(1));
      String first = victims.iterator().next();
      stop(s, first);
      dead.add(first);
      awaitReplicas(fs, kept, dead);

      String second = holders(fs, kept.get(0)).get(0).iterator().next();
      stop(s, second);
      dead.add(second);
      reads.add(s.name() + ": " + digestOf(fs, kept.get(0)) + ", " + digestOf(fs, kept.get(1)));
      assertThat(read(fs, kept.get(1)))
          .as(s.name() + " reads the truncated file at s1")
          .isEqualTo(truncated);
      assertThat(read(fs, kept.get(0)))
          .as(s.name() + " reads the deleted file at s1")
          .isEqualTo(deleted);
    }
    assertThat(reads.get(0).substring(reads.get(0).indexOf(':')))
        .isEqualTo(reads.get(1).substring(reads.get(1).indexOf(':')));
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(DistributedFileSystem fs, String path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 2, BLOCK)) {
      out.write(data);
    }
  }

  private static byte[] read(DistributedFileSystem fs, String path) throws IOException {
    try (java.io.InputStream in = fs.open(new Path(path))) {
      return in.readAllBytes();
    }
  }

  /** The datanodes holding each block of {@code path}, by uuid. */
  private static List<Set<String>> holders(DistributedFileSystem fs, String path)
      throws IOException {
    List<Set<String>> out = new ArrayList<>();
    for (LocatedBlock b : fs.getClient().getLocatedBlocks(path, 0).getLocatedBlocks()) {
      Set<String> on = new HashSet<>();
      for (DatanodeInfo d : b.getLocations()) {
        on.add(d.getDatanodeUuid());
      }
      out.add(on);
    }
    return out;
  }

  /** Waits until every block of {@code paths} is on two datanodes, none of them {@code dead}. */
  private static void awaitReplicas(DistributedFileSystem fs, List<String> paths, Set<String> dead)
      throws Exception {
    long deadline = System.currentTimeMillis() + 120_000;
    List<String> state = new ArrayList<>();
    while (System.currentTimeMillis() < deadline) {
      state.clear();
      boolean done = true;
      for (String p : paths) {
        for (Set<String> on : holders(fs, p)) {
          state.add(p + " " + on);
          done &= on.size() == 2 && on.stream().noneMatch(dead::contains);
        }
      }
      if (done) {
        return;
      }
      Thread.sleep(300);
    }
    throw new AssertionError("blocks not back on two live datanodes (dead " + dead + "): " + state);
  }

  /** Stops the datanode {@code uuid} of side {@code s} (no goodbye: it is declared dead). */
  private static void stop(SideBySide.Side s, String uuid) {
    if (s == both.hopsSide()) {
      for (DataNode dn : both.get().hops.datanodes()) {
        if (uuid.equals(dn.getDatanodeUuid())) {
          dn.shutdown();
          return;
        }
      }
    } else {
      for (DataNode dn : both.hdfs().getDataNodes()) {
        if (uuid.equals(dn.getDatanodeUuid())) {
          both.hdfs().stopDataNode(dn.getDatanodeId().getXferAddr());
          return;
        }
      }
    }
    throw new AssertionError("no datanode " + uuid + " on " + s.name());
  }
}
