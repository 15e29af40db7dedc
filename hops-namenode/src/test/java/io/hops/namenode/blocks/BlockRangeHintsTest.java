package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.resolve.MutableInode;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code getBlockLocations} starts its range scans from what the file's inode says (its preferred
 * block size, its recorded length); those are hints, never the answer. A file whose blocks are
 * longer than its preferred block size (which HDFS never makes: injected here) and one whose
 * recorded length is wrong (but not 0, which says a closed file has no blocks) get the same answers
 * for every range as before, read from the file's start where the hint misses.
 */
class BlockRangeHintsTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 256);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(1);
    cluster.waitForLive(1);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  /** Rewrites the inode of {@code path} in place, as a fault would. */
  private static void changeInode(String path, Consumer<MutableInode> change) throws Exception {
    long id = fs.getClient().getFileInfo(path).getFileId();
    Storage storage = cluster.namenode().namesystem().storage();
    try (Transaction tx = storage.begin()) {
      List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.EXCLUSIVE);
      MutableInode m = MutableInode.of(rows.get(0));
      change.accept(m);
      tx.update(InodeRow.TABLE, m.toRow());
      tx.commit();
    }
  }

  private static Map<String, String> answersOf(String file) throws Exception {
    Map<String, String> out = new java.util.LinkedHashMap<>();
    for (long o : BlockRangeLikeHdfsTest.offsets(fs, file)) {
      for (long l : BlockRangeLikeHdfsTest.LENGTHS) {
        out.put(
            o + "+" + l,
            BlockRangeLikeHdfsTest.describe(fs.getClient().getLocatedBlocks(file, o, l)));
      }
    }
    return out;
  }

  @Test
  void blocksLongerThanThePreferredSizeAreFoundFromTheStart() throws Exception {
    fs.mkdirs(new Path("/hints"));
    BlockRangeLikeHdfsTest.write(fs, new Path("/hints/long"), 12 * 1024 + 300, 1, 1024);
    HopsTestCluster.awaitReplicas(fs, new Path("/hints/long"), 1);
    Map<String, String> before = answersOf("/hints/long");
    assertThat(before.get("3071+1"))
        .isEqualTo("length=12588 uc=false lastComplete=true blocks=2048+1024@1 last=12288+300@1");
    changeInode("/hints/long", m -> m.preferredBlockSize = 256);
    assertThat(answersOf("/hints/long")).isEqualTo(before);
  }

  @Test
  void aWrongRecordedLengthDoesNotChangeTheAnswer() throws Exception {
    fs.mkdirs(new Path("/hints"));
    for (long wrong : new long[] {1, 700, 1L << 40}) {
      String f = "/hints/size" + wrong;
      BlockRangeLikeHdfsTest.write(fs, new Path(f), 12 * 1024 + 10, 2, 1024);
      HopsTestCluster.awaitReplicas(fs, new Path(f), 1);
      Map<String, String> before = answersOf(f);
      changeInode(f, m -> m.size = wrong);
      assertThat(answersOf(f)).as("recorded length %d", wrong).isEqualTo(before);
    }
  }
}
