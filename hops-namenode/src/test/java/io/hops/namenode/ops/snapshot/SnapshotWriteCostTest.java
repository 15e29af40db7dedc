package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.namenode.ObservedCluster;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What snapshots add to a write below a snapshottable directory (docs/architecture.md,
 * "Snapshots"): the directory locked shared (one PK(SHARED)), and once it has a snapshot one
 * batched read of the changed entries' versions and one version row for the first change only; a
 * write elsewhere costs what it did. A content summary reads versions only of directories a
 * snapshot covers.
 */
class SnapshotWriteCostTest {

  @RegisterExtension
  static final ObservedCluster observed = ObservedCluster.of(SnapshotTestFiles.snapshotsOn());

  private static AccessCounts chmod(String path, int mode) throws Exception {
    observed.fs().setPermission(new Path(path), new FsPermission((short) mode));
    return observed.last("setPermission");
  }

  @Test
  void aWriterLocksTheSnapshottableDirectorySharedAndKeepsOneVersion() throws Exception {
    for (String d : new String[] {"/plain", "/snap"}) {
      observed.fs().mkdirs(new Path(d + "/a"));
      observed.fs().createNewFile(new Path(d + "/a/f"));
      observed.fs().getFileStatus(new Path(d + "/a/f")); // warm hints
    }
    observed.fs().allowSnapshot(new Path("/snap"));
    chmod("/plain/a/f", 0600);
    AccessCounts plain = chmod("/plain/a/f", 0640);

    AccessCounts allowed = chmod("/snap/a/f", 0640);
    assertThat(allowed.get(AccessKind.PK, LockMode.SHARED))
        .isEqualTo(plain.get(AccessKind.PK, LockMode.SHARED) + 1);
    assertThat(allowed.total()).isEqualTo(plain.total() + 1);
    assertThat(allowed.rowsWritten()).isEqualTo(plain.rowsWritten());

    observed.fs().createSnapshot(new Path("/snap"), "s1");
    AccessCounts first = chmod("/snap/a/f", 0600);
    assertThat(first.total()).isEqualTo(plain.total() + 2);
    assertThat(first.get(AccessKind.BATCH)).isEqualTo(plain.get(AccessKind.BATCH) + 1);
    // The entry's version and its log row (snapshot_version_log, for its reclaim).
    assertThat(first.rowsWritten()).isEqualTo(plain.rowsWritten() + 2);

    AccessCounts second = chmod("/snap/a/f", 0644);
    assertThat(second.total()).isEqualTo(plain.total() + 2);
    assertThat(second.rowsWritten()).isEqualTo(plain.rowsWritten());

    assertThat(observed.fs().getFileStatus(new Path("/snap/.snapshot/s1/a/f")).getPermission())
        .isEqualTo(new FsPermission((short) 0640));
    assertThat(chmod("/plain/a/f", 0600)).isEqualTo(plain);
  }

  private static AccessCounts setXAttr(String path, String value) throws Exception {
    observed
        .fs()
        .setXAttr(
            new Path(path), "user.x", value.getBytes(java.nio.charset.StandardCharsets.UTF_8));
    return observed.last("setXAttr");
  }

