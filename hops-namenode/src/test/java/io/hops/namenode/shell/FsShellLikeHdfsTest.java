package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * The stock {@code hadoop fs} shell, run as a separate process, behaves the same against hops as
 * against Apache HDFS (a MiniDFSCluster without datanodes): same exit codes, same output once the
 * namenode address and the times are masked. Each test prepares the same namespace on both through
 * the Java client, runs one shell command against both, and compares the resulting namespaces too.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class FsShellLikeHdfsTest {
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;
  private static ToolProcess tools;

  @BeforeAll
  static void start() throws Exception {
    File outDir = new File("target/fsshell-like-hdfs");
    outDir.mkdirs();
    tools = new ToolProcess(outDir);
    hops = new HopsTestCluster();
    hopsFs = hops.client();
    Configuration conf = new HdfsConfiguration();
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File("target/fsshell-like-hdfs/hdfs-" + System.nanoTime()).getAbsolutePath());
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    hdfs.waitClusterUp();
    // Not hdfs.getFileSystem(): with no datanodes MiniDFSCluster sets dfs.replication to 0 in its
    // own configuration. The test's clients, like the shell's, use the defaults.
    Configuration client = new Configuration();
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), client);
  }

  @AfterAll
  static void stop() throws Exception {
    if (hopsFs != null) {
      hopsFs.close();
    }
    if (hdfsFs != null) {
      hdfsFs.close();
    }
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  @Test
  @Order(1)
  void mkdirWithParentsCreatesEveryMissingAncestor() throws Exception {
    Shell r = sameOnBoth("-mkdir", "-p", "/shell/m/a/b", "/shell/m/c");
    assertExit(r, 0);
    assertSameNamespace("/shell/m");
  }

  @Test
  @Order(2)
  void touchzCreatesZeroLengthFiles() throws Exception {
    prepare(fs -> fs.mkdirs(new Path("/shell/t")));
    Shell r = sameOnBoth("-touchz", "/shell/t/f1", "/shell/t/f2");
    assertExit(r, 0);
    assertThat(hopsFs.getFileStatus(new Path("/shell/t/f2")).getLen()).isZero();
    assertSameNamespace("/shell/t");
  }

  @Test
  @Order(3)
  void copyOfAZeroLengthFileCreatesOpensAndCompletes() throws Exception {
    prepare(fs -> touch(fs, "/shell/cp/src"));
    Shell r = sameOnBoth("-cp", "/shell/cp/src", "/shell/cp/dst");
    assertExit(r, 0);
    assertThat(hopsFs.getFileStatus(new Path("/shell/cp/dst")).isFile()).isTrue();
    assertSameNamespace("/shell/cp");
  }

  @Test
  @Order(4)
  void moveIntoADirectoryKeepsTheName() throws Exception {
    prepare(
        fs -> {
          touch(fs, "/shell/mv/a");
          fs.mkdirs(new Path("/shell/mv/d"));
        });
    Shell r = sameOnBoth("-mv", "/shell/mv/a", "/shell/mv/d");
    assertExit(r, 0);
    assertThat(hopsFs.getFileStatus(new Path("/shell/mv/d/a")).isFile()).isTrue();
    assertSameNamespace("/shell/mv");
  }

  @Test
  @Order(5)
  void recursiveRemoveDeletesATree() throws Exception {
    prepare(
        fs -> {
          fs.mkdirs(new Path("/shell/rm/tree/x/y"));
          touch(fs, "/shell/rm/tree/x/f");
          touch(fs, "/shell/rm/keep");
        });
    Shell r = sameOnBoth("-rm", "-r", "/shell/rm/tree");
    assertExit(r, 0);
    assertThat(r.out).contains("Deleted /shell/rm/tree");
    assertSameNamespace("/shell/rm");
  }

  @Test
  @Order(6)
  void recursiveChmodSetsEveryMode() throws Exception {
    prepare(
        fs -> {
          fs.mkdirs(new Path("/shell/perm/d"));
          touch(fs, "/shell/perm/d/f");
        });
    Shell r = sameOnBoth("-chmod", "-R", "1750", "/shell/perm");
    assertExit(r, 0);
    assertThat(hopsFs.getFileStatus(new Path("/shell/perm/d/f")).getPermission().toString())
        .isEqualTo("rwxr-x--T");
    assertSameNamespace("/shell/perm");
  }

  @Test
  @Order(7)
  void recursiveChownAsSuperuserGivesAwayATree() throws Exception {
    prepare(
        fs -> {
          fs.mkdirs(new Path("/shell/own/d"));
          touch(fs, "/shell/own/d/f");
        });
    Shell r = sameOnBoth("-chown", "-R", "alice:staff", "/shell/own");
    assertExit(r, 0);
    assertThat(hopsFs.getFileStatus(new Path("/shell/own/d/f")).getOwner()).isEqualTo("alice");
    assertSameNamespace("/shell/own");
  }

  @Test
  @Order(8)
  void statPrintsTheSameAttributes() throws Exception {
    prepare(
        fs -> {
          fs.mkdirs(new Path("/shell/st/d"));
          touch(fs, "/shell/st/f");
        });
    Shell r =
        sameOnBoth(
            "-stat", "%n %F %u %g %r %o %b %a %A", "/shell/st", "/shell/st/d", "/shell/st/f");
    assertExit(r, 0);
    assertThat(r.out)
        .contains(
            "f regular file " + System.getProperty("user.name") + " supergroup 3 134217728 0 644");
  }

  @Test
  @Order(9)
  void testExistsIsTrueForAFile() throws Exception {
    prepare(fs -> touch(fs, "/shell/x/f"));
    assertExit(sameOnBoth("-test", "-e", "/shell/x/f"), 0);
  }

  @Test
  @Order(10)
  void testDirectoryIsFalseForAFile() throws Exception {
    assertExit(sameOnBoth("-test", "-d", "/shell/x/f"), 1);
  }

  @Test
  @Order(11)
  void testFileIsFalseForAMissingPath() throws Exception {
    assertExit(sameOnBoth("-test", "-f", "/shell/x/missing"), 1);
  }

  @Test
  @Order(12)
  void countWithQuotasCountsDirectoriesFilesAndBytes() throws Exception {
    prepare(
        fs -> {
          fs.mkdirs(new Path("/shell/cnt/d/e"));
          touch(fs, "/shell/cnt/f");
          touch(fs, "/shell/cnt/d/g");
        });
    Shell r = sameOnBoth("-count", "-q", "/shell/cnt", "/shell/cnt/d");
    assertExit(r, 0);
    assertThat(r.out).contains("/shell/cnt/d");
  }

  @Test
  @Order(13)
  void setrepOnADirectorySetsEveryFileBelow() throws Exception {
    prepare(
        fs -> {
          touch(fs, "/shell/rep/f");
          touch(fs, "/shell/rep/d/g");
        });
    Shell r = sameOnBoth("-setrep", "2", "/shell/rep");
    assertExit(r, 0);
    assertThat(r.out).contains("Replication 2 set: /shell/rep/d/g");
    assertSameNamespace("/shell/rep");
  }

  @Test
  @Order(14)
  void listingAMissingPathFails() throws Exception {
    Shell r = sameOnBoth("-ls", "/shell/missing");
    assertExit(r, 1);
    assertThat(r.err).contains("No such file or directory");
  }

  @Test
  @Order(15)
  void mkdirWithoutParentsOfAnExistingDirectoryFails() throws Exception {
    prepare(fs -> fs.mkdirs(new Path("/shell/err/d")));
    Shell r = sameOnBoth("-mkdir", "/shell/err/d");
    assertExit(r, 1);
    assertThat(r.err).contains("File exists");
  }

  @Test
  @Order(16)
  void removeOfANonEmptyDirectoryWithoutRecursionFails() throws Exception {
    prepare(fs -> touch(fs, "/shell/err/d/f"));
    Shell r = sameOnBoth("-rm", "/shell/err/d");
    assertExit(r, 1);
    assertSameNamespace("/shell/err");
  }

  @Test
  @Order(17)
  void moveOntoAnExistingFileFails() throws Exception {
    prepare(
        fs -> {
          touch(fs, "/shell/err/a");
          touch(fs, "/shell/err/b");
        });
    Shell r = sameOnBoth("-mv", "/shell/err/a", "/shell/err/b");
    assertExit(r, 1);
    assertThat(r.err).contains("File exists");
    assertSameNamespace("/shell/err");
  }

  /** Runs last: one recursive listing of everything the tests above left behind. */
  @Test
  @Order(18)
  void recursiveListingOfTheWholeTreeIsTheSame() throws Exception {
    Shell r = sameOnBoth("-ls", "-R", "/shell");
    assertExit(r, 0);
    assertThat(r.out).contains("/shell/own/d/f");
  }

  // ---- helpers ----

  private interface FsAction {
    void apply(FileSystem fs) throws IOException;
  }

  /** Makes the same change to both namespaces through the Java client. */
  private static void prepare(FsAction action) throws IOException {
    action.apply(hopsFs);
    action.apply(hdfsFs);
  }

  private static void touch(FileSystem fs, String path) throws IOException {
    fs.create(new Path(path), false).close();
  }

  /** Both namespaces below {@code root} hold the same entries with the same attributes. */
  private static void assertSameNamespace(String root) throws IOException {
    assertThat(describe(hopsFs, new Path(root))).isEqualTo(describe(hdfsFs, new Path(root)));
  }

  private static List<String> describe(FileSystem fs, Path root) throws IOException {
    List<String> lines = new ArrayList<>();
    describe(fs, fs.getFileStatus(root), root.toUri().getPath(), lines);
    return lines;
  }

  private static void describe(FileSystem fs, FileStatus st, String path, List<String> lines)
      throws IOException {
    lines.add(
        String.join(
            " ",
            path,
            st.isDirectory() ? "d" : "f",
            st.getPermission().toString(),
            st.getOwner(),
            st.getGroup(),
            Long.toString(st.getLen()),
            Short.toString(st.getReplication()),
            Long.toString(st.getBlockSize())));
    if (st.isDirectory()) {
      for (FileStatus child : fs.listStatus(st.getPath())) {
        describe(fs, child, path + "/" + child.getPath().getName(), lines);
      }
    }
  }

  private static void assertExit(Shell r, int expected) {
    assertThat(r.exit).as("exit code; stdout:%n%s%nstderr:%n%s", r.out, r.err).isEqualTo(expected);
  }

  /** What one shell process did. */
  private record Shell(int exit, String out, String err) {}

  /**
   * Runs {@code hadoop fs args} against hops and against HDFS at the same time, asserts the same
   * exit code and the same normalized output, and returns what hops did.
   */
  private static Shell sameOnBoth(String... args) throws Exception {
    String hopsUri = hops.uri().toString();
    String hdfsUri = hdfs.getURI().toString();
    CompletableFuture<Shell> onHdfs =
        CompletableFuture.supplyAsync(() -> runUnchecked(hdfsUri, "hdfs", args));
    Shell h = normalize(run(hopsUri, "hops", args), hopsUri);
    Shell a = normalize(onHdfs.get(ToolProcess.TIMEOUT_SECONDS + 10, TimeUnit.SECONDS), hdfsUri);
    String what = "hadoop fs " + String.join(" ", args);
    // For the report: what hops answered.
    System.out.printf("$ %s%n%s%s[exit %d]%n", what, h.out, h.err, h.exit);
    assertThat(h.out).as(what + ": stdout (hops vs hdfs)").isEqualTo(a.out);
    assertThat(h.err).as(what + ": stderr (hops vs hdfs)").isEqualTo(a.err);
    assertThat(h.exit).as(what + ": exit code (hops vs hdfs)").isEqualTo(a.exit);
    return h;
  }

  private static Shell runUnchecked(String uri, String tag, String... args) {
    try {
      return run(uri, tag, args);
    } catch (IOException | InterruptedException e) {
      throw new IllegalStateException(e);
    }
  }

  private static Shell run(String uri, String tag, String... args)
      throws IOException, InterruptedException {
    ToolProcess.Result r =
        tools.run(
            "org.apache.hadoop.fs.FsShell",
            List.of("fs.defaultFS=" + uri, "ipc.client.connect.max.retries=2"),
            tag,
            args);
    return new Shell(r.exit(), r.out(), r.err());
  }

  /** Masks what legitimately differs: the namenode address and the times in listings. */
  private static Shell normalize(Shell s, String uri) {
    return new Shell(s.exit, mask(s.out, uri), mask(s.err, uri));
  }

  private static String mask(String text, String uri) {
    String authority = uri.substring("hdfs://".length());
    return text.replace(uri, "hdfs://NAMENODE")
        .replace(authority, "NAMENODE")
        .replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}", "TIME");
  }
}
