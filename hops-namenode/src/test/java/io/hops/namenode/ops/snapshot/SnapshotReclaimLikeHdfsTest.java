package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.line;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.sorted;
import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.text;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.check.NamespaceChecker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The reclaim of entry versions no snapshot reads (issue 60; docs/architecture.md, "Snapshots",
 * "Reclaiming versions"), side by side with a MiniDFSCluster: a backup rotation under two
 * snapshottable directories (snapshots taken and deleted oldest first, in the middle, the latest,
 * some through the second namenode) with creates, deletes, renames within, out, in and across (a
 * held directory), appends, a truncate below a snapshot's length, chmods and xattrs between them.
 * After every step every remaining snapshot's listing, file bytes and xattrs and the diff reports
 * between every pair of them and the current tree are HDFS's; and hops's version rows are exactly
 * what the remaining snapshots read: each version has a snapshot of its directory between the
 * entry's previous version and it, each has its log row, each rename row and earlier-entry row a
 * version that still has its inode there (versions written at a deleted latest snapshot's id until
 * the directory's next snapshot, which judges them); once every snapshot is deleted, none is left,
 * and fsck-namespace is clean.
 */
class SnapshotReclaimLikeHdfsTest {
  private static final String[] SNAPSHOTTABLE = {"/r/d", "/r/e"};

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-reclaim", SnapshotTestFiles.snapshotsOn(), 1));

  private interface Action {
    void run(DistributedFileSystem fs) throws Exception;
  }

  private static Path p(String path) {
    return new Path(path);
  }

  @Test
  void aRotationLeavesExactlyTheVersionsTheRemainingSnapshotsReadAsHdfsItsDiffs() throws Exception {
    step("set up", fs -> setUp(fs));
    step("snapshot d/s0", fs -> fs.createSnapshot(p("/r/d"), "s0"));
    step("append f1", fs -> append(fs, "/r/d/f1", "+more"));
    step("chmod a/f2", fs -> fs.setPermission(p("/r/d/a/f2"), new FsPermission((short) 0600)));
    step("create new1", fs -> write(fs, "/r/d/new1", "new one"));
    step("setxattr a", fs -> fs.setXAttr(p("/r/d/a"), "user.k", bytes("v1")));
    step("snapshot d/s1", fs -> fs.createSnapshot(p("/r/d"), "s1"));
    step("rename a/f2 to b/f2r", fs -> fs.rename(p("/r/d/a/f2"), p("/r/d/b/f2r")));
    step("rename g out", fs -> fs.rename(p("/r/d/g"), p("/r/o/g")));
    step("rename in in", fs -> fs.rename(p("/r/o/in"), p("/r/d/in")));
    step("delete b/f3", fs -> fs.delete(p("/r/d/b/f3"), false));
    step("setxattr d itself", fs -> fs.setXAttr(p("/r/d"), "user.own", bytes("o1")));
    step("snapshot d/s2", fs -> fs.createSnapshot(p("/r/d"), "s2"));
    step("truncate f1", fs -> SnapshotTestFiles.truncate(fs, "/r/d/f1", 3));
    step("mkdir c, move new1 into it", fs -> moveIntoNewDir(fs));
    step("delete d/s0 (oldest)", fs -> fs.deleteSnapshot(p("/r/d"), "s0"));
    step("chmod b", fs -> fs.setPermission(p("/r/d/b"), new FsPermission((short) 0700)));
    step("setxattr d itself again", fs -> fs.setXAttr(p("/r/d"), "user.own", bytes("o2")));
    step("snapshot d/s3", fs -> fs.createSnapshot(p("/r/d"), "s3"));
    step("delete a recursively", fs -> fs.delete(p("/r/d/a"), true));
    step("overwrite in", fs -> write(fs, "/r/d/in", "overwritten"));
    step("rename f2r away and back", fs -> awayAndBack(fs));
    stepThroughOther("delete d/s2 (middle) on the other namenode", "/r/d", "s2");
    step("append c/new1", fs -> append(fs, "/r/d/c/new1", "+again"));
    step("snapshot d/s4", fs -> fs.createSnapshot(p("/r/d"), "s4"));
    step("create x", fs -> write(fs, "/r/d/x", "x"));
    step("overwrite in again", fs -> write(fs, "/r/d/in", "overwritten again"));
    deletingLatestOf("/r/d");
    step("delete d/s4 (latest)", fs -> fs.deleteSnapshot(p("/r/d"), "s4"));
    step("append in", fs -> append(fs, "/r/d/in", "+after"));
    step("chmod f1", fs -> fs.setPermission(p("/r/d/f1"), new FsPermission((short) 0640)));
    assertThat(leftovers)
        .as("versions at the deleted latest id that no snapshot reads")
        .isNotEmpty();
    step("snapshot e/e0", fs -> fs.createSnapshot(p("/r/e"), "e0"));
    step("move c across to e (a hold)", fs -> fs.rename(p("/r/d/c"), p("/r/e/c")));
    step("append e/c/new1", fs -> append(fs, "/r/e/c/new1", "+held"));
    step("create e/c/y", fs -> write(fs, "/r/e/c/y", "y"));
    step("snapshot d/s5", fs -> fs.createSnapshot(p("/r/d"), "s5"));
    assertThat(leftovers).as("judged once the next snapshot is taken").isEmpty();
    step("delete b/f2r", fs -> fs.delete(p("/r/d/b/f2r"), false));
    step("delete d/s1", fs -> fs.deleteSnapshot(p("/r/d"), "s1"));
    step("delete d/s3 (ends the hold)", fs -> fs.deleteSnapshot(p("/r/d"), "s3"));
    step("chmod e/c/y", fs -> fs.setPermission(p("/r/e/c/y"), new FsPermission((short) 0600)));
    step("delete e/e0", fs -> fs.deleteSnapshot(p("/r/e"), "e0"));
    stepThroughOther("delete d/s5 (the last) on the other namenode", "/r/d", "s5");
    assertNoSnapshotRowsLeft();
    step("a change after the last snapshot", fs -> write(fs, "/r/d/z", "z"));
    assertNoSnapshotRowsLeft();
  }

  // ---- the history's steps, alike on both sides ----

  private static void setUp(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/r/d/a"));
    fs.mkdirs(p("/r/d/b"));
    fs.mkdirs(p("/r/o"));
    fs.mkdirs(p("/r/e"));
    write(fs, "/r/d/f1", text("f1", 40));
    write(fs, "/r/d/a/f2", "two");
    write(fs, "/r/d/b/f3", "three");
    write(fs, "/r/d/g", "going out");
    write(fs, "/r/o/in", "coming in");
    fs.allowSnapshot(p("/r/d"));
    fs.allowSnapshot(p("/r/e"));
  }

  private static void moveIntoNewDir(DistributedFileSystem fs) throws IOException {
    fs.mkdirs(p("/r/d/c"));
    fs.rename(p("/r/d/new1"), p("/r/d/c/new1"));
  }

  private static void awayAndBack(DistributedFileSystem fs) throws IOException {
    fs.rename(p("/r/d/b/f2r"), p("/r/o/f2r"));
    fs.rename(p("/r/o/f2r"), p("/r/d/b/f2r"));
  }

  private static void write(DistributedFileSystem fs, String path, String data) throws Exception {
    SnapshotTestFiles.write(fs, path, data);
  }

  private static void append(DistributedFileSystem fs, String path, String data)
      throws IOException {
    try (FSDataOutputStream out = fs.append(p(path))) {
      out.writeBytes(data);
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  // ---- after every step ----

  private void step(String name, Action action) throws Exception {
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      action.run(s.admin());
    }
    compare(name);
  }

  private void stepThroughOther(String name, String dir, String snapshot) throws Exception {
    try (DistributedFileSystem other =
        (DistributedFileSystem) FileSystem.newInstance(both.get().through(both.other()))) {
      other.deleteSnapshot(p(dir), snapshot);
    }
    both.hdfsSide().admin().deleteSnapshot(p(dir), snapshot);
    compare(name);
  }

  private void compare(String name) throws Exception {
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    assertThat(String.join("\n", view(both.hopsSide().admin())))
        .as("after '" + name + "'")
        .isEqualTo(String.join("\n", view(both.hdfsSide().admin())));
    assertThat(versionProblems()).as("version rows after '" + name + "'").isEmpty();
    System.out.println("after '" + name + "': leftovers at a deleted latest id " + leftovers);
    assertThat(NamespaceChecker.violations(storage()))
        .as("fsck-namespace after '" + name + "'")
        .isEmpty();
  }

  private static List<String> view(DistributedFileSystem fs) throws IOException {
    List<String> out = new ArrayList<>();
    walk(fs, "/r", out);
    for (String dir : SNAPSHOTTABLE) {
      List<String> names = new ArrayList<>();
      for (FileStatus s : sorted(fs.listStatus(p(dir + "/.snapshot")))) {
        String name = s.getPath().getName();
        names.add(name);
        String at = dir + "/.snapshot/" + name;
        out.add(line(s, at) + " xattrs=" + xattrs(fs, at));
        walk(fs, at, out);
      }
      names.add("");
      SnapshotTestFiles.diffsBetween(fs, dir, names, out);
    }
    return out;
  }

  private static void walk(DistributedFileSystem fs, String dir, List<String> out)
      throws IOException {
    for (FileStatus c : sorted(fs.listStatus(p(dir)))) {
      String path = dir + "/" + c.getPath().getName();
      StringBuilder b = new StringBuilder(line(c, path));
      b.append(" xattrs=").append(xattrs(fs, path));
      if (!c.isDirectory()) {
        b.append(" data=").append(SnapshotTestFiles.read(fs, path));
      }
      out.add(b.toString());
      if (c.isDirectory()) {
        walk(fs, path, out);
      }
    }
  }

  private static String xattrs(DistributedFileSystem fs, String path) throws IOException {
    StringBuilder b = new StringBuilder("{");
    for (Map.Entry<String, byte[]> e : new TreeMap<>(fs.getXAttrs(p(path))).entrySet()) {
      b.append(e.getKey()).append('=').append(new String(e.getValue(), StandardCharsets.UTF_8));
      b.append(';');
    }
    return b.append('}').toString();
  }

  // ---- hops's rows ----

  private static Storage storage() {
    return both.hops().namenode().namesystem().storage();
  }

  /**
   * What is wrong with hops's version rows: a version no snapshot of its directory reads (none
   * between the entry's previous version and it), one without its log row or a log row without its
   * version, a pending reclaim left, a rename row or earlier-entry row whose inode no version has
   * at its entry, xattr versions without their version.
   */
  private final List<String> leftovers = new ArrayList<>();

  /** The ids of latest snapshots deleted while older ones remained (see {@link #leftovers}). */
  private final List<Long> deletedLatest = new ArrayList<>();

  /** Notes that the latest snapshot of {@code dir} on hops is about to be deleted. */
  private void deletingLatestOf(String dir) throws Exception {
    long id = ((HdfsFileStatus) both.hopsSide().admin().getFileStatus(p(dir))).getFileId();
    try (Transaction tx = storage().begin()) {
      deletedLatest.add(
          tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED).get(0).snapshotId());
    }
  }

  private List<String> versionProblems() throws Exception {
    List<String> problems = new ArrayList<>();
    leftovers.clear();
    try (Transaction tx = storage().begin()) {
      Map<Long, List<Long>> snapshotsOf = new HashMap<>();
      for (SnapshotRow s : tx.scanAll(SnapshotRow.TABLE, LockMode.READ_COMMITTED)) {
        snapshotsOf.computeIfAbsent(s.dirId(), k -> new ArrayList<>()).add(s.snapshotId());
      }
      Map<String, Long> logged = new HashMap<>();
      for (SnapshotVersionLogRow l :
          tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED)) {
        if (l.dirId() == SnapshotVersionLogRow.PENDING) {
          problems.add("pending reclaim " + l);
        } else if (logged.put(l.parentId() + "/" + l.name() + "@" + l.snapshotId(), l.dirId())
            != null) {
          problems.add("logged twice " + l);
        }
      }
      Map<String, List<InodeVersionRow>> entries = new TreeMap<>();
      for (InodeVersionRow v : tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED)) {
        entries.computeIfAbsent(v.parentId() + "/" + v.name(), k -> new ArrayList<>()).add(v);
      }
      for (Map.Entry<String, List<InodeVersionRow>> e : entries.entrySet()) {
        List<InodeVersionRow> vs = e.getValue();
        vs.sort((a, b) -> Long.compare(a.snapshotId(), b.snapshotId()));
        long u = 0;
        for (InodeVersionRow v : vs) {
          String key = e.getKey() + "@" + v.snapshotId();
          Long dir = logged.remove(key);
          if (dir == null) {
            problems.add("version without its log row " + key);
          } else {
            long from = u;
            // A held directory's versions are read by its holder's snapshots and those of the
            // directory it sits in now: any directory's, here.
            List<Long> readers =
                snapshotsOf.containsKey(dir)
                    ? snapshotsOf.get(dir)
                    : snapshotsOf.values().stream().flatMap(List::stream).toList();
            boolean read = readers.stream().anyMatch(s -> s > from && s <= v.snapshotId());
            // After the latest snapshot is deleted while older ones remain, changes still write
            // at its id (its versions may answer the older ones), so an entry whose version there
            // was reclaimed gets one nobody reads, until the directory's next snapshot (or the
            // deletion of its last one) judges them.
            if (!read && deletedLatest.contains(v.snapshotId())) {
              leftovers.add(key);
            } else if (!read) {
              problems.add("version no snapshot of " + dir + " reads " + key);
            }
          }
          u = v.snapshotId();
        }
      }
      for (String key : logged.keySet()) {
        problems.add("log row without its version " + key);
      }
      for (SnapshotRenamedEntryRow r :
          tx.scanAll(SnapshotRenamedEntryRow.TABLE, LockMode.READ_COMMITTED)) {
        boolean had =
            entries.getOrDefault(r.parentId() + "/" + r.name(), List.of()).stream()
                .anyMatch(
                    v -> v.present() && v.id() == r.inodeId() && v.snapshotId() <= r.snapshotId());
        if (!had) {
          problems.add("rename row no version has " + r);
        }
      }
      for (SnapshotEarlierEntryRow r :
          tx.scanAll(SnapshotEarlierEntryRow.TABLE, LockMode.READ_COMMITTED)) {
        boolean had =
            entries.getOrDefault(r.parentId() + "/" + r.name(), List.of()).stream()
                .anyMatch(v -> v.present() && v.id() == r.inodeId());
        if (!had) {
          problems.add("earlier entry no version has " + r);
        }
      }
      for (XAttrVersionRow a : tx.scanAll(XAttrVersionRow.TABLE, LockMode.READ_COMMITTED)) {
        if (a.entryName().equals(XAttrVersionRow.OWN)) {
          continue;
        }
        boolean has =
            entries.getOrDefault(a.parentId() + "/" + a.entryName(), List.of()).stream()
                .anyMatch(v -> v.snapshotId() == a.snapshotId());
        if (!has) {
          problems.add("xattr version without its version " + a);
        }
      }
    }
    return problems;
  }

  private static void assertNoSnapshotRowsLeft() throws Exception {
    SnapshotTestFiles.awaitReclaims(both.hops().namenode(), both.other());
    try (Transaction tx = storage().begin()) {
      assertThat(tx.scanAll(SnapshotRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(InodeVersionRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotVersionLogRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotRenamedEntryRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(SnapshotEarlierEntryRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
      assertThat(tx.scanAll(XAttrVersionRow.TABLE, LockMode.READ_COMMITTED)).isEmpty();
    }
  }
}
