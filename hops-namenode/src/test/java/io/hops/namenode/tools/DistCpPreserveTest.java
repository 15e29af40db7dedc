package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's own {@code distcp -pugpaxt} of a tree with ACLs and extended attributes, from hops to
 * hops, as a MapReduce job in the local runner (its staging files on hops too): the copy has the
 * same owners, groups, permissions, ACLs, xattrs, times and bytes as the source.
 */
class DistCpPreserveTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static File local;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    cluster.startDatanodes(1);
    cluster.waitForLive(1);
    fs = cluster.client();
    local = Files.createTempDirectory("hops-distcp").toFile();
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

  private static void write(String path, String text) throws Exception {
    try (FSDataOutputStream out = fs.create(new Path(path), (short) 1)) {
      out.write(text.getBytes(StandardCharsets.UTF_8));
    }
  }

  private static String read(Path p) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }

  /** What -pugpaxt preserves of one path (and the bytes of a file), as text; atime aside. */
  private static String attributes(Path root, Path p) throws Exception {
    FileStatus st = fs.getFileStatus(p);
    Map<String, String> xattrs = new TreeMap<>();
    fs.getXAttrs(p).forEach((k, v) -> xattrs.put(k, new String(v, StandardCharsets.UTF_8)));
    List<String> acl = new ArrayList<>();
    for (AclEntry e : fs.getAclStatus(p).getEntries()) {
      acl.add(e.toString());
    }
    String rel = p.toUri().getPath().substring(root.toUri().getPath().length());
    return rel
        + " "
        + st.getOwner()
        + ":"
        + st.getGroup()
        + " "
        + st.getPermission()
        + (st.hasAcl() ? "+" : "")
        + " acl="
        + acl
        + " xattrs="
        + xattrs
        + " mtime="
        + st.getModificationTime()
        + (st.isFile() ? " data=" + read(p) : ""); // a read moves an old access time
  }

  private static List<String> tree(Path root) throws Exception {
    List<String> out = new ArrayList<>();
    walk(root, root, out);
    return out;
  }

  private static void walk(Path root, Path p, List<String> out) throws Exception {
    out.add(attributes(root, p));
    if (fs.getFileStatus(p).isDirectory()) {
      for (FileStatus c : fs.listStatus(p)) {
        walk(root, c.getPath(), out);
      }
    }
  }

  @Test
  void distcpPreservesOwnersPermissionsAclsXattrsAndTimes() throws Exception {
    fs.mkdirs(new Path("/src/a/b"));
    write("/src/a/one", "first file");
    write("/src/a/b/two", "second file, deeper");
    write("/src/three", "");
    fs.setOwner(new Path("/src/a"), "alice", "staff");
    fs.setOwner(new Path("/src/a/one"), "bob", "staff");
    fs.setPermission(new Path("/src/a/b"), new FsPermission((short) 0750));
    fs.setPermission(new Path("/src/three"), new FsPermission((short) 0600));
    fs.modifyAclEntries(
        new Path("/src/a"), AclEntry.parseAclSpec("user:carol:r-x,default:group:staff:rwx", true));
    fs.setAcl(
        new Path("/src/a/one"),
        AclEntry.parseAclSpec("user::rw-,user:dave:rw-,group::r--,mask::rw-,other::---", true));
    fs.setXAttr(
        new Path("/src/a/one"),
        "user.origin",
        "lab".getBytes(StandardCharsets.UTF_8),
        EnumSet.of(XAttrSetFlag.CREATE));
    fs.setXAttr(
        new Path("/src/a/b"),
        "trusted.tier",
        "gold".getBytes(StandardCharsets.UTF_8),
        EnumSet.of(XAttrSetFlag.CREATE));
    fs.setXAttr(new Path("/src/three"), "user.empty", new byte[0], EnumSet.of(XAttrSetFlag.CREATE));
    fs.setTimes(new Path("/src/a/b/two"), 1_500_000_000_000L, 1_500_000_100_000L);
    fs.setTimes(new Path("/src/a"), 1_400_000_000_000L, -1);

    Configuration conf = new Configuration(cluster.clientConf());
    conf.set("fs.defaultFS", cluster.uri().toString());
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", new File(local, "tmp").getPath());
    conf.set("mapreduce.jobtracker.staging.root.dir", "/user/staging");
    conf.set("mapreduce.cluster.local.dir", new File(local, "mapred").getPath());
    int rc =
        ToolRunner.run(
            conf,
            new DistCp(conf, null),
            new String[] {"-pugpaxt", cluster.uri() + "/src", cluster.uri() + "/dst"});
    assertThat(rc).isZero();

    // Times as the source had them when distcp listed it (its reads then moved the source's atime).
    assertThat(fs.getFileStatus(new Path("/dst/a/b/two")).getAccessTime())
        .isEqualTo(1_500_000_100_000L);
    List<String> src = tree(new Path("/src"));
    List<String> dst = tree(new Path("/dst"));
    assertThat(src).hasSize(6);
    assertThat(src).anyMatch(l -> l.contains("user:dave:rw-") && l.contains("user.origin=lab"));
    assertThat(dst).containsExactlyElementsOf(src);
  }
}
