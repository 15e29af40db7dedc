package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySide.Step;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FsStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same attribute and listing calls, by the superuser and by alice (group staff), against hops
 * and against Apache HDFS (a MiniDFSCluster without datanodes) in the same run: the outcome (the
 * result, or the exception's class and message) must be the same.
 */
class SetAttrLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("setattr"))
          .eachSide(SetAttrLikeHdfsTest::setUp);

  @FunctionalInterface
  private interface Action {
    void run(Side s) throws Exception;
  }

  private static void setUp(Side s) throws Exception {
    s.admin().mkdirs(new Path("/s/dir"));
    s.admin().mkdirs(new Path("/s/sticky"));
    s.admin().createNewFile(new Path("/s/file"));
    s.admin().mkdirs(new Path("/s/private/inner"));
    s.admin().setPermission(new Path("/s/private"), new FsPermission((short) 0700));
    s.admin().mkdirs(new Path("/s/alice"));
    s.admin().setOwner(new Path("/s/alice"), "alice", "staff");
    s.alice().createNewFile(new Path("/s/alice/f"));
    s.alice().mkdirs(new Path("/s/alice/d"));
    for (String n : List.of("a", "B", "é", "_", "1", "aa")) {
      s.admin().mkdirs(new Path("/s/order/" + n));
    }
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static FsPermission perm(int mode) {
    return new FsPermission((short) mode);
  }

  private static List<String> paths(FileStatus[] listing) {
    List<String> out = new ArrayList<>();
    for (FileStatus st : listing) {
      out.add(st.getPath().toUri().getPath());
    }
    return out;
  }

  private static String ownership(Side s, String path) throws Exception {
    FileStatus st = s.admin().getFileStatus(p(path));
    return st.getOwner() + ":" + st.getGroup() + " " + st.getPermission();
  }

  private static Arguments call(String name, Step call) {
    return Arguments.of(name, call);
  }

  /** A call without a result. */
  private static Arguments step(String name, Action step) {
    Step call =
        s -> {
          step.run(s);
          return "done";
        };
    return Arguments.of(name, call);
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        step("chmod by a non-owner", s -> s.alice().setPermission(p("/s/dir"), perm(0777))),
        call(
            "chmod by the owner",
            s -> {
              s.alice().setPermission(p("/s/alice/f"), perm(0600));
              return ownership(s, "/s/alice/f");
            }),
        call(
            "chmod keeps the sticky bit",
            s -> {
              s.admin().setPermission(p("/s/sticky"), perm(01777));
              return ownership(s, "/s/sticky");
            }),
        step("chmod of a missing path", s -> s.admin().setPermission(p("/s/no"), perm(0700))),
        step("chmod below a file", s -> s.admin().setPermission(p("/s/file/x"), perm(0700))),
        step("chmod of the root by a non-owner", s -> s.alice().setPermission(p("/"), perm(0777))),
        step(
            "chown by the owner to another user",
            s -> s.alice().setOwner(p("/s/alice/f"), "bob", null)),
        call(
            "chgrp by the owner to their own group",
            s -> {
              s.alice().setOwner(p("/s/alice/d"), null, "staff");
              return ownership(s, "/s/alice/d");
            }),
        step(
            "chgrp by the owner to a foreign group",
            s -> s.alice().setOwner(p("/s/alice/f"), null, "wheel")),
        step("chgrp by a non-owner", s -> s.alice().setOwner(p("/s/dir"), null, "staff")),
        call(
            "chown by the superuser to an unknown user",
            s -> {
              s.admin().setOwner(p("/s/dir"), "nobody-known", "nogroup-known");
              return ownership(s, "/s/dir");
            }),
        step("chown of a missing path", s -> s.admin().setOwner(p("/s/no"), "x", null)),
        step("setTimes of a missing path", s -> s.admin().setTimes(p("/s/no"), 1, 1)),
        step("setTimes without write permission", s -> s.alice().setTimes(p("/s/file"), 5, 5)),
        call(
            "setTimes by the owner",
            s -> {
              s.alice().setTimes(p("/s/alice/f"), 5000, 6000);
              FileStatus st = s.admin().getFileStatus(p("/s/alice/f"));
              return st.getModificationTime() + " " + st.getAccessTime();
            }),
        call(
            "setReplication of a missing path",
            s -> s.admin().setReplication(p("/s/no"), (short) 2)),
        call(
            "setReplication of a directory",
            s -> s.admin().setReplication(p("/s/order"), (short) 2)),
        call(
            "setReplication of a file",
            s ->
                s.admin().setReplication(p("/s/file"), (short) 2)
                    + " "
                    + s.admin().getFileStatus(p("/s/file")).getReplication()),
        step(
            "setReplication above the maximum",
            s -> s.admin().setReplication(p("/s/file"), (short) 1000)),
        step(
            "setReplication below the minimum",
            s -> s.admin().setReplication(p("/s/file"), (short) 0)),
        step(
            "setReplication without write permission",
            s -> s.alice().setReplication(p("/s/file"), (short) 3)),
        call("ls sorts by name bytes", s -> paths(s.admin().listStatus(p("/s/order")))),
        call("ls of a file", s -> paths(s.admin().listStatus(p("/s/file")))),
        step("ls of a missing path", s -> s.admin().listStatus(p("/s/no"))),
        step("ls below a file", s -> s.admin().listStatus(p("/s/file/x"))),
        step("ls without read permission", s -> s.alice().listStatus(p("/s/private"))),
        step(
            "ls through a directory without traverse",
            s -> s.alice().listStatus(p("/s/private/inner"))),
        call(
            "df",
            s -> {
              FsStatus st = s.admin().getStatus();
              return st.getCapacity() + " " + st.getUsed() + " " + st.getRemaining();
            }));
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Step call) {
    String expected = SideBySide.outcome(call, both.hdfsSide());
    String actual = SideBySide.outcome(call, both.hopsSide());
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
