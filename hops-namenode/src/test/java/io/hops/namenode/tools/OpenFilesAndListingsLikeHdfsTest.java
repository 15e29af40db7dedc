package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.PartialListing;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Open files, corrupt files, located file status, batched listings and the enclosing root, against
 * hops and against Apache HDFS (a MiniDFSCluster without datanodes) in the same run: the same
 * results, exceptions and {@code hdfs dfsadmin -listOpenFiles} output (client names masked).
 */
class OpenFilesAndListingsLikeHdfsTest {
  @FunctionalInterface
  private interface Call {
    Object run(Side s) throws Exception;
  }

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("open-files", small()))
          .eachSide(OpenFilesAndListingsLikeHdfsTest::setUp);

  private static Configuration small() {
    Configuration small = new Configuration(false);
    small.setInt(DFSConfigKeys.DFS_LIST_LIMIT, 3);
    small.setInt(DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES, 2);
    return small;
  }

  private static void setUp(Side s) throws Exception {
    // Two writers (two lease holders) take turns, so that the files of a page, in id order,
    // belong to both; their files stay open until the side closes.
    List<String> files = List.of("/o/a/f1", "/o/a/f2", "/o/b/f3", "/o/moved/deep/f4", "/o/ab");
    for (int i = 0; i < files.size(); i++) {
      DistributedFileSystem writer = i % 2 == 0 ? s.admin() : s.secondAdmin();
      s.keep(writer.create(new Path(files.get(i))));
    }
    s.admin().createNewFile(new Path("/o/closed"));
    s.admin().rename(new Path("/o/moved"), new Path("/o/renamed"));
    for (String d : List.of("/l/d1/x", "/l/d1/y", "/l/d1/z", "/l/d1/w", "/l/d2/a")) {
      s.admin().mkdirs(new Path(d));
    }
    s.admin().createNewFile(new Path("/l/file"));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static <T> List<String> all(
      RemoteIterator<T> it, java.util.function.Function<T, String> f) throws Exception {
    List<String> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(f.apply(it.next()));
    }
    return out;
  }

  private static String open(OpenFileEntry e) {
    return e.getFilePath() + "@" + e.getClientMachine();
  }

  private static String located(HdfsLocatedFileStatus st) {
    if (st == null) {
      return "null";
    }
    return (st.isDirectory() ? "dir " : "file ")
        + st.getLen()
        + " blocks="
        + (st.getLocatedBlocks() == null ? "none" : st.getLocatedBlocks().locatedBlockCount());
  }

  private static String batched(RemoteIterator<PartialListing<FileStatus>> it) throws Exception {
    List<String> out = new ArrayList<>();
    while (it.hasNext()) {
      PartialListing<FileStatus> l = it.next();
      try {
        List<String> names = new ArrayList<>();
        for (FileStatus st : l.get()) {
          names.add(st.getPath().getName());
        }
        out.add(l.getListedPath().toUri().getPath() + "=" + names);
      } catch (Exception e) {
        out.add(l.getListedPath().toUri().getPath() + "!" + e.getClass().getName());
      }
    }
    return out.toString();
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  static Stream<Arguments> calls() {
    var all = java.util.EnumSet.of(OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES);
    return Stream.of(
        call(
            "listOpenFiles",
            s -> all(s.admin().listOpenFiles(), OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listOpenFiles under a path",
            s -> all(s.admin().listOpenFiles(all, "/o/a"), OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listOpenFiles under a renamed directory",
            s ->
                all(
                    s.admin().listOpenFiles(all, "/o/renamed"),
                    OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listOpenFiles of a file",
            s ->
                all(s.admin().listOpenFiles(all, "/o/ab"), OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listOpenFiles blocking decommission",
            s ->
                all(
                    s.admin()
                        .listOpenFiles(
                            java.util.EnumSet.of(
                                OpenFilesIterator.OpenFilesType.BLOCKING_DECOMMISSION),
                            "/"),
                    OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listOpenFiles by a user",
            s -> all(s.alice().listOpenFiles(), OpenFilesAndListingsLikeHdfsTest::open)),
        call(
            "listCorruptFileBlocks",
            s -> all(s.admin().listCorruptFileBlocks(p("/")), Path::toString)),
        call(
            "listCorruptFileBlocks by a user",
            s -> all(s.alice().listCorruptFileBlocks(p("/")), Path::toString)),
        call(
            "getLocatedFileInfo of a file",
            s -> located(s.admin().getClient().getLocatedFileInfo("/o/closed", false))),
        call(
            "getLocatedFileInfo of a file being written",
            s -> located(s.admin().getClient().getLocatedFileInfo("/o/a/f1", false))),
        call(
            "getLocatedFileInfo of a directory",
            s -> located(s.admin().getClient().getLocatedFileInfo("/o", false))),
        call(
            "getLocatedFileInfo of a missing path",
            s -> located(s.admin().getClient().getLocatedFileInfo("/o/none", false))),
        call(
            "batched listing over the limit",
            s -> batched(s.admin().batchedListStatusIterator(List.of(p("/l/d1"), p("/l/d2"))))),
        call(
            "batched listing with a file and a missing path",
            s ->
                batched(
                    s.admin()
                        .batchedListStatusIterator(
                            List.of(p("/l/file"), p("/l/none"), p("/l/d2"))))),
        call(
            "batched listing without permission",
            s -> {
              s.admin().mkdirs(p("/l/closed"));
              s.admin()
                  .setPermission(
                      p("/l/closed"),
                      new org.apache.hadoop.fs.permission.FsPermission((short) 0700));
              return batched(
                  s.alice().batchedListStatusIterator(List.of(p("/l/closed"), p("/l/d2"))));
            }),
        call("getEnclosingRoot", s -> s.admin().getEnclosingRoot(p("/o/a/f1")).toUri().getPath()),
        call(
            "getEnclosingRoot of a missing path",
            s -> s.admin().getEnclosingRoot(p("/o/none")).toUri().getPath()));
  }

  private static String outcome(Call call, Side s) {
    try {
      return "returned " + call.run(s);
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      return e.getClassName() + ": " + firstLine(e);
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e);
    }
  }

  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Call call) {
    String expected = outcome(call, both.hdfsSide());
    String actual = outcome(call, both.hopsSide());
    assertThat(actual).as(name).isEqualTo(expected);
    assertThat(actual).as(name).doesNotContain("UnsupportedOperationException");
  }

  private static String dfsadmin(Side s, String... args) throws Exception {
    StockTool.Output o = StockTool.run(out -> new DFSAdmin(s.conf()), args);
    String err =
        o.err().lines().filter(l -> !l.matches("^\\d\\d:\\d\\d:.*")).findFirst().orElse("");
    return ("rc=" + o.rc() + "\n" + o.out() + "\n" + err)
        .replaceAll("DFSClient_\\S+", "CLIENT")
        .replace(s.admin().getUri().getAuthority(), "NN");
  }

  @Test
  void dfsadminListOpenFilesPrintsWhatHdfsPrints() throws Exception {
    for (String[] args :
        List.of(
            new String[] {"-listOpenFiles"},
            new String[] {"-listOpenFiles", "-path", "/o/a"},
            new String[] {"-listOpenFiles", "-path", "/o/renamed/deep"},
            new String[] {"-listOpenFiles", "-blockingDecommission"})) {
      String expected = dfsadmin(both.hdfsSide(), args);
      assertThat(expected).contains("Open File Path");
      if (args.length == 1) {
        assertThat(expected).contains("/o/a/f1", "/o/b/f3", "/o/renamed/deep/f4", "/o/ab");
      }
      assertThat(dfsadmin(both.hopsSide(), args)).as(String.join(" ", args)).isEqualTo(expected);
    }
  }
}