  @Test
  void anXAttrChangeKeepsItsRowsOnlyOnceAfterASnapshot() throws Exception {
    for (String d : new String[] {"/xplain", "/xsnap"}) {
      observed.fs().mkdirs(new Path(d + "/a"));
      observed.fs().createNewFile(new Path(d + "/a/f"));
      observed.fs().setXAttr(new Path(d + "/a/f"), "user.y", new byte[] {1});
      observed.fs().getFileStatus(new Path(d + "/a/f")); // warm hints
    }
    setXAttr("/xplain/a/f", "0");
    // Nothing snapshottable on the path: what setXAttr costs without snapshots (5 accesses and 2
    // rows
    // written, as measured; the copy-on-write reads nothing where no snapshot covers the path).
    AccessCounts plain = setXAttr("/xplain/a/f", "1");
    assertThat(plain.total()).isEqualTo(5);
    assertThat(plain.rowsWritten()).isEqualTo(2);
    observed.fs().allowSnapshot(new Path("/xsnap"));
    // A snapshottable directory without snapshots: its PK(SHARED) only, as for every writer.
    AccessCounts unsnapshotted = setXAttr("/xsnap/a/f", "1");
    assertThat(unsnapshotted.total()).isEqualTo(plain.total() + 1);
    assertThat(unsnapshotted.rowsWritten()).isEqualTo(plain.rowsWritten());

    observed.fs().createSnapshot(new Path("/xsnap"), "s1");
    // The first change: the versions' batch, the inode's attribute rows, and the entry's version
    // with its log row and its two attribute rows.
    AccessCounts first = setXAttr("/xsnap/a/f", "2");
    assertThat(first.total()).isEqualTo(plain.total() + 1 + 2);
    assertThat(first.get(AccessKind.BATCH)).isEqualTo(plain.get(AccessKind.BATCH) + 1);
    assertThat(first.rowsWritten()).isEqualTo(plain.rowsWritten() + 4);
    AccessCounts second = setXAttr("/xsnap/a/f", "3");
    assertThat(second.total()).isEqualTo(plain.total() + 2);
    assertThat(second.rowsWritten()).isEqualTo(plain.rowsWritten());
    assertThat(observed.fs().getXAttr(new Path("/xsnap/.snapshot/s1/a/f"), "user.x"))
        .containsExactly('1');
  }

  /** The second of two summaries (the first may recount what a change left uncounted). */
  private static AccessCounts summary(String path) throws Exception {
    observed.fs().getContentSummary(new Path(path));
    observed.fs().getContentSummary(new Path(path));
    return observed.last("getContentSummary");
  }

  @Test
  void aContentSummaryReadsVersionsOnlyWhereASnapshotCovers() throws Exception {
    for (String d : new String[] {"/cplain", "/csnap"}) {
      observed.fs().mkdirs(new Path(d + "/a"));
      observed.fs().createNewFile(new Path(d + "/a/f"));
      observed.fs().createNewFile(new Path(d + "/a/g"));
    }
    observed.fs().allowSnapshot(new Path("/csnap"));
    observed.fs().createSnapshot(new Path("/csnap"), "s1");
    AccessCounts plain = summary("/cplain");
    // One pruned scan of each covered directory's versions (none yet).
    assertThat(summary("/csnap").total()).isEqualTo(plain.total() + 2);

    for (String d : new String[] {"/cplain", "/csnap"}) {
      observed.fs().delete(new Path(d + "/a/f"), false);
    }
    AccessCounts plainAfter = summary("/cplain");
    assertThat(plainAfter.total()).isEqualTo(plain.total());
    // The delete versioned the file's entry and its directory's (a new modification time): each
    // directory with versions adds a scan of its live children, and the snapshots are read once;
    // the deleted file's tails and its blocks, for its length as the delete left it (two batched
    // reads).
    assertThat(summary("/csnap").total()).isEqualTo(plainAfter.total() + 2 + 2 + 1 + 2);
    assertThat(observed.fs().getContentSummary(new Path("/csnap")).getSnapshotFileCount())
        .isEqualTo(1);
  }

  private static long id(String path) throws Exception {
    return observed.fs().getClient().getFileInfo(path).getFileId();
  }

  private static AccessCounts rename(String from, String to) throws Exception {
    observed.fs().rename(new Path(from), new Path(to));
    return observed.last("rename");
  }

