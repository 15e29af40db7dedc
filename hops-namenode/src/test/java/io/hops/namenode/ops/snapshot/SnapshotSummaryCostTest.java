package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.namenode.ObservedCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the blocks copy-on-truncate keeps add to a content summary (docs/architecture.md,
 * "Snapshots", "Content summaries"): below a snapshot, the files whose entries have versions are
 * asked for their tails in one batched read, and the tails found for their blocks in one more; a
 * summary where no snapshot covers the directory costs what it did, truncated files or not. Past
 * the subtree bound, the walk's steps read versions only for the directories a snapshot covers.
 */
class SnapshotSummaryCostTest {
  private static final int BLOCK = 1024;

  @RegisterExtension
  static final ObservedCluster observed = ObservedCluster.of(smallBlocks()).withDatanodes(1);

  private static Configuration smallBlocks() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, BLOCK);
    // Trees of more than 3 inodes are counted by the subtree protocol.
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, 3);
    return conf;
  }

  /** The second of two summaries (the first may recount what a change left uncounted). */
  private static AccessCounts summary(String path) throws Exception {
    observed.fs().getContentSummary(new Path(path));
    observed.fs().getContentSummary(new Path(path));
    return observed.last("getContentSummary");
  }

  @Test
  void aSummaryAsksTheTailsOfVersionedFilesInOneBatchAndTheirBlocksInAnother() throws Exception {
    for (String d : new String[] {"/tplain", "/tsnap"}) {
      observed.fs().mkdirs(new Path(d));
      try (FSDataOutputStream out =
          observed.fs().create(new Path(d + "/f"), true, 4096, (short) 1, BLOCK)) {
        out.write(new byte[2 * BLOCK]);
      }
    }
    observed.fs().allowSnapshot(new Path("/tsnap"));
    observed.fs().createSnapshot(new Path("/tsnap"), "s1");
    AccessCounts before = summary("/tplain");
    for (String d : new String[] {"/tplain", "/tsnap"}) {
      assertThat(observed.fs().truncate(new Path(d + "/f"), BLOCK)).isTrue(); // on a boundary
    }
    AccessCounts plain = summary("/tplain");
    assertThat(plain).isEqualTo(before);

    AccessCounts snap = summary("/tsnap");
    // The covered directory's versions, its live children and its snapshots (three pruned
    // scans), then the tails of its one versioned file and their blocks (two batched reads).
    assertThat(snap.total()).isEqualTo(plain.total() + 3 + 2);
    assertThat(snap.get(AccessKind.PPIS)).isEqualTo(plain.get(AccessKind.PPIS) + 3 + 2);
    assertThat(observed.fs().getContentSummary(new Path("/tsnap")).getSpaceConsumed())
        .isEqualTo(2L * BLOCK);
    assertThat(observed.fs().getContentSummary(new Path("/tplain")).getSpaceConsumed())
        .isEqualTo(BLOCK);
  }

  /** The accesses of every step of the subtree protocol's walk in the second of two summaries. */
  private static long walked(String path) throws Exception {
    observed.fs().getContentSummary(new Path(path));
    observed.forget();
    observed.fs().getContentSummary(new Path(path));
    List<AccessCounts> steps = observed.seen("subtreeCount");
    assertThat(steps).isNotEmpty();
    return steps.stream().mapToLong(AccessCounts::total).sum();
  }

  @Test
  void theSubtreeProtocolsWalkReadsVersionsOnlyWhereASnapshotCovers() throws Exception {
    for (String d : new String[] {"/wplain", "/wsnap"}) {
      for (String f : new String[] {"/a/f", "/a/g", "/b/f", "/b/g"}) {
        observed.fs().create(new Path(d + f)).close();
      }
    }
    observed.fs().allowSnapshot(new Path("/wsnap"));
    observed.fs().createSnapshot(new Path("/wsnap"), "s1");
    long plain = walked("/wplain");
    // A pruned scan of each covered directory's versions (none yet): /wsnap, a and b.
    assertThat(walked("/wsnap")).isEqualTo(plain + 3);

    for (String d : new String[] {"/wplain", "/wsnap"}) {
      observed.fs().delete(new Path(d + "/a/f"), false);
    }
    long plainAfter = walked("/wplain");
    assertThat(plainAfter).isEqualTo(plain);
    // /wsnap has a's version (its modification time) and a has f's: each adds its live children
    // and the snapshots (each step reads them once), and a the deleted file's tails and blocks.
    assertThat(walked("/wsnap")).isEqualTo(plainAfter + 3 + 2 * 2 + 2);
    assertThat(observed.fs().getContentSummary(new Path("/wsnap")).getSnapshotFileCount())
        .isEqualTo(1);
  }
}
