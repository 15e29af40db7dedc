package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySide.Step;
import io.hops.namenode.SideBySideExtension;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options.HandleOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathHandle;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code /.reserved/.inodes/<id>} and {@code /.reserved/raw} paths, and opening by {@code
 * PathHandle}, against hops and against Apache HDFS in the same run: every step's outcome (its
 * result with ids replaced by names, or the exception's class and first message line) must be the
 * same.
 */
class ReservedPathsLikeHdfsTest {
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(() -> SideBySide.start("reserved"));

  private static String outcome(Side s, Step step) {
    try {
      Object r = step.run(s);
      if (r instanceof FileStatus st) {
        return describe(st);
      }
      if (r instanceof FileStatus[] sts) {
        List<String> out = new ArrayList<>();
        for (FileStatus st : sts) {
          out.add(describe(st));
        }
        return out.toString();
      }
      return String.valueOf(r);
    } catch (Exception e) {
      return SideBySide.failure(e);
    }
  }

  private static String describe(FileStatus st) {
    return st.getPath().toUri().getPath()
        + (st.isDirectory() ? " dir " : " file ")
        + st.getLen()
        + " "
        + st.getOwner()
        + ":"
        + st.getGroup()
        + ":"
        + st.getPermission();
  }

  private static long id(Side s, String path) throws Exception {
    return ((org.apache.hadoop.hdfs.protocol.HdfsFileStatus)
            s.admin().getFileStatus(new Path(path)))
        .getFileId();
  }

  /** The id of the inode at {@code path}, asked of the namenode exactly as given. */
  private static long rpcId(Side s, String path) throws Exception {
    return s.admin().getClient().getFileInfo(path).getFileId();
  }

  private static String inodes(Side s, String path, String rest) throws Exception {
    return "/.reserved/.inodes/" + id(s, path) + rest;
  }

  /** Runs the same steps on both sides, in order, and compares each outcome. */
  private static void same(List<Step> steps) {
    List<String> onHops = new ArrayList<>();
    List<String> onHdfs = new ArrayList<>();
    for (Step step : steps) {
      onHdfs.add(outcome(both.hdfsSide(), step));
      onHops.add(outcome(both.hopsSide(), step));
    }
    assertThat(onHops).containsExactlyElementsOf(onHdfs);
  }

  private static void setUp(Side s, String root) throws Exception {
    s.admin().mkdirs(new Path(root + "/dir"));
    s.admin().createNewFile(new Path(root + "/dir/file"));
    s.admin()
        .setPermission(
            new Path(root), new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
  }

  @Test
  void inodePathsResolveLikeHdfs() throws Exception {
    setUp(both.hopsSide(), "/i");
    setUp(both.hdfsSide(), "/i");
    same(
        List.<Step>of(
            s -> s.admin().getFileStatus(new Path(inodes(s, "/i/dir/file", ""))).isFile(),
            s -> id(s, inodes(s, "/i/dir/file", "")) == id(s, "/i/dir/file"),
            s -> id(s, inodes(s, "/i/dir", "/file")) == id(s, "/i/dir/file"),
            s -> id(s, inodes(s, "/i/dir/file", "/..")) == id(s, "/i/dir"),
            s -> id(s, inodes(s, "/i", "/..")) == id(s, "/"),
            s -> id(s, inodes(s, "/", "")) == id(s, "/"),
            // ".." as NFS sends it (a client's Path would normalise it away)
            s -> rpcId(s, inodes(s, "/i/dir/file", "/..")) == id(s, "/i/dir"),
            s -> rpcId(s, inodes(s, "/i/dir", "/../x/y")) == id(s, "/i"),
            s -> rpcId(s, inodes(s, "/i", "/..")) == id(s, "/"),
            s -> names(s.alice().listStatus(new Path(inodes(s, "/i/dir", "")))),
            s -> s.alice().getContentSummary(new Path(inodes(s, "/i", ""))).getFileCount(),
            s -> s.admin().getFileStatus(new Path("/.reserved/.inodes/abc")),
            s -> s.admin().getFileStatus(new Path("/.reserved/.inodes/987654321")),
            s -> s.admin().getFileStatus(new Path("/.reserved/.inodes/987654321/x")),
            s -> s.admin().listStatus(new Path("/.reserved/.inodes/987654321")),
            s -> s.admin().delete(new Path("/.reserved/.inodes/987654321"), true),
            s -> s.alice().mkdirs(new Path(inodes(s, "/i", "/made/deep"))),
            s -> s.alice().exists(new Path("/i/made/deep")),
            s -> s.alice().rename(new Path(inodes(s, "/i/made", "")), new Path("/i/moved")),
            s -> s.alice().exists(new Path("/i/moved/deep")),
            s -> {
              s.alice().create(new Path(inodes(s, "/i/moved", "/f"))).close();
              return s.alice().getFileStatus(new Path("/i/moved/f"));
            },
            s -> {
              s.alice()
                  .setPermission(
                      new Path(inodes(s, "/i/moved/f", "")),
                      new org.apache.hadoop.fs.permission.FsPermission((short) 0600));
              return "ok";
            },
            s -> s.alice().getFileStatus(new Path("/i/moved/f")),
            s -> s.alice().mkdirs(new Path(inodes(s, "/i/dir", "/x"))), // dir is the admin's 755
            s -> s.alice().delete(new Path(inodes(s, "/i/moved", "")), true),
            s -> s.alice().exists(new Path("/i/moved"))));
  }

  private static String names(FileStatus[] list) {
    List<String> n = new ArrayList<>();
    for (FileStatus st : list) {
      n.add(st.getPath().getName());
    }
    return n.toString();
  }

  @Test
  void pathHandlesSurviveARenameLikeHdfs() throws Exception {
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      s.admin().mkdirs(new Path("/h"));
      s.admin().createNewFile(new Path("/h/a"));
      s.admin().createNewFile(new Path("/h/b"));
    }
    PathHandle[] moved = new PathHandle[2];
    PathHandle[] fixed = new PathHandle[2];
    Side[] sides = {both.hdfsSide(), both.hopsSide()};
    for (int i = 0; i < 2; i++) {
      FileStatus a = sides[i].admin().getFileStatus(new Path("/h/a"));
      moved[i] = sides[i].admin().getPathHandle(a, HandleOpt.moved(true));
      fixed[i] = sides[i].admin().getPathHandle(a, HandleOpt.path());
    }
    List<Step> steps =
        List.<Step>of(
            s -> read(s, moved[s == both.hdfsSide() ? 0 : 1]),
            s -> read(s, fixed[s == both.hdfsSide() ? 0 : 1]),
            s -> s.admin().rename(new Path("/h/a"), new Path("/h/renamed")),
            s -> read(s, moved[s == both.hdfsSide() ? 0 : 1]),
            s -> read(s, fixed[s == both.hdfsSide() ? 0 : 1]),
            s -> s.admin().rename(new Path("/h/b"), new Path("/h/a")), // another file at the path
            s -> read(s, fixed[s == both.hdfsSide() ? 0 : 1]),
            s -> s.admin().delete(new Path("/h/renamed"), false),
            s -> read(s, moved[s == both.hdfsSide() ? 0 : 1]),
            s ->
                s.admin()
                    .getPathHandle(s.admin().getFileStatus(new Path("/h")), HandleOpt.moved(true)));
    List<String> onHops = new ArrayList<>();
    List<String> onHdfs = new ArrayList<>();
    for (Step step : steps) {
      onHdfs.add(
          outcome(both.hdfsSide(), step)
              .replaceAll("/\\.reserved/\\.inodes/\\d+", "/.reserved/.inodes/ID"));
      onHops.add(
          outcome(both.hopsSide(), step)
              .replaceAll("/\\.reserved/\\.inodes/\\d+", "/.reserved/.inodes/ID"));
    }
    assertThat(onHops).containsExactlyElementsOf(onHdfs);
    assertThat(onHdfs.get(3)).isEqualTo("-1"); // the moved file opened by its handle
    assertThat(onHdfs.get(8)).startsWith("java.io.FileNotFoundException");
  }

