package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * delete, rename, rename2 and getContentSummary, by the superuser and by alice (group staff),
 * against hops and against Apache HDFS (a MiniDFSCluster without datanodes) in the same run: each
 * case builds its own small tree under {@code /c<n>} on both sides, and the outcome (the result,
 * the tree afterwards, or the exception's class and message) must be the same.
 */
class RenameDeleteLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("tree"))
          .eachSide(RenameDeleteLikeHdfsTest::setUp);

  @FunctionalInterface
  private interface Call {
    Object run(Side s, String base) throws Exception;
  }

  private static void setUp(Side s) throws Exception {
    s.admin().mkdirs(p("/keep"));
    s.admin().setPermission(p("/"), perm(0777));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static FsPermission perm(int mode) {
    return new FsPermission((short) mode);
  }

  /** The tree below {@code dir}, one "path type" entry per inode, depth-first by name. */
  private static List<String> tree(Side s, String dir) throws Exception {
    List<String> out = new ArrayList<>();
    for (FileStatus st : s.admin().listStatus(p(dir))) {
      String path = st.getPath().toUri().getPath();
      out.add(path + (st.isDirectory() ? "/" : ""));
      if (st.isDirectory()) {
        out.addAll(tree(s, path));
      }
    }
    return out;
  }

  /** Builds {@code base}: dirs a/b (with file a/b/f), empty dir e, files f and g, dir d/x. */
  private static void standard(Side s, String base) throws Exception {
    s.admin().mkdirs(p(base + "/a/b"));
    s.admin().createNewFile(p(base + "/a/b/f"));
    s.admin().mkdirs(p(base + "/e"));
    s.admin().createNewFile(p(base + "/f"));
    s.admin().createNewFile(p(base + "/g"));
    s.admin().mkdirs(p(base + "/d/x"));
  }

  /** Runs a call on the standard tree and returns its result and the tree afterwards. */
  private static Call onTree(Call call) {
    return (s, base) -> {
      standard(s, base);
      Object result = call.run(s, base);
      return result + " " + tree(s, base);
    };
  }

  /** The old rename of two paths of the standard tree. */
  private static Call rename(String from, String to) {
    return onTree((s, b) -> s.admin().rename(p(b + from), p(b + to)));
  }

  /** rename2 of two paths of the standard tree. */
  private static Call rename2(String from, String to, Options.Rename option) {
    return onTree(
        (s, b) -> {
          s.admin().rename(p(b + from), p(b + to), option);
          return "ok";
        });
  }

  private static String summary(ContentSummary cs) {
    return cs.getLength()
        + " "
        + cs.getFileCount()
        + " "
        + cs.getDirectoryCount()
        + " "
        + cs.getQuota()
        + " "
        + cs.getSpaceConsumed()
        + " "
        + cs.getSpaceQuota()
        + " '"
        + cs.getErasureCodingPolicy()
        + "'";
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  @SuppressWarnings("deprecation") // DFSClient's old rename, to rename the root
  static Stream<Arguments> calls() {
    Options.Rename none = Options.Rename.NONE;
    Options.Rename over = Options.Rename.OVERWRITE;
    return Stream.of(
        call("delete a file", onTree((s, b) -> s.admin().delete(p(b + "/f"), false))),
        call("delete an empty dir", onTree((s, b) -> s.admin().delete(p(b + "/e"), false))),
        call("delete a non-empty dir", onTree((s, b) -> s.admin().delete(p(b + "/a"), false))),
        call("delete recursively", onTree((s, b) -> s.admin().delete(p(b + "/a"), true))),
        call("delete a missing path", onTree((s, b) -> s.admin().delete(p(b + "/zz"), true))),
        call(
            "delete below a missing dir", onTree((s, b) -> s.admin().delete(p(b + "/zz/y"), true))),
        call("delete below a file", onTree((s, b) -> s.admin().delete(p(b + "/f/x"), true))),
        call("delete the root", (s, b) -> s.admin().getClient().delete("/", true)),
        call("delete the root non-recursively", (s, b) -> s.admin().getClient().delete("/", false)),
        call(
            "delete without write on the parent",
            onTree((s, b) -> s.alice().delete(p(b + "/a/b/f"), false))),
        call(
            "delete of a missing file without write on the parent",
            onTree((s, b) -> s.alice().delete(p(b + "/a/b/nothing"), false))),
        call(
            "delete against the sticky bit",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b + "/a/b"), perm(01777));
                  return s.alice().delete(p(b + "/a/b/f"), false);
                })),
        call(
            "delete of a subtree alice cannot write",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b), perm(0777));
                  s.admin().setPermission(p(b + "/a"), perm(0777));
                  return s.alice().delete(p(b + "/a"), true);
                })),
        call(
            "delete of a subtree with an empty dir alice cannot write",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b), perm(0777));
                  s.admin().setOwner(p(b + "/d"), "alice", "staff");
                  return s.alice().delete(p(b + "/d"), true);
                })),
        call(
            "move to trash of a dir holding another user's protected files",
            onTree(
                (s, b) -> {
                  // alice may write b and b/a, but not b/a/b, which holds the superuser's file.
                  s.admin().setPermission(p(b), perm(0777));
                  s.admin().setPermission(p(b + "/a"), perm(0777));
                  s.admin().mkdirs(p(b + "/trash"), perm(0777));
                  s.admin().setPermission(p(b + "/trash"), perm(0777));
                  s.alice().getClient().rename(b + "/a", b + "/trash/a", Options.Rename.TO_TRASH);
                  return "moved";
                })),
        call(
            "move to trash of a dir whose sticky subdir holds another user's file",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b), perm(0777));
                  s.admin().setPermission(p(b + "/a"), perm(0777));
                  s.admin().setPermission(p(b + "/a/b"), perm(01777));
                  s.admin().mkdirs(p(b + "/trash"), perm(0777));
                  s.admin().setPermission(p(b + "/trash"), perm(0777));
                  s.alice().getClient().rename(b + "/a", b + "/trash/a", Options.Rename.TO_TRASH);
                  return "moved";
                })),
        call(
            "move to trash of a dir alice may empty",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b), perm(0777));
                  s.admin().setPermission(p(b + "/a"), perm(0777));
                  s.admin().setPermission(p(b + "/a/b"), perm(0777));
                  s.admin().mkdirs(p(b + "/trash"), perm(0777));
                  s.admin().setPermission(p(b + "/trash"), perm(0777));
                  s.alice().getClient().rename(b + "/a", b + "/trash/a", Options.Rename.TO_TRASH);
                  return "moved";
                })),
        call("rename a file across dirs", rename("/f", "/d/f2")),
        call("rename a dir", rename("/a", "/d/x/a2")),
        call("rename onto an existing file", rename("/f", "/g")),
        call("rename into an existing dir", rename("/f", "/d")),
        call("rename a dir into an existing dir", rename("/a", "/d")),
        call(
            "rename into a dir that has the name",
            onTree(
                (s, b) -> {
                  s.admin().mkdirs(p(b + "/d/a"));
                  return s.admin().rename(p(b + "/a"), p(b + "/d"));
                })),
        call("rename into its own subtree", rename("/a", "/a/b/z")),
        call("rename a dir onto itself", rename("/a", "/a")),
        call("rename a file onto itself", rename("/f", "/f")),
        call("rename a file onto its parent", rename("/a/b/f", "/a/b")),
        call("rename the root", onTree((s, b) -> s.admin().getClient().rename("/", b + "/r"))),
        call("rename a missing source", rename("/zz", "/y")),
        call("rename to a missing parent", rename("/f", "/zz/y")),
        call("rename below a file", rename("/g", "/f/y")),
        call("rename from below a file", rename("/f/y", "/y")),
        call(
            "rename without write on the source parent",
            onTree((s, b) -> s.alice().rename(p(b + "/a/b/f"), p(b + "/f3")))),
        call(
            "rename without write on the destination",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b), perm(0777));
                  return s.alice().rename(p(b + "/f"), p(b + "/a/f"));
                })),
        call("rename2 a file", rename2("/f", "/d/f2", none)),
        call("rename2 onto an existing file", rename2("/f", "/g", none)),
        call("rename2 overwriting a file", rename2("/f", "/g", over)),
        call("rename2 a file onto a dir", rename2("/f", "/e", over)),
        call("rename2 a dir onto a file", rename2("/e", "/f", over)),
        call("rename2 overwriting an empty dir", rename2("/a", "/e", over)),
        call("rename2 onto an empty dir", rename2("/a", "/e", none)),
        call("rename2 overwriting a non-empty dir", rename2("/e", "/a", over)),
        call("rename2 into its own subtree", rename2("/a", "/a/b/z", none)),
        call("rename2 onto itself", rename2("/f", "/f", over)),
        call("rename2 a missing source", rename2("/zz", "/y", none)),
        call("rename2 to a missing parent", rename2("/f", "/zz/y", none)),
        call("rename2 below a file", rename2("/g", "/f/y", none)),
        call(
            "rename2 the root",
            onTree(
                (s, b) -> {
                  s.admin().getClient().rename("/", b + "/r", none);
                  return "ok";
                })),
        call(
            "rename2 onto the root",
            onTree(
                (s, b) -> {
                  s.admin().getClient().rename(b + "/f", "/", over);
                  return "ok";
                })),
        call(
            "rename2 into the root",
            onTree(
                (s, b) -> {
                  s.admin().rename(p(b + "/f"), p("/top" + b.substring(1)), none);
                  return s.admin().exists(p("/top" + b.substring(1)));
                })),
        call(
            "content summary of a dir",
            onTree((s, b) -> summary(s.admin().getContentSummary(p(b))))),
        call(
            "content summary of a file",
            onTree((s, b) -> summary(s.admin().getContentSummary(p(b + "/f"))))),
        call(
            "content summary of a missing path",
            onTree((s, b) -> summary(s.admin().getContentSummary(p(b + "/zz"))))),
        call(
            "content summary below a file",
            onTree((s, b) -> summary(s.admin().getContentSummary(p(b + "/f/x"))))),
        call(
            "content summary without read on a subdir",
            onTree(
                (s, b) -> {
                  s.admin().setPermission(p(b + "/a/b"), perm(0711));
                  s.admin().setPermission(p(b + "/d/x"), perm(0700));
                  return summary(s.alice().getContentSummary(p(b)));
                })));
  }

  private static String outcome(Call call, Side s, String base) {
    try {
      return "ok: " + call.run(s, base);
    } catch (RemoteException e) {
      return "RemoteException(" + e.getClassName() + "): " + firstLine(e.getMessage());
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e.getMessage());
    }
  }

  /** The message without the server's stack trace, which Hadoop IPC appends. */
  private static String firstLine(String message) {
    return message == null ? null : message.split("\n", 2)[0];
  }

  private static int cases;

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Call call) {
    cases++;
    String base = "/c" + cases;
    String expected = outcome(call, both.hdfsSide(), base);
    String actual = outcome(call, both.hopsSide(), base);
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