  /**
   * What snapshots keep is charged to every directory above it (docs/architecture.md, "Snapshots",
   * quota usage of what snapshots keep): a delete below a snapshot writes one usage row per
   * directory above, with no quota anywhere; a rename of a directory reads the charges naming it
   * with one index scan, and where it carries some, one batched read more, and moves them.
   */
  @Test
  void keptUsageIsChargedToEveryDirectoryAboveAndARenamedDirectoryReadsItsChargesOnce()
      throws Exception {
    for (String d : new String[] {"/kplain", "/ksnap"}) {
      observed.fs().mkdirs(new Path(d + "/a/b/c"));
      observed.fs().mkdirs(new Path(d + "/t"));
      observed.fs().createNewFile(new Path(d + "/a/b/c/f"));
      observed.fs().createNewFile(new Path(d + "/a/file"));
      observed.fs().getFileStatus(new Path(d + "/a/b/c/f")); // warm hints
    }
    AccessCounts file = rename("/kplain/a/file", "/kplain/t/file");
    AccessCounts dir = rename("/kplain/a/b", "/kplain/t/b");
    // Besides what a directory's rename read before: the charges naming it, one index scan.
    assertThat(dir.get(AccessKind.IS, LockMode.EXCLUSIVE))
        .isEqualTo(file.get(AccessKind.IS, LockMode.EXCLUSIVE) + 1);
    assertThat(dir.rowsWritten()).isEqualTo(file.rowsWritten());

    long snap = id("/ksnap");
    observed.fs().allowSnapshot(new Path("/ksnap"));
    observed.fs().createSnapshot(new Path("/ksnap"), "s1");
    observed.fs().delete(new Path("/ksnap/a/b/c/f"), false);
    try (io.hops.dal.Transaction tx =
        observed.cluster().namenode().namesystem().storage().begin()) {
      // ksnap, a, b and c: every directory above the kept file, the root excluded.
      assertThat(
              tx
                  .scanAll(io.hops.dal.rows.SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)
                  .stream()
                  .filter(u -> u.dirId() == snap)
                  .map(io.hops.dal.rows.SnapshotKeptUsageRow::quotaId)
                  .toList())
          .containsExactlyInAnyOrder(snap, id("/ksnap/a"), id("/ksnap/a/b"), id("/ksnap/a/b/c"));
    }
    // Moved out of the snapshottable directory: the rows naming ksnap and a go, one naming t comes;
    // with no quota on either path, its own WithName charge is written uncounted (no walk), one row
    // per directory above its old entry.
    long b = id("/ksnap/a/b");
    AccessCounts carrying = rename("/ksnap/a/b", "/kplain/t/b2");
    // Carrying charges: the same index scan, and one batched read of their rows on one side.
    assertThat(carrying.get(AccessKind.IS, LockMode.EXCLUSIVE)).isEqualTo(1);
    assertThat(carrying.get(AccessKind.BATCH, LockMode.EXCLUSIVE))
        .isEqualTo(dir.get(AccessKind.BATCH, LockMode.EXCLUSIVE) + 1);
    try (io.hops.dal.Transaction tx =
        observed.cluster().namenode().namesystem().storage().begin()) {
      assertThat(
              tx
                  .scanAll(io.hops.dal.rows.SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)
                  .stream()
                  .filter(u -> u.dirId() == snap && u.inodeId() > 0)
                  .map(io.hops.dal.rows.SnapshotKeptUsageRow::quotaId)
                  .toList())
          .containsExactlyInAnyOrder(
              id("/kplain"), id("/kplain/t"), id("/kplain/t/b2"), id("/kplain/t/b2/c"));
      assertThat(
              tx
                  .scanAll(io.hops.dal.rows.SnapshotKeptUsageRow.TABLE, LockMode.READ_COMMITTED)
                  .stream()
                  .filter(u -> u.dirId() == snap && u.inodeId() == -b)
                  .filter(io.hops.dal.rows.SnapshotKeptUsageRow::uncounted)
                  .map(io.hops.dal.rows.SnapshotKeptUsageRow::quotaId)
                  .toList())
          .containsExactlyInAnyOrder(snap, id("/ksnap/a"));
    }
    observed.fs().deleteSnapshot(new Path("/ksnap"), "s1");
  }
}