  private static int read(Side s, PathHandle h) throws Exception {
    try (FSDataInputStream in = s.admin().open(h)) {
      return in.read();
    }
  }

  @Test
  void rawPathsAreForTheSuperuserLikeHdfs() throws Exception {
    for (Side s : new Side[] {both.hopsSide(), both.hdfsSide()}) {
      s.admin().mkdirs(new Path("/w/dir"));
      s.admin()
          .setPermission(
              new Path("/w"), new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
    }
    same(
        List.<Step>of(
            s -> s.alice().getFileStatus(new Path("/.reserved/raw/w/dir")),
            s -> names(s.alice().listStatus(new Path("/.reserved/raw/w"))),
            s -> s.alice().getFileStatus(new Path("/.reserved/raw")).isDirectory(),
            s -> s.alice().mkdirs(new Path("/.reserved/raw/w/a")),
            s -> s.alice().mkdirs(new Path("/w/a")),
            s -> s.alice().delete(new Path("/.reserved/raw/w/a"), true),
            s -> s.admin().mkdirs(new Path("/.reserved/raw/w/b")),
            s -> s.admin().exists(new Path("/w/b")),
            s -> s.admin().rename(new Path("/.reserved/raw/w/b"), new Path("/.reserved/raw/w/c")),
            s ->
                Arrays.asList(
                    s.admin().exists(new Path("/w/b")), s.admin().exists(new Path("/w/c")))));
  }

  /**
   * The id is turned into a path before the operation locks it: a rename in between, and another
   * file put at the old path, must never make a {@code /.reserved/.inodes} stat answer for another
   * inode (the lock phase checks the id and the call translates again).
   */
  @Test
  void anInodeMovingUnderATranslationIsFollowed() throws Exception {
    DistributedFileSystem fs = both.hopsSide().admin();
    fs.mkdirs(new Path("/race"));
    fs.createNewFile(new Path("/race/f"));
    long id = id(both.hopsSide(), "/race/f");
    String byId = "/.reserved/.inodes/" + id;
    java.util.concurrent.atomic.AtomicBoolean stop =
        new java.util.concurrent.atomic.AtomicBoolean();
    java.util.concurrent.atomic.AtomicInteger moves =
        new java.util.concurrent.atomic.AtomicInteger();
    Thread mover =
        new Thread(
            () -> {
              try (DistributedFileSystem m = both.hops().client()) {
                while (!stop.get()) {
                  m.rename(new Path("/race/f"), new Path("/race/g"));
                  m.createNewFile(new Path("/race/f")); // another inode at the old path
                  m.delete(new Path("/race/f"), false);
                  m.rename(new Path("/race/g"), new Path("/race/f"));
                  moves.incrementAndGet();
                }
              } catch (Exception e) {
                throw new RuntimeException(e);
              }
            });
    mover.start();
    List<Long> seen = new ArrayList<>();
    try {
      long end = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(4);
      while (System.nanoTime() < end) {
        seen.add(fs.getClient().getFileInfo(byId).getFileId());
      }
    } finally {
      stop.set(true);
      mover.join();
    }
    assertThat(moves.get()).as("renames meanwhile").isPositive();
    assertThat(seen).isNotEmpty().allMatch(x -> x == id);
  }
}
