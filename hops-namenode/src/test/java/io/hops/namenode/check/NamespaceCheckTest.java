package io.hops.namenode.check;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The streamed check over rows written by hand, in pages smaller than a directory (a directory of
 * 1,200 files, read 100 rows a page and 512 children a level): a consistent namespace with a
 * deleted subtree still being reclaimed is clean, and each corruption the command's test does not
 * inject is found, with its text: children counts, a file as parent, a cycle, a duplicate name,
 * attribute rows and flags, quota rows, a copy-on-truncate tail whose kept file is gone, a snapshot
 * version log row whose version is gone and pending rows that name no work.
 */
class NamespaceCheckTest {
  private static final long FILES_IN_B = 1_200;

  private Storage storage;

  @BeforeEach
  void tree() throws IOException {
    storage = Storages.open(DalConfig.embeddedInMemory("check-" + System.nanoTime()));
    storage.schema().createOrUpgrade();
    write(
        tx -> {
          tx.insert(InodeRow.TABLE, dir(Inodes.NO_PARENT, "", Inodes.ROOT_ID, 1).toRow());
          MutableInode a = dir(Inodes.ROOT_ID, "a", 2, 2);
          a.hasQuota = true;
          tx.insert(InodeRow.TABLE, a.toRow());
          tx.insert(InodeRow.TABLE, file(2, "f", 3).toRow());
          tx.insert(InodeRow.TABLE, dir(2, "b", 4, (int) FILES_IN_B).toRow());
          for (long i = 0; i < FILES_IN_B; i++) {
            tx.insert(InodeRow.TABLE, file(4, "g" + i, 1_000 + i).toRow());
          }
          long files = FILES_IN_B + 1;
          tx.insert(QuotaRow.TABLE, new QuotaRow(2, 1_000_000, -1, 2 + files, 30 * files));
          // A deleted subtree being reclaimed: a root of its own, with a child.
          tx.insert(InodeRow.TABLE, dir(Inodes.DETACHED, "40", 40, 1).toRow());
          tx.insert(InodeRow.TABLE, file(40, "h", 41).toRow());
        });
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aConsistentNamespaceReadInSmallPagesIsClean() throws Exception {
    assertThat(check()).isEmpty();
  }

  @Test
  void findsWrongChildrenCountsAFileAsParentAndACycle() throws Exception {
    write(
        tx -> {
          MutableInode b = MutableInode.of(row(2, "b"));
          b.childrenCount = 3;
          tx.update(InodeRow.TABLE, b.toRow());
          tx.insert(InodeRow.TABLE, file(3, "x", 10).toRow());
          tx.insert(InodeRow.TABLE, dir(21, "c1", 20, 1).toRow());
          tx.insert(InodeRow.TABLE, dir(20, "c2", 21, 1).toRow());
        });
    assertThat(check())
        .contains(
            "CHILDREN_COUNT: directory b (4) counts 3 children but has " + FILES_IN_B,
            "PARENT_NOT_DIRECTORY: file x (10) has a file as parent",
            "UNREACHABLE: directory c1 (20) is not reachable from the root (a cycle or an orphan"
                + " above)",
            "UNREACHABLE: directory c2 (21) is not reachable from the root (a cycle or an orphan"
                + " above)")
        .noneMatch(p -> p.startsWith("ORPHAN") || p.contains("(10) is not reachable"))
        .noneMatch(p -> p.startsWith("CHILDREN_COUNT: directory c"));
  }

  @Test
  void findsADuplicateNameInAWrongPartitionAndCountsItAsAChild() throws Exception {
    write(
        tx -> {
          InodeRow r = file(2, "f", 30).toRow();
          tx.insert(InodeRow.TABLE, FsckNamespaceCommandTest.withPartition(r, 4));
        });
    assertThat(check())
        .contains(
            "WRONG_PARTITION: file f (30) is in partition 4, not 2",
            "DUPLICATE_NAME: two children named f under inode 2",
            "CHILDREN_COUNT: directory a (2) counts 2 children but has 3");
  }

  @Test
  void findsAttributeRowsAndFlagsThatDisagreeAndQuotaRowsOfNoQuota() throws Exception {
    write(
        tx -> {
          MutableInode g = MutableInode.of(row(4, "g7"));
          g.permission = InodeFlags.set(g.permission, InodeFlags.XATTRS, true);
          tx.update(InodeRow.TABLE, g.toRow());
          tx.insert(XAttrRow.TABLE, new XAttrRow(99, (byte) 0, "stray", new byte[0], 1));
          tx.insert(XAttrRow.TABLE, new XAttrRow(3, XAttrRow.HIDDEN, "acl", new byte[0], 1));
          MutableInode b = MutableInode.of(row(2, "b"));
          b.hasQuota = true;
          tx.update(InodeRow.TABLE, b.toRow());
          tx.insert(QuotaRow.TABLE, new QuotaRow(3, 10, -1, 1, 30));
        });
    assertThat(check())
        .contains(
            "ATTRIBUTE_ROWS: file g7 (1007) is flagged with attributes it does not have",
            "ATTRIBUTE_ROWS: attribute stray of a missing inode 99",
            "ATTRIBUTE_ROWS: attribute acl of file f (3) without its flag",
            "QUOTA_ROW: directory b (4) has a quota but no quota row",
            "QUOTA_ROW: a quota row for inode 3, which has no quota");
  }

  @Test
  void findsATailWhoseKeptFileIsGone() throws Exception {
    write(
        tx -> {
          tx.insert(SnapshotFileTailRow.TABLE, new SnapshotFileTailRow(3, 7, 50, 0));
          tx.insert(SnapshotKeptFileRow.TABLE, new SnapshotKeptFileRow(2, 7, 50));
          tx.insert(SnapshotFileTailRow.TABLE, new SnapshotFileTailRow(3, 8, 51, 0));
        });
    assertThat(check())
        .containsExactly(
            "SNAPSHOT_TAIL: the tail of file 3 at snapshot 8 names kept file 51, which is not kept");
  }

  @Test
  void findsSnapshotLogRowsWithoutTheirVersionAndPendingRowsOfNoKind() throws Exception {
    InodeRow f = row(2, "f");
    write(
        tx -> {
          // A version with its log row, and the pending rows of work not finished: all fine, for a
          // directory deleted since as well (99).
          tx.insert(InodeVersionRow.TABLE, InodeVersionRow.of(2, "f", 7, f));
          tx.insert(SnapshotVersionLogRow.TABLE, new SnapshotVersionLogRow(2, 7, 2, "f"));
          tx.insert(SnapshotVersionLogRow.TABLE, SnapshotVersionLogRow.pending(2, 7));
          tx.insert(SnapshotVersionLogRow.TABLE, new SnapshotVersionLogRow(0, 7, 2, "kept"));
          tx.insert(SnapshotVersionLogRow.TABLE, new SnapshotVersionLogRow(0, 5, 99, "hold"));
        });
    assertThat(check()).isEmpty();

    write(
        tx -> {
          // The version's row lost; a pending row of no known kind, one for a file.
          tx.delete(InodeVersionRow.TABLE, InodeVersionRow.of(2, "f", 7, f));
          tx.insert(SnapshotVersionLogRow.TABLE, new SnapshotVersionLogRow(0, 7, 2, "what"));
          tx.insert(SnapshotVersionLogRow.TABLE, SnapshotVersionLogRow.pending(3, 1));
        });
    assertThat(check())
        .containsExactlyInAnyOrder(
            "SNAPSHOT_VERSION_LOG: the log of directory 2 names the version of f in inode 2 at"
                + " snapshot 7, which does not exist",
            "SNAPSHOT_VERSION_LOG: a pending row 'what' at snapshot 7 of inode 2 is of an unknown"
                + " kind",
            "SNAPSHOT_VERSION_LOG: a pending row '' at snapshot 1 of inode 3 is for a file");
  }

  private List<String> check() throws Exception {
    return new NamespaceCheck(storage, 100, line -> {}, id -> true)
        .run().stream().map(Problem::toString).toList();
  }

  private interface Change {
    void apply(Transaction tx) throws IOException;
  }

  private void write(Change c) throws IOException {
    try (Transaction tx = storage.begin()) {
      c.apply(tx);
      tx.commit();
    }
  }

  private InodeRow row(long parent, String name) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.find(InodeRow.TABLE, Inodes.key(parent, name), io.hops.dal.LockMode.READ_COMMITTED);
    }
  }

  private static MutableInode dir(long parent, String name, long id, int children) {
    MutableInode m = new MutableInode();
    m.parentId = parent;
    m.name = name;
    m.id = id;
    m.isDir = true;
    m.permission = 0755;
    m.childrenCount = children;
    return m;
  }

  private static MutableInode file(long parent, String name, long id) {
    MutableInode m = new MutableInode();
    m.parentId = parent;
    m.name = name;
    m.id = id;
    m.permission = 0644;
    m.size = 10;
    m.replication = 3;
    m.preferredBlockSize = 128 << 20;
    return m;
  }
}
