package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Permission checks of reads through {@code /d/.snapshot/s} against hops and Apache HDFS in the
 * same run: HDFS checks every inode of a snapshot path as the snapshot has it, the snapshottable
 * directory itself included, so a mode or an ACL of the directory (or of a directory below it)
 * changed after the snapshot does not change who may read the snapshot. Access revoked later (the
 * mode, then the ACL) leaves the snapshot readable, access granted later leaves it closed, with
 * HDFS's {@code AccessControlException} messages; {@code .snapshot} itself is checked as the
 * directory is now. Every read that resolves a snapshot path is tried: stat, listing, open, content
 * summary, xattrs and ACL status.
 */
class SnapshotTraversalLikeHdfsTest {
  private static final String READER = "bob";

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> SideBySide.start("snapshot-traversal", SnapshotTestFiles.snapshotsOn(), 1));

  private interface Change {
    void on(DistributedFileSystem fs, String dir) throws Exception;
  }

  @Test
  void accessToTheDirectoryRevokedOrGrantedAfterTheSnapshotLeavesTheSnapshotAsItWas()
      throws Exception {
    compare("/mode-revoked", 0755, null, (fs, d) -> chmod(fs, d, 0700));
    compare("/mode-granted", 0700, null, (fs, d) -> chmod(fs, d, 0755));
    compare("/acl-revoked", 0700, readerMay(), (fs, d) -> fs.removeAcl(new Path(d)));
    compare("/acl-granted", 0700, null, (fs, d) -> fs.modifyAclEntries(new Path(d), readerMay()));
    compare(
        "/acl-narrowed",
        0700,
        readerMay(),
        (fs, d) -> fs.modifyAclEntries(new Path(d), reader(FsAction.READ)));
  }

  @Test
  void accessToASubdirectoryRevokedOrGrantedAfterTheSnapshotLeavesTheSnapshotAsItWas()
      throws Exception {
    compareBelow("/sub-mode-revoked", 0755, null, (fs, d) -> chmod(fs, d, 0700));
    compareBelow("/sub-mode-granted", 0700, null, (fs, d) -> chmod(fs, d, 0755));
    compareBelow("/sub-acl-revoked", 0700, readerMay(), (fs, d) -> fs.removeAcl(new Path(d)));
    compareBelow(
        "/sub-acl-granted", 0700, null, (fs, d) -> fs.modifyAclEntries(new Path(d), readerMay()));
  }

  @Test
  void aSummaryChecksARenamedSubdirectoryAsTheSnapshotHasIt() throws Exception {
    compareRenamed("/ren-within-revoked", 0755, "/ren-within-revoked/moved", 0700);
    compareRenamed("/ren-within-granted", 0700, "/ren-within-granted/moved", 0755);
    compareRenamed("/ren-out-revoked", 0755, "/ren-out-revoked-away/moved", 0700);
    compareRenamed("/ren-out-granted", 0700, "/ren-out-granted-away/moved", 0755);
  }

  /**
   * {@code top/sub} with {@code mode} at the snapshot, renamed to {@code to} and given {@code
   * later}: what the reader gets from the content summaries of {@code top}, of the snapshot and of
   * the directory at both places, before and after the rename.
   */
  private static void compareRenamed(String top, int mode, String to, int later) throws Exception {
    List<String> hdfs = new ArrayList<>();
    List<String> hops = new ArrayList<>();
    String sub = top + "/sub";
    for (SideBySide.Side side : List.of(both.hdfsSide(), both.hopsSide())) {
      DistributedFileSystem fs = side.admin();
      setUp(fs, top);
      fs.mkdirs(new Path(sub + "/deeper"));
      SnapshotTestFiles.write(fs, sub + "/deeper/h", "deeper bytes");
      chmod(fs, sub, mode);
      fs.mkdirs(new Path(to).getParent());
      fs.createSnapshot(new Path(top), "s1");
      List<String> out = side == both.hopsSide() ? hops : hdfs;
      summaries(
          side, List.of(top, top + "/.snapshot/s1", top + "/.snapshot/s1/sub"), "before", out);
      fs.rename(new Path(sub), new Path(to));
      chmod(fs, to, later);
      chmod(fs, to + "/deeper", 0700);
      List<String> paths = List.of(top, top + "/.snapshot/s1", top + "/.snapshot/s1/sub", to);
      summaries(side, paths, "after", out);
      fs.createSnapshot(new Path(top), "s2");
      summaries(side, paths, "after s2", out);
    }
    assertThat(String.join("\n", hops)).as(top).isEqualTo(String.join("\n", hdfs));
  }

  private static void summaries(
      SideBySide.Side side, List<String> paths, String when, List<String> out) throws Exception {
    DistributedFileSystem fs = side.as(READER, "readers");
    for (String path : paths) {
      Path p = new Path(path);
      out.add(when + " summary " + path + ": " + outcome(() -> fs.getContentSummary(p)));
    }
  }

  /** The snapshottable directory {@code top} with {@code mode} and {@code acl}, then changed. */
  private static void compare(String top, int mode, List<AclEntry> acl, Change change)
      throws Exception {
    List<String> hdfs = new ArrayList<>();
    List<String> hops = new ArrayList<>();
    for (SideBySide.Side side : List.of(both.hdfsSide(), both.hopsSide())) {
      DistributedFileSystem fs = side.admin();
      setUp(fs, top);
      chmod(fs, top, mode);
      if (acl != null) {
        fs.modifyAclEntries(new Path(top), acl);
      }
      fs.createSnapshot(new Path(top), "s1");
      List<String> out = side == both.hopsSide() ? hops : hdfs;
      reads(side, top, "before", out);
      change.on(fs, top);
      reads(side, top, "after", out);
    }
    assertThat(String.join("\n", hops)).as(top).isEqualTo(String.join("\n", hdfs));
  }

  /** As {@link #compare}, for the subdirectory {@code top/sub}, its parent open to all. */
  private static void compareBelow(String top, int mode, List<AclEntry> acl, Change change)
      throws Exception {
    List<String> hdfs = new ArrayList<>();
    List<String> hops = new ArrayList<>();
    String sub = top + "/sub";
    for (SideBySide.Side side : List.of(both.hdfsSide(), both.hopsSide())) {
      DistributedFileSystem fs = side.admin();
      setUp(fs, top);
      chmod(fs, sub, mode);
      if (acl != null) {
        fs.modifyAclEntries(new Path(sub), acl);
      }
      fs.createSnapshot(new Path(top), "s1");
      List<String> out = side == both.hopsSide() ? hops : hdfs;
      reads(side, top, "before", out);
      change.on(fs, sub);
      reads(side, top, "after", out);
    }
    assertThat(String.join("\n", hops)).as(top).isEqualTo(String.join("\n", hdfs));
  }

  private static void setUp(DistributedFileSystem fs, String top) throws Exception {
    fs.mkdirs(new Path(top + "/sub"));
    SnapshotTestFiles.write(fs, top + "/sub/f", "snapshot bytes");
    SnapshotTestFiles.write(fs, top + "/g", "more");
    fs.setXAttr(new Path(top + "/sub/f"), "user.k", new byte[] {1});
    chmod(fs, top + "/sub/f", 0644);
    chmod(fs, top + "/g", 0644);
    fs.allowSnapshot(new Path(top));
  }

  /** What the reader gets from every read through the snapshot, and from {@code .snapshot}. */
  private static void reads(SideBySide.Side side, String top, String when, List<String> out)
      throws Exception {
    DistributedFileSystem fs = side.as(READER, "readers");
    String s = top + "/.snapshot/s1";
    List<String> paths = List.of(top + "/.snapshot", s, s + "/sub", s + "/sub/f", s + "/g");
    for (String path : paths) {
      Path p = new Path(path);
      out.add(when + " stat " + path + ": " + outcome(() -> line(fs.getFileStatus(p))));
      out.add(when + " list " + path + ": " + outcome(() -> names(fs.listStatus(p))));
      out.add(
          when + " summary " + path + ": " + outcome(() -> fs.getContentSummary(p).getLength()));
      out.add(when + " xattrs " + path + ": " + outcome(() -> fs.getXAttrs(p).keySet()));
      out.add(when + " acl " + path + ": " + outcome(() -> fs.getAclStatus(p).getEntries()));
    }
    for (String file : List.of(s + "/sub/f", s + "/g")) {
      out.add(when + " read " + file + ": " + SnapshotTestFiles.read(fs, file));
    }
  }

  private interface Read {
    Object run() throws Exception;
  }

  private static String outcome(Read r) {
    try {
      return "returned " + r.run();
    } catch (Exception e) {
      return SideBySide.failure(e).replaceAll("hdfs://[^/]*", "");
    }
  }

  private static String line(FileStatus s) {
    return (s.isDirectory() ? "d " : "f ") + s.getPermission() + " " + s.getOwner();
  }

  private static String names(FileStatus[] all) {
    return Arrays.toString(
        Arrays.stream(SnapshotTestFiles.sorted(all)).map(f -> f.getPath().getName()).toArray());
  }

  private static void chmod(DistributedFileSystem fs, String path, int mode) throws Exception {
    fs.setPermission(new Path(path), new FsPermission((short) mode));
  }

  private static List<AclEntry> readerMay() {
    return reader(FsAction.READ_EXECUTE);
  }

  private static List<AclEntry> reader(FsAction action) {
    return List.of(
        new AclEntry.Builder()
            .setScope(AclEntryScope.ACCESS)
            .setType(AclEntryType.USER)
            .setName(READER)
            .setPermission(action)
            .build());
  }
}
