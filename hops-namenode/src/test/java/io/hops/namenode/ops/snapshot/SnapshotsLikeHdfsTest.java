package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.hdfs.tools.snapshot.LsSnapshot;
import org.apache.hadoop.hdfs.tools.snapshot.LsSnapshottableDir;
import org.apache.hadoop.util.Tool;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The snapshot calls with {@value NamenodeConfig#SNAPSHOTS_ENABLED} on, against hops and against
 * Apache HDFS in the same run: a scripted history of allows, creations, renames, deletions and
 * listings, each refusal included, and the deletes and renames snapshots forbid; every step's
 * result (or exception class and message) and every listing's fields (all but times and ids) must
 * be HDFS's. Then the stock tools, and a snapshot taken through one namenode listed by another.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SnapshotsLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("snapshots", conf()))
          .eachSide(SnapshotsLikeHdfsTest::setUp);

  private static Configuration conf() {
    Configuration conf = SnapshotTestFiles.snapshotsOn();
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SNAPSHOT_MAX_LIMIT, 3);
    return conf;
  }

  private static void setUp(Side s) throws Exception {
    DistributedFileSystem fs = s.admin();
    fs.mkdirs(p("/s/a/sub"));
    fs.setOwner(p("/s/a"), "alice", "staff");
    fs.mkdirs(p("/s/b"));
    fs.mkdirs(p("/s/c"));
    fs.mkdirs(p("/s/e"));
    fs.mkdirs(p("/s/f"));
    fs.mkdirs(p("/s/m/n"));
    fs.mkdirs(p("/s/k/l/deep"));
    fs.createNewFile(p("/s/file"));
    fs.createNewFile(p("/s/a/f1"));
    fs.setPermission(p("/s"), new FsPermission((short) 0777));
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /** A step whose result is not compared, only whether and how it fails. */
  @FunctionalInterface
  private interface Action {
    void run(Side s) throws Exception;
  }

  private record Step(String name, SideBySide.Step step) {}

  private static Step call(String name, SideBySide.Step step) {
    return new Step(name, step);
  }

  private static Step act(String name, Action a) {
    return new Step(
        name,
        s -> {
          a.run(s);
          return "done";
        });
  }

  @Test
  @Order(1)
  void apiStepsAreHdfsSteps() {
    List<Step> steps =
        List.of(
            call("no snapshottable directory", s -> dirs(s.admin().getSnapshottableDirListing())),
            act("allow by a user", s -> s.alice().allowSnapshot(p("/s/a"))),
            act("allow of a missing dir", s -> s.admin().allowSnapshot(p("/s/none"))),
            act("allow of a file", s -> s.admin().allowSnapshot(p("/s/file"))),
            act("allow", s -> s.admin().allowSnapshot(p("/s/a"))),
            act("allow again", s -> s.admin().allowSnapshot(p("/s/a"))),
            act("allow of an ancestor", s -> s.admin().allowSnapshot(p("/s"))),
            act("allow of a descendant", s -> s.admin().allowSnapshot(p("/s/a/sub"))),
            act("allow of another", s -> s.admin().allowSnapshot(p("/s/b"))),
            call("snapshot-enabled statuses", SnapshotsLikeHdfsTest::enabled),
            act("disallow of a plain dir", s -> s.admin().disallowSnapshot(p("/s/c"))),
            act("disallow by a user", s -> s.alice().disallowSnapshot(p("/s/b"))),
            call("listing", s -> dirs(s.admin().getSnapshottableDirListing())),
            call("listing by a user", s -> dirs(s.alice().getSnapshottableDirListing())),
            call("create, not snapshottable", s -> s.admin().createSnapshot(p("/s/c"), "s1")),
            call("create of a missing dir", s -> s.admin().createSnapshot(p("/s/none"), "s1")),
            call("create of a file", s -> s.admin().createSnapshot(p("/s/file"), "s1")),
            call("create by a non-owner", s -> s.alice().createSnapshot(p("/s/b"), "s1")),
            call("create by the owner", s -> s.alice().createSnapshot(p("/s/a"), "s1")),
            call("create of a taken name", s -> s.alice().createSnapshot(p("/s/a"), "s1")),
            call("create named with a slash", s -> s.admin().createSnapshot(p("/s/a"), "x/y")),
            call("create named .snapshot", s -> s.admin().createSnapshot(p("/s/a"), ".snapshot")),
            call("create named with a colon", s -> s.admin().createSnapshot(p("/s/a"), "x:y")),
            call("create named ..", s -> s.admin().createSnapshot(p("/s/a"), "..")),
            call("create with the default name", s -> masked(s.admin().createSnapshot(p("/s/a")))),
            call("create a third", s -> s.admin().createSnapshot(p("/s/a"), "s3")),
            call("create past the limit", s -> s.admin().createSnapshot(p("/s/a"), "s4")),
            call("create of the root", s -> s.admin().createSnapshot(p("/"), "r")),
            call("snapshots of the root", s -> snapshots(s.admin().getSnapshotListing(p("/")))),
            call("snapshots", s -> snapshots(s.alice().getSnapshotListing(p("/s/a")))),
            call("snapshots, none", s -> snapshots(s.admin().getSnapshotListing(p("/s/b")))),
            call("snapshots, not snapshottable", s -> s.admin().getSnapshotListing(p("/s/c"))),
            call("snapshots of a missing dir", s -> s.admin().getSnapshotListing(p("/s/none"))),
            act("rename", s -> s.alice().renameSnapshot(p("/s/a"), "s1", "s9")),
            act("rename of a missing one", s -> s.alice().renameSnapshot(p("/s/a"), "s1", "s8")),
            act("rename onto a taken name", s -> s.alice().renameSnapshot(p("/s/a"), "s9", "s3")),
            act("rename to itself", s -> s.alice().renameSnapshot(p("/s/a"), "s9", "s9")),
            act("rename to .snapshot", s -> s.alice().renameSnapshot(p("/s/a"), "s9", ".snapshot")),
            act("rename with a slash", s -> s.alice().renameSnapshot(p("/s/a"), "s9", "a/b")),
            act("rename by a non-owner", s -> s.alice().renameSnapshot(p("/s/b"), "s9", "s8")),
            act("rename, not snapshottable", s -> s.admin().renameSnapshot(p("/s/c"), "a", "b")),
            call(
                "snapshots after the rename",
                s -> snapshots(s.admin().getSnapshotListing(p("/s/a")))),
            call("listing with snapshots", s -> dirs(s.admin().getSnapshottableDirListing())),
            act("disallow with snapshots", s -> s.admin().disallowSnapshot(p("/s/a"))),
            call("delete of it", s -> s.admin().delete(p("/s/a"), true)),
            call("delete of its parent", s -> s.admin().delete(p("/s"), true)),
            call("old rename of it", s -> s.admin().rename(p("/s/a"), p("/s/z"))),
            act("rename2 of it", s -> s.admin().rename(p("/s/a"), p("/s/z"), Options.Rename.NONE)),
            act(
                "rename2 of its parent",
                s -> s.admin().rename(p("/s"), p("/t"), Options.Rename.NONE)),
            act("allow of an empty dir", s -> s.admin().allowSnapshot(p("/s/e"))),
            call("snapshot of it", s -> s.admin().createSnapshot(p("/s/e"), "e1")),
            act(
                "rename2 over it",
                s -> s.admin().rename(p("/s/f"), p("/s/e"), Options.Rename.OVERWRITE)),
            act("allow below a plain dir", s -> s.admin().allowSnapshot(p("/s/m/n"))),
            act(
                "rename2 of its parent below a snapshottable dir",
                s -> s.admin().rename(p("/s/m"), p("/s/b/m"), Options.Rename.NONE)),
            call("old rename of it below one", s -> s.admin().rename(p("/s/m"), p("/s/b"))),
            act(
                "rename2 of its parent into the root",
                s -> s.admin().rename(p("/s/m"), p("/m"), Options.Rename.NONE)),
            act(
                "rename2 of its parent elsewhere",
                s -> s.admin().rename(p("/s/m"), p("/s/k/m"), Options.Rename.NONE)),
            call("listing after the move", s -> dirs(s.admin().getSnapshottableDirListing())),
            call("delete of its new parent", s -> s.admin().delete(p("/s/k"), true)),
            call("listing after the delete", s -> dirs(s.admin().getSnapshottableDirListing())),
            act("delete a missing snapshot", s -> s.alice().deleteSnapshot(p("/s/a"), "s1")),
            act("delete by a non-owner", s -> s.alice().deleteSnapshot(p("/s/e"), "e1")),
            act("delete, not snapshottable", s -> s.admin().deleteSnapshot(p("/s/c"), "e1")),
            act("delete of a snapshot", s -> s.alice().deleteSnapshot(p("/s/a"), "s9")),
            act("delete of another", s -> s.alice().deleteSnapshot(p("/s/a"), "s3")),
            call(
                "snapshots after deletes", s -> snapshots(s.admin().getSnapshotListing(p("/s/a")))),
            act("delete the default-named one", s -> deleteAll(s, "/s/a")),
            act("disallow once none is left", s -> s.admin().disallowSnapshot(p("/s/a"))),
            call("snapshot-enabled statuses once disallowed", SnapshotsLikeHdfsTest::enabled),
            call("create once disallowed", s -> s.admin().createSnapshot(p("/s/a"), "s1")),
            act("allow of the root", s -> s.admin().allowSnapshot(p("/"))),
            act("allow below the root", s -> s.admin().allowSnapshot(p("/s/c"))),
            act("delete of the last one", s -> s.admin().deleteSnapshot(p("/s/e"), "e1")),
            act(
                "disallow of every other",
                s -> {
                  for (String d : new String[] {"/s/b", "/s/c", "/s/e"}) {
                    s.admin().disallowSnapshot(p(d));
                  }
                }),
            call("listing of none", s -> dirs(s.admin().getSnapshottableDirListing())),
            act("allow of the root alone", s -> s.admin().allowSnapshot(p("/"))),
            act("allow below the allowed root", s -> s.admin().allowSnapshot(p("/s/c"))),
            call("create of the root once allowed", s -> s.admin().createSnapshot(p("/"), "r")),
            call("root listing", s -> dirs(s.admin().getSnapshottableDirListing())),
            act("disallow of the root with one", s -> s.admin().disallowSnapshot(p("/"))),
            act("delete of the root's", s -> s.admin().deleteSnapshot(p("/"), "r")),
            act("disallow of the root", s -> s.admin().disallowSnapshot(p("/"))),
            call("final listing", s -> dirs(s.admin().getSnapshottableDirListing())),
            call("final snapshot-enabled statuses", SnapshotsLikeHdfsTest::enabled));
    List<String> hops = new ArrayList<>();
    List<String> hdfs = new ArrayList<>();
    for (Step step : steps) {
      hdfs.add(step.name() + " -> " + outcome(step.step(), both.hdfsSide()));
      hops.add(step.name() + " -> " + outcome(step.step(), both.hopsSide()));
    }
    hops.forEach(System.out::println);
    assertThat(hops).containsExactlyElementsOf(hdfs);
  }

  @Test
  @Order(2)
  void stockToolsPrintWhatHdfsPrints() throws Exception {
    String[][] commands = {
      {"dfsadmin", "-allowSnapshot", "/s/b"},
      {"dfsadmin", "-allowSnapshot", "/s/none"},
      {"fs", "-createSnapshot", "/s/b", "t1"},
      {"fs", "-createSnapshot", "/s/b", "t1"},
      {"fs", "-createSnapshot", "/s/c", "t1"},
      {"fs", "-renameSnapshot", "/s/b", "t1", "t2"},
      {"fs", "-renameSnapshot", "/s/b", "t1", "t3"},
      {"lsSnapshottableDir"},
      {"lsSnapshot", "/s/b"},
      {"fs", "-deleteSnapshot", "/s/b", "t2"},
      {"fs", "-deleteSnapshot", "/s/b", "t2"},
      {"dfsadmin", "-disallowSnapshot", "/s/b"},
      {"lsSnapshottableDir"},
    };
    for (String[] c : commands) {
      String hops = tool(both.hops().clientConf(), c);
      String hdfs = tool(both.hdfs().getConfiguration(0), c);
      assertThat(hops).as(String.join(" ", c)).isEqualTo(hdfs);
    }
  }

  @Test
  @Order(3)
  void aSnapshotTakenThroughOneNamenodeIsListedByAnother() throws Exception {
    DistributedFileSystem first = both.hopsSide().admin();
    try (HopsNameNode other = both.hops().startAnotherNamenode();
        FileSystem viaOther = FileSystem.newInstance(both.get().through(other))) {
      DistributedFileSystem second = (DistributedFileSystem) viaOther;
      first.mkdirs(p("/two/d"));
      first.allowSnapshot(p("/two/d"));
      assertThat(second.createSnapshot(p("/two/d"), "x")).hasToString("/two/d/.snapshot/x");
      assertThat(snapshots(first.getSnapshotListing(p("/two/d")))).contains("x ");
      assertThat(dirs(second.getSnapshottableDirListing())).contains("/two/d ");
      first.renameSnapshot(p("/two/d"), "x", "y");
      assertThat(snapshots(second.getSnapshotListing(p("/two/d")))).contains("y ");
      second.deleteSnapshot(p("/two/d"), "y");
      first.disallowSnapshot(p("/two/d"));
      assertThat(dirs(second.getSnapshottableDirListing())).doesNotContain("/two/d ");
    }
  }

  private static void deleteAll(Side s, String dir) throws Exception {
    for (SnapshotStatus st : s.admin().getSnapshotListing(p(dir))) {
      s.admin().deleteSnapshot(p(dir), st.getDirStatus().getLocalName());
    }
  }

  private static String outcome(SideBySide.Step step, Side s) {
    try {
      return String.valueOf(step.run(s));
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  /**
   * Which statuses say snapshottable ({@code FileStatus.isSnapshotEnabled}): the root's and each
   * directory's below {@code /s} in {@code getFileInfo}, and each entry of the listing of {@code
   * /s}.
   */
  private static String enabled(Side s) throws Exception {
    StringBuilder b =
        new StringBuilder("/=").append(s.admin().getFileStatus(p("/")).isSnapshotEnabled());
    for (FileStatus st : s.admin().listStatus(p("/s"))) {
      b.append(' ')
          .append(st.getPath().getName())
          .append('=')
          .append(st.isSnapshotEnabled())
          .append('/')
          .append(s.admin().getFileStatus(st.getPath()).isSnapshotEnabled());
    }
    return b.toString();
  }

  /** A default snapshot name (the time it was taken) masked. */
  private static String masked(Object path) {
    return String.valueOf(path).replaceAll("s\\d{8}-\\d{6}\\.\\d{3}", "sDEFAULT");
  }

  /** Each directory's path, owner, group, mode, children, snapshots and quota (not its times). */
  static String dirs(SnapshottableDirectoryStatus[] list) {
    if (list == null) {
      return "null";
    }
    return Arrays.stream(list)
        .map(
            d ->
                d.getFullPath()
                    + " "
                    + d.getDirStatus().getOwner()
                    + ":"
                    + d.getDirStatus().getGroup()
                    + " "
                    + d.getDirStatus().getPermission()
                    + " children="
                    + d.getDirStatus().getChildrenNum()
                    + " snapshots="
                    + d.getSnapshotNumber()
                    + "/"
                    + d.getSnapshotQuota())
        .collect(Collectors.joining("; "));
  }

  /**
   * Each snapshot's name, owner, group, mode, children, deletion and directory (not times, ids).
   */
  static String snapshots(SnapshotStatus[] list) {
    return Arrays.stream(list)
        .map(
            s ->
                masked(s.getDirStatus().getLocalName())
                    + " "
                    + s.getDirStatus().getOwner()
                    + ":"
                    + s.getDirStatus().getGroup()
                    + " "
                    + s.getDirStatus().getPermission()
                    + " children="
                    + s.getDirStatus().getChildrenNum()
                    + " deleted="
                    + s.isDeleted()
                    + " of "
                    + DFSUtil.bytes2String(s.getParentFullPath()))
        .collect(Collectors.joining("; "));
  }

  /** A stock tool's exit code and output, run in this JVM, with addresses, times and ids masked. */
  private static String tool(Configuration conf, String... words) throws Exception {
    Configuration c = new Configuration(conf);
    String[] args = Arrays.copyOfRange(words, 1, words.length);
    Tool t =
        switch (words[0]) {
          case "fs" -> new FsShell(c);
          case "dfsadmin" -> new DFSAdmin(c);
          case "lsSnapshottableDir" -> new LsSnapshottableDir();
          default -> new LsSnapshot();
        };
    ThreadConsole.Captured r = ThreadConsole.captureMerged(() -> ToolRunner.run(c, t, args));
    String uri = FileSystem.getDefaultUri(c).toString();
    String out =
        r.out()
            .replace(uri, "NAMENODE")
            .replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}", "TIME")
            .lines()
            .filter(l -> !l.matches("^\\d{4}-\\d{2}-\\d{2}.*"))
            // The server's stack trace, which names each side's own classes.
            .filter(l -> !l.matches("^\\s+at .*") && !l.matches("^\\s*\\.\\.\\. \\d+ more"))
            .map(l -> l.replaceAll("\\s+\\d+\\s+ACTIVE", " ID ACTIVE"))
            .collect(Collectors.joining("\n"));
    return "[exit " + r.exit() + "]\n" + out;
  }
}
