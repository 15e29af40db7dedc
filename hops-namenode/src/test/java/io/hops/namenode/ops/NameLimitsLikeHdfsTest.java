package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySide.Step;
import io.hops.namenode.SideBySideExtension;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The errors that name a path the operation only spells when it fails (the name limits, a denied
 * write on the parent, the sticky bit) of mkdirs, create, rename and delete, against hops and
 * against Apache HDFS with the same limits in the same run: the exception's class and message must
 * be the same, so each names the same directory.
 */
class NameLimitsLikeHdfsTest {
  private static final String LONG = "abcdefghijk"; // 11 bytes, over the limit of 10

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("limits", limits()))
          .eachSide(NameLimitsLikeHdfsTest::setUp);

  private static Configuration limits() {
    Configuration limits = new Configuration(false);
    limits.setInt(DFSConfigKeys.DFS_NAMENODE_MAX_COMPONENT_LENGTH_KEY, 10);
    limits.setInt(DFSConfigKeys.DFS_NAMENODE_MAX_DIRECTORY_ITEMS_KEY, 3);
    return limits;
  }

  private static void setUp(Side s) throws Exception {
    s.admin().mkdirs(p("/l/a/b"));
    s.admin().createNewFile(p("/l/a/f"));
    s.admin().mkdirs(p("/l/p/full/x"));
    s.admin().mkdirs(p("/l/p/full/y"));
    s.admin().mkdirs(p("/l/p/full/z"));
    s.admin().mkdirs(p("/l/p/ro"));
    s.admin().setPermission(p("/l/p/ro"), new FsPermission((short) 0755));
    s.admin().mkdirs(p("/l/q/st"));
    s.admin().setPermission(p("/l/q/st"), new FsPermission((short) 01777));
    s.admin().createNewFile(p("/l/q/st/root-file"));
    s.admin().setPermission(p("/l/q/st/root-file"), new FsPermission((short) 0666));
    s.admin().mkdirs(p("/l/q/open"));
    s.admin().setPermission(p("/l/q/open"), new FsPermission((short) 0777));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /** A step whose result, if any, is not compared: only whether and how it fails. */
  @FunctionalInterface
  private interface Action {
    void run(Side s) throws Exception;
  }

  private static Arguments step(String name, Action action) {
    Step step =
        s -> {
          action.run(s);
          return "done";
        };
    return Arguments.of(name, step);
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        step("mkdir of a long name", s -> s.admin().mkdirs(p("/l/a/b/" + LONG))),
        step("mkdir -p through a long name", s -> s.admin().mkdirs(p("/l/a/b/" + LONG + "/c"))),
        step("create of a long name", s -> s.admin().createNewFile(p("/l/a/b/" + LONG))),
        step(
            "create of a long name below new directories",
            s -> s.admin().create(p("/l/a/new/" + LONG)).close()),
        step("rename to a long name", s -> s.admin().rename(p("/l/a/f"), p("/l/a/b/" + LONG))),
        step(
            "rename (new API) to a long name",
            s -> s.admin().rename(p("/l/a/f"), p("/l/a/b/" + LONG), Options.Rename.NONE)),
        step("mkdir 1,001 levels deep", s -> s.admin().mkdirs(p("/l" + "/d".repeat(1000)))),
        step("create 1,001 levels deep", s -> s.admin().createNewFile(p("/l" + "/d".repeat(1000)))),
        step("mkdir in a full directory", s -> s.admin().mkdirs(p("/l/p/full/w"))),
        step("mkdir -p through a full directory", s -> s.admin().mkdirs(p("/l/p/full/w/v"))),
        step("create in a full directory", s -> s.admin().createNewFile(p("/l/p/full/w"))),
        step(
            "rename into a full directory",
            s -> s.admin().rename(p("/l/a/f"), p("/l/p/full/f"), Options.Rename.NONE)),
        step("mkdir without write on the parent", s -> s.alice().mkdirs(p("/l/p/ro/d"))),
        step("mkdir -p without write on the ancestor", s -> s.alice().mkdirs(p("/l/p/ro/d/e"))),
        step("create without write on the parent", s -> s.alice().createNewFile(p("/l/p/ro/f"))),
        step(
            "rename out of a directory without write",
            s -> s.alice().rename(p("/l/p/ro"), p("/l/q/open/ro"), Options.Rename.NONE)),
        step(
            "rename into a directory without write",
            s -> {
              s.alice().mkdirs(p("/l/q/open/mine"));
              s.alice().rename(p("/l/q/open/mine"), p("/l/p/ro/mine"), Options.Rename.NONE);
            }),
        step("delete without write on the parent", s -> s.alice().delete(p("/l/p/ro"), true)),
        step(
            "delete of another's file by the sticky bit",
            s -> s.alice().delete(p("/l/q/st/root-file"), false)),
        step(
            "rename of another's file by the sticky bit",
            s ->
                s.alice().rename(p("/l/q/st/root-file"), p("/l/q/st/moved"), Options.Rename.NONE)));
  }

  private static String outcome(Step step, Side s) {
    try {
      return String.valueOf(step.run(s));
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Step step) {
    String expected = outcome(step, both.hdfsSide());
    String actual = outcome(step, both.hopsSide());
    assertThat(expected).as("HDFS refuses: " + name).isNotEqualTo("done");
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
