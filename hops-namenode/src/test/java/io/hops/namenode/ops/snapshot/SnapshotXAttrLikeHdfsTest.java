package io.hops.namenode.ops.snapshot;

import static io.hops.namenode.ops.snapshot.SnapshotTestFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Xattrs and ACLs under snapshots against hops and Apache HDFS in the same run (issue 60): set,
 * snapshot, changed (also to the same value, and the same ACL again), removed, on files and
 * directories and the snapshottable directory itself, with renames and deletes of inodes that have
 * them; then every snapshot's {@code getXAttrs}, {@code listXAttrs}, {@code getAclStatus} and
 * status (the ACL bit) of every path, with their refusals, and the diff report between every pair
 * of ends, must be HDFS's.
 */
class SnapshotXAttrLikeHdfsTest {
  private static final String[] SNAPSHOTS = {"s0", "s1", "s2", ""};
  private static final String[] PATHS = {
    "", "/f", "/a", "/a/g", "/a/h", "/b", "/b/k", "/f2", "/gone", "/missing"
  };

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshot-xattr", conf(), 1))
          .eachSide(s -> history(s.admin()));

  private static Configuration conf() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, true);
    return conf;
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static byte[] v(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }

  private static void history(DistributedFileSystem fs) throws Exception {
    fs.mkdirs(p("/d/a"));
    fs.mkdirs(p("/d/b"));
    write(fs, "/d/f", "one");
    write(fs, "/d/a/g", "two");
    write(fs, "/d/a/h", "three");
    write(fs, "/d/b/k", "four");
    write(fs, "/d/gone", "five");
    fs.setXAttr(p("/d/f"), "user.x", v("1"));
    fs.setXAttr(p("/d/f"), "user.y", v("2"));
    fs.setXAttr(p("/d/a"), "user.x", v("dir"));
    fs.setAcl(p("/d/a/g"), acl("user::rw-,user:alice:r--,group::r--,other::---"));
    fs.setXAttr(p("/d/gone"), "trusted.t", v("t"));
    fs.setAcl(p("/d/b"), acl("default:user:alice:rwx"));
    // The snapshottable directory's own, kept at its snapshots as its DirectoryDiff keeps them.
    fs.setXAttr(p("/d"), "user.root", v("r0"));
    fs.setAcl(p("/d"), acl("user::rwx,user:alice:r-x,group::r-x,other::r-x"));
    fs.allowSnapshot(p("/d"));
    fs.createSnapshot(p("/d"), "s0");
    fs.setXAttr(p("/d"), "user.root", v("r1"), EnumSet.of(XAttrSetFlag.REPLACE));
    fs.modifyAclEntries(p("/d"), acl("user:bob:rwx"));
    fs.setXAttr(p("/d"), "user.second", v("2"));
    fs.setXAttr(p("/d/f"), "user.x", v("changed"), EnumSet.of(XAttrSetFlag.REPLACE));
    fs.removeXAttr(p("/d/a"), "user.x");
    fs.setXAttr(p("/d/a/g"), "user.new", v("n"));
    fs.modifyAclEntries(p("/d/a/g"), acl("user:bob:rwx"));
    fs.setAcl(p("/d/a/h"), acl("user::rw-,group:staff:rw-,group::r--,other::r--"));
    fs.delete(p("/d/gone"), false);
    fs.createSnapshot(p("/d"), "s1");
    fs.removeXAttr(p("/d"), "user.root");
    fs.removeXAttr(p("/d"), "user.second");
    fs.removeAcl(p("/d"));
    fs.setXAttr(p("/d/f"), "user.y", v("2"), EnumSet.of(XAttrSetFlag.REPLACE));
    fs.setAcl(p("/d/a/h"), acl("user::rw-,group:staff:rw-,group::r--,other::r--"));
    fs.removeAcl(p("/d/a/g"));
    fs.removeDefaultAcl(p("/d/b"));
    fs.setXAttr(p("/d/b/k"), "user.k", v("k"));
    fs.rename(p("/d/f"), p("/d/f2"));
    fs.setXAttr(p("/d/f2"), "user.z", v("after rename"));
    fs.createSnapshot(p("/d"), "s2");
    fs.removeXAttr(p("/d/f2"), "user.y");
    fs.setPermission(p("/d/a/h"), new FsPermission((short) 0640));
    fs.setXAttr(p("/d/a"), "user.back", v("b"));
    fs.setXAttr(p("/d"), "user.late", v("l"));
  }

  @Test
  void snapshotReadsOfXAttrsAndAclsAreHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (String s : SNAPSHOTS) {
      for (String path : PATHS) {
        String at = s.isEmpty() ? "/d" + path : "/d/.snapshot/" + s + path;
        hops.add(reads(both.hopsSide(), at));
        hdfs.add(reads(both.hdfsSide(), at));
      }
    }
    for (String at : new String[] {"/d/.snapshot", "/d/.snapshot/nosuch/f"}) {
      hops.add(reads(both.hopsSide(), at));
      hdfs.add(reads(both.hdfsSide(), at));
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  /** The snapshottable directory's own attributes at its snapshots, through the other namenode. */
  @Test
  void theOtherNamenodeReadsTheDirectorysOwnAttributesAtItsSnapshotsAsHdfs() throws Exception {
    List<String> other = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    try (org.apache.hadoop.fs.FileSystem viaOther =
        org.apache.hadoop.fs.FileSystem.newInstance(both.get().through(both.other()))) {
      DistributedFileSystem o = (DistributedFileSystem) viaOther;
      DistributedFileSystem h = both.hdfsSide().admin();
      for (String s : SNAPSHOTS) {
        String at = s.isEmpty() ? "/d" : "/d/.snapshot/" + s;
        for (DistributedFileSystem fs : List.of(o, h)) {
          (fs == o ? other : hdfs)
              .add(
                  at
                      + " "
                      + outcome(() -> new TreeMap<>(fs.getXAttrs(p(at))).keySet().toString())
                      + " "
                      + outcome(() -> fs.getAclStatus(p(at)).getEntries().toString()));
        }
      }
    }
    assertThat(String.join("\n", other)).isEqualTo(String.join("\n", hdfs));
  }

  private static String reads(Side side, String path) throws IOException {
    DistributedFileSystem fs = side.admin();
    DistributedFileSystem alice = side.alice();
    return path
        + ":\n  getXAttrs "
        + outcome(
            () ->
                new TreeMap<>(fs.getXAttrs(p(path)))
                    .entrySet().stream()
                        .map(
                            e ->
                                e.getKey() + "=" + new String(e.getValue(), StandardCharsets.UTF_8))
                        .toList()
                        .toString())
        + "\n  listXAttrs "
        + outcome(() -> fs.listXAttrs(p(path)).stream().sorted().toList().toString())
        + "\n  getXAttr user.x "
        + outcome(() -> new String(fs.getXAttr(p(path), "user.x"), StandardCharsets.UTF_8))
        + "\n  alice getXAttrs "
        + outcome(() -> new TreeMap<>(alice.getXAttrs(p(path))).keySet().toString())
        + "\n  getAclStatus "
        + outcome(() -> fs.getAclStatus(p(path)).toString())
        + "\n  status "
        + outcome(() -> status(fs.getFileStatus(p(path))));
  }

  private static String status(FileStatus s) {
    return s.getPermission() + " acl=" + s.hasAcl() + " " + s.getOwner() + ":" + s.getGroup();
  }

  @Test
  void writesIntoASnapshotAreRefusedAsInHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      List<String> out = s == both.hopsSide() ? hops : hdfs;
      DistributedFileSystem fs = s.admin();
      Path f = p("/d/.snapshot/s0/f");
      out.add(outcome(() -> run(() -> fs.setXAttr(f, "user.w", v("w")))));
      out.add(outcome(() -> run(() -> fs.removeXAttr(f, "user.x"))));
      out.add(outcome(() -> run(() -> fs.setAcl(f, acl("user:alice:rwx")))));
      out.add(outcome(() -> run(() -> fs.removeAcl(p("/d/.snapshot/s0/a/g")))));
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  @Test
  void diffReportsMarkXAttrAndAclChangesAsHdfs() throws Exception {
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (String from : SNAPSHOTS) {
      for (String to : SNAPSHOTS) {
        for (String dir : new String[] {"/d", "/d/a"}) {
          hops.add(report(both.hopsSide().admin(), dir, from, to));
          hdfs.add(report(both.hdfsSide().admin(), dir, from, to));
        }
      }
    }
    assertThat(String.join("\n", hops)).isEqualTo(String.join("\n", hdfs));
  }

  private static String report(DistributedFileSystem fs, String dir, String from, String to) {
    return dir
        + " "
        + from
        + " -> "
        + to
        + ": "
        + outcome(() -> fs.getSnapshotDiffReport(p(dir), from, to).toString());
  }

  @FunctionalInterface
  private interface Call {
    String run() throws Exception;
  }

  @FunctionalInterface
  private interface Action {
    void run() throws Exception;
  }

  private static String run(Action a) throws Exception {
    a.run();
    return "ok";
  }

  private static String outcome(Call c) {
    try {
      return c.run();
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }
}
