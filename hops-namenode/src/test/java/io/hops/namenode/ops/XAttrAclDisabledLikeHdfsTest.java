package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * With {@code dfs.namenode.xattrs.enabled} and {@code dfs.namenode.acls.enabled} false, every
 * attribute and ACL call is refused as Apache HDFS refuses it (same class and first message line),
 * and {@code checkAccess}, which needs neither, still answers.
 */
class XAttrAclDisabledLikeHdfsTest {
  @FunctionalInterface
  private interface Call {
    Object run(FileSystem fs) throws Exception;
  }

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static FileSystem hopsFs;
  private static FileSystem hdfsFs;

  private static Configuration disabled(Configuration c) {
    c.setBoolean(DFSConfigKeys.DFS_NAMENODE_XATTRS_ENABLED_KEY, false);
    c.setBoolean(DFSConfigKeys.DFS_NAMENODE_ACLS_ENABLED_KEY, false);
    return c;
  }

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster(disabled(new Configuration(false)));
    Configuration conf = disabled(new Configuration());
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/minidfs-xattracl-off-" + System.nanoTime()).getAbsolutePath());
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    hdfs.waitActive();
    hopsFs = hops.client();
    hdfsFs =
        FileSystem.get(
            hdfs.getURI(), ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT));
    for (FileSystem fs : List.of(hopsFs, hdfsFs)) {
      fs.create(new Path("/off/f")).close();
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (FileSystem fs : new FileSystem[] {hopsFs, hdfsFs}) {
      if (fs != null) {
        fs.close();
      }
    }
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  private static final Path F = new Path("/off/f");

  static Stream<Arguments> calls() {
    List<AclEntry> spec = AclEntry.parseAclSpec("user:alice:r--", true);
    return Stream.of(
        Arguments.of(
            "setXAttr",
            (Call)
                fs -> {
                  fs.setXAttr(F, "user.a", "v".getBytes(StandardCharsets.UTF_8));
                  return "set";
                }),
        Arguments.of("getXAttrs", (Call) fs -> fs.getXAttrs(F)),
        Arguments.of("getXAttr", (Call) fs -> fs.getXAttr(F, "user.a")),
        Arguments.of("listXAttrs", (Call) fs -> fs.listXAttrs(F)),
        Arguments.of(
            "removeXAttr",
            (Call)
                fs -> {
                  fs.removeXAttr(F, "user.a");
                  return "removed";
                }),
        Arguments.of(
            "modifyAclEntries",
            (Call)
                fs -> {
                  fs.modifyAclEntries(F, spec);
                  return "modified";
                }),
        Arguments.of(
            "setAcl",
            (Call)
                fs -> {
                  fs.setAcl(F, AclEntry.parseAclSpec("user::rw-,group::r--,other::---", true));
                  return "set";
                }),
        Arguments.of(
            "removeAcl",
            (Call)
                fs -> {
                  fs.removeAcl(F);
                  return "removed";
                }),
        Arguments.of("getAclStatus", (Call) fs -> fs.getAclStatus(F)),
        Arguments.of(
            "checkAccess",
            (Call)
                fs -> {
                  fs.access(F, FsAction.READ_WRITE);
                  return "ok";
                }));
  }

  private static String outcome(Call call, FileSystem fs) {
    try {
      return "returned " + call.run(fs);
    } catch (Exception e) {
      return e.getClass().getName()
          + ": "
          + String.valueOf(e.getMessage()).lines().findFirst().orElse("");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void refusedLikeApacheHdfs(String name, Call call) {
    String expected = outcome(call, hdfsFs);
    String actual = outcome(call, hopsFs);
    System.out.printf("%s -> %s%n", name, actual);
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
