package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The stock {@code hadoop fs} shell's attribute commands ({@code -setfattr}, {@code -getfattr},
 * {@code -setfacl}, {@code -getfacl}, and {@code -ls} showing the {@code +} of an ACL), run in this
 * process against hops and against Apache HDFS (a MiniDFSCluster without datanodes) one after the
 * other: same exit code, same output once the address and the times are masked.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class XAttrAclShellLikeHdfsTest {
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static Configuration hopsConf;
  private static Configuration hdfsConf;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster();
    hdfs = ApacheHdfs.start("xattracl-shell");
    hopsConf = hops.clientConf();
    hdfsConf = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    hdfsConf.set("fs.defaultFS", hdfs.getURI().toString());
    for (Configuration c : new Configuration[] {hopsConf, hdfsConf}) {
      try (FileSystem fs = FileSystem.get(c)) {
        fs.mkdirs(new Path("/sh/d"));
        fs.create(new Path("/sh/f")).close();
        fs.create(new Path("/sh/d/g")).close();
      }
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  @Test
  @Order(1)
  void setfattrAndGetfattrDump() throws Exception {
    assertThat(sameOnBoth("-setfattr", "-n", "user.color", "-v", "red", "/sh/f").exit).isZero();
    assertThat(sameOnBoth("-setfattr", "-n", "user.bytes", "-v", "0x0102ff", "/sh/f").exit)
        .isZero();
    assertThat(sameOnBoth("-setfattr", "-n", "user.flag", "/sh/d").exit).isZero();
    Shell dump = sameOnBoth("-getfattr", "-d", "/sh/f");
    assertThat(dump.out).contains("user.color=\"red\"");
    sameOnBoth("-getfattr", "-n", "user.bytes", "-e", "hex", "/sh/f");
    sameOnBoth("-getfattr", "-R", "-d", "/sh");
  }

  @Test
  @Order(2)
  void setfattrRemoveAndBadNames() throws Exception {
    assertThat(sameOnBoth("-setfattr", "-x", "user.color", "/sh/f").exit).isZero();
    assertThat(sameOnBoth("-getfattr", "-d", "/sh/f").out).doesNotContain("user.color");
    assertThat(sameOnBoth("-setfattr", "-x", "user.color", "/sh/f").exit).isNotZero();
    assertThat(sameOnBoth("-setfattr", "-n", "nonamespace", "-v", "x", "/sh/f").exit).isNotZero();
    assertThat(sameOnBoth("-setfattr", "-n", "trusted.x", "-v", "x", "/sh/f").exit).isZero();
    sameOnBoth("-getfattr", "-n", "user.missing", "/sh/f");
    sameOnBoth("-getfattr", "-d", "/sh/missing");
  }

  @Test
  @Order(3)
  void setfaclModifyGetfaclAndLsPlus() throws Exception {
    assertThat(sameOnBoth("-setfacl", "-m", "user:alice:r-x,group:eng:rw-", "/sh/f").exit).isZero();
    Shell acl = sameOnBoth("-getfacl", "/sh/f");
    assertThat(acl.out).contains("user:alice:r-x").contains("mask::");
    Shell ls = sameOnBoth("-ls", "/sh");
    assertThat(ls.out).contains("-rw-rwxr--+");
  }

  @Test
  @Order(4)
  void defaultAclsOnADirectory() throws Exception {
    assertThat(sameOnBoth("-setfacl", "-m", "default:user:alice:rwx", "/sh/d").exit).isZero();
    sameOnBoth("-getfacl", "/sh/d");
    assertThat(sameOnBoth("-mkdir", "/sh/d/inherits").exit).isZero();
    sameOnBoth("-getfacl", "/sh/d/inherits");
    assertThat(sameOnBoth("-setfacl", "-k", "/sh/d").exit).isZero();
    sameOnBoth("-getfacl", "/sh/d");
    assertThat(
            sameOnBoth("-setfacl", "--set", "user::rwx,group::r-x,other::---,user:bob:r--", "/sh/d")
                .exit)
        .isZero();
    sameOnBoth("-getfacl", "-R", "/sh");
    sameOnBoth("-ls", "-R", "/sh");
  }

  @Test
  @Order(5)
  void setfaclRemoveEntriesAndAll() throws Exception {
    assertThat(sameOnBoth("-setfacl", "-x", "user:alice", "/sh/f").exit).isZero();
    sameOnBoth("-getfacl", "/sh/f");
    assertThat(sameOnBoth("-setfacl", "-b", "/sh/f").exit).isZero();
    Shell acl = sameOnBoth("-getfacl", "/sh/f");
    assertThat(acl.out).doesNotContain("mask");
    assertThat(sameOnBoth("-ls", "/sh").out).doesNotContain("-rw-r--r--+");
  }

  @Test
  @Order(6)
  void setfaclBadInput() throws Exception {
    assertThat(sameOnBoth("-setfacl", "-m", "user:alice:rwx,user:alice:r--", "/sh/f").exit)
        .isNotZero();
    assertThat(sameOnBoth("-setfacl", "-m", "default:user:alice:rwx", "/sh/f").exit).isNotZero();
    assertThat(sameOnBoth("-setfacl", "--set", "user:alice:rwx", "/sh/f").exit).isNotZero();
    assertThat(sameOnBoth("-setfacl", "-m", "user:alice:rwz", "/sh/f").exit).isNotZero();
    assertThat(sameOnBoth("-setfacl", "-m", "user:alice:rwx", "/sh/missing").exit).isNotZero();
  }

  /** What one shell command did. */
  private record Shell(int exit, String out, String err) {}

  private static Shell sameOnBoth(String... args) throws Exception {
    Shell h = normalize(run(hopsConf, args), hops.uri().toString());
    Shell a = normalize(run(hdfsConf, args), hdfs.getURI().toString());
    String what = "hadoop fs " + String.join(" ", args);
    System.out.printf("$ %s%n%s%s[exit %d]%n", what, h.out, h.err, h.exit);
    assertThat(h.out).as(what + ": stdout (hops vs hdfs)").isEqualTo(a.out);
    assertThat(h.err).as(what + ": stderr (hops vs hdfs)").isEqualTo(a.err);
    assertThat(h.exit).as(what + ": exit code (hops vs hdfs)").isEqualTo(a.exit);
    return h;
  }

  private static synchronized Shell run(Configuration conf, String... args) throws Exception {
    ThreadConsole.Captured c =
        ThreadConsole.capture(
            () -> {
              FsShell shell = new FsShell(new Configuration(conf));
              try {
                return ToolRunner.run(shell, args);
              } finally {
                shell.close();
              }
            });
    return new Shell(c.exit(), c.out(), c.err());
  }

  /** Masks the namenode's address and the times {@code -ls} prints. */
  private static Shell normalize(Shell s, String uri) {
    return new Shell(s.exit, mask(s.out, uri), mask(s.err, uri));
  }

  private static String mask(String text, String uri) {
    return text.replace(uri, "NAMENODE")
        .replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}", "TIME")
        // Log lines (e.g. a client-side warning) carry a timestamp and a thread: not output.
        .lines()
        .filter(l -> !l.matches("^\\d{4}-\\d{2}-\\d{2}.*") && !l.startsWith("TIME"))
        .reduce("", (acc, l) -> acc + l + "\n");
  }
}
