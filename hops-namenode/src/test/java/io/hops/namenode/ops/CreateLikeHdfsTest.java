package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import java.io.IOException;
import java.util.EnumSet;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The same create, complete, lease and open calls against hops and against Apache HDFS (a
 * MiniDFSCluster without datanodes) in the same run: the outcome must be the same. Each call works
 * in its own directory; two clients per side stand for two writers. Exceptions compare by class and
 * message, with client names and inode ids blanked.
 */
class CreateLikeHdfsTest {
  private static final long MB = 1024 * 1024;

  @FunctionalInterface
  private interface Call {
    Object run(Side s, String dir) throws Exception;
  }

  /**
   * Two writers a side: the superuser's client and {@link Side#secondAdmin}, each a client name.
   */
  @RegisterExtension
  static final SideBySideExtension both = SideBySideExtension.of(() -> SideBySide.start("create"));

  private static ClientProtocol nn(Side s) {
    return s.admin().getClient().getNamenode();
  }

  private static String clientA(Side s) {
    return s.admin().getClient().getClientName();
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /** Opens {@code path} for writing through the raw protocol, as client a; leaves it open. */
  private static HdfsFileStatus open(Side s, String path, EnumSet<CreateFlag> flags)
      throws IOException {
    return nn(s)
        .create(
            path,
            FsPermission.getFileDefault(),
            clientA(s),
            new EnumSetWritable<>(flags),
            true,
            (short) 1,
            MB,
            CryptoProtocolVersion.supported(),
            null,
            null);
  }

  /** A directory owned by the superuser with this mode; returns its path. */
  private static String dir(Side s, String path, int mode) throws IOException {
    s.admin().mkdirs(p(path));
    s.admin().setPermission(p(path), new FsPermission((short) mode));
    return path;
  }

  /** A closed empty file owned by the superuser with this mode; returns its path. */
  private static String file(Side s, String path, int mode) throws IOException {
    s.admin().create(p(path)).close();
    s.admin().setPermission(p(path), new FsPermission((short) mode));
    return path;
  }

  private static String stat(Side s, String path) throws IOException {
    FileStatus st = s.admin().getFileStatus(p(path));
    return (st.isFile() ? "file" : "dir")
        + " len="
        + st.getLen()
        + " repl="
        + st.getReplication()
        + " bs="
        + st.getBlockSize()
        + " "
        + st.getPermission()
        + " closed="
        + (!st.isFile() || s.admin().isFileClosed(p(path)));
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        call(
            "touchz then stat",
            (s, d) -> {
              s.admin().create(p(d + "/f"), false, 4096, (short) 2, 2 * MB).close();
              return stat(s, d + "/f");
            }),
        call(
            "create without overwrite over a closed file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              s.admin().create(p(d + "/f"), false).close();
              return "created";
            }),
        call(
            "create with overwrite over a closed file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              s.admin().create(p(d + "/f"), true, 4096, (short) 3, 4 * MB).close();
              return stat(s, d + "/f") + " children=" + s.admin().listStatus(p(d)).length;
            }),
        call(
            "createNonRecursive in a missing directory",
            (s, d) ->
                s.admin().createNonRecursive(p(d + "/x/f"), false, 4096, (short) 1, MB, null)),
        call(
            "create makes missing parents",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              s.admin().setPermission(p(d), new FsPermission((short) 0555));
              s.admin().create(p(d + "/x/y/f")).close();
              return stat(s, d + "/x") + " / " + stat(s, d + "/x/y/f");
            }),
        call(
            "create over a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d + "/sub"));
              return s.admin().create(p(d + "/sub"), true);
            }),
        call(
            "create below a file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              return s.admin().create(p(d + "/f/g"));
            }),
        call(
            "create with replication above the maximum",
            (s, d) -> s.admin().create(p(d + "/f"), true, 4096, (short) 600, MB)),
        call(
            "create with replication 0",
            (s, d) -> s.admin().create(p(d + "/f"), true, 4096, (short) 0, MB)),
        call(
            "create with a block size below the minimum",
            (s, d) -> s.admin().create(p(d + "/f"), true, 4096, (short) 1, 1024)),
        call(
            "create without CREATE of a missing file",
            (s, d) -> open(s, d + "/f", EnumSet.of(CreateFlag.OVERWRITE))),
        call(
            "create with CREATE and APPEND of a missing file",
            (s, d) -> {
              HdfsFileStatus st =
                  open(s, d + "/f", EnumSet.of(CreateFlag.CREATE, CreateFlag.APPEND));
              return nn(s).complete(d + "/f", clientA(s), null, st.getFileId());
            }),
        call(
            "second client creates a file being written",
            (s, d) -> {
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return s.secondAdmin().create(p(d + "/f"), false);
            }),
        call(
            "the writer creates its own open file again",
            (s, d) -> {
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
            }),
        call(
            "second client overwrites a file being written",
            (s, d) -> {
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              s.secondAdmin().create(p(d + "/f"), true).close();
              return stat(s, d + "/f");
            }),
        call(
            "complete by another client",
            (s, d) -> {
              HdfsFileStatus st = open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return nn(s).complete(d + "/f", "DFSClient_intruder", null, st.getFileId());
            }),
        call(
            "complete twice",
            (s, d) -> {
              HdfsFileStatus st = open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return nn(s).complete(d + "/f", clientA(s), null, st.getFileId())
                  + " "
                  + nn(s).complete(d + "/f", clientA(s), null, st.getFileId());
            }),
        call(
            "complete of a missing file",
            (s, d) -> nn(s).complete(d + "/none", clientA(s), null, 0)),
        call(
            "complete of a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              return nn(s).complete(d, clientA(s), null, 0);
            }),
        call(
            "recoverLease of a file being written",
            (s, d) -> {
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return s.secondAdmin().recoverLease(p(d + "/f")) + " " + stat(s, d + "/f");
            }),
        call(
            "recoverLease of a closed file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              return s.secondAdmin().recoverLease(p(d + "/f"));
            }),
        call(
            "recoverLease of a missing file",
            (s, d) -> s.secondAdmin().recoverLease(p(d + "/none"))),
        call(
            "recoverLease of a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              return s.secondAdmin().recoverLease(p(d));
            }),
        call(
            "recoverLease below a file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              return s.secondAdmin().recoverLease(p(d + "/f/g"));
            }),
        call(
            "open and read an empty file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              try (FSDataInputStream in = s.secondAdmin().open(p(d + "/f"))) {
                return in.read();
              }
            }),
        call(
            "block locations of a file being written",
            (s, d) -> {
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              LocatedBlocks lb = nn(s).getBlockLocations(d + "/f", 0, 10);
              return lb.getFileLength()
                  + " uc="
                  + lb.isUnderConstruction()
                  + " blocks="
                  + lb.locatedBlockCount()
                  + " last="
                  + lb.getLastLocatedBlock()
                  + " lastComplete="
                  + lb.isLastBlockComplete();
            }),
        call(
            "open of a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              return s.admin().open(p(d));
            }),
        call("open of a missing file", (s, d) -> s.admin().open(p(d + "/none"))),
        call(
            "open below a file",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              return s.admin().open(p(d + "/f/g"));
            }),
        call(
            "block locations with a negative offset",
            (s, d) -> {
              s.admin().create(p(d + "/f")).close();
              return nn(s).getBlockLocations(d + "/f", -1, 10);
            }),
        call("isFileClosed of a missing file", (s, d) -> s.admin().isFileClosed(p(d + "/none"))),
        call(
            "isFileClosed of a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              return s.admin().isFileClosed(p(d));
            }),
        call(
            "preferred block size of a directory",
            (s, d) -> {
              s.admin().mkdirs(p(d));
              return nn(s).getPreferredBlockSize(d);
            }),
        call(
            "create without write permission on the parent",
            (s, d) -> s.alice().create(p(dir(s, d, 0755) + "/f"))),
        call(
            "create with parents below a directory without write permission",
            (s, d) -> s.alice().create(p(dir(s, d, 0755) + "/x/y/f"))),
        call(
            "create through a directory without traverse permission",
            (s, d) -> s.alice().create(p(dir(s, d, 0700) + "/f"))),
        call(
            "overwrite of a file without write permission on it",
            (s, d) -> {
              dir(s, d, 0777);
              return s.alice().create(p(file(s, d + "/f", 0644)), true);
            }),
        call(
            "create without overwrite over a file without write permission on it",
            (s, d) -> {
              dir(s, d, 0777);
              return s.alice().create(p(file(s, d + "/f", 0644)), false);
            }),
        call(
            "create by alice in her writable directory",
            (s, d) -> {
              dir(s, d, 0777);
              s.alice().create(p(d + "/f")).close();
              FileStatus st = s.admin().getFileStatus(p(d + "/f"));
              return st.getOwner() + ":" + st.getGroup() + " " + st.getPermission();
            }),
        call(
            "recoverLease without write permission on the file",
            (s, d) -> {
              dir(s, d, 0777);
              open(s, d + "/f", EnumSet.of(CreateFlag.CREATE));
              return s.alice().recoverLease(p(d + "/f"));
            }),
        call(
            "open without read permission",
            (s, d) -> {
              dir(s, d, 0777);
              return s.alice().open(p(file(s, d + "/f", 0600)));
            }),
        call(
            "isFileClosed through a directory without traverse permission",
            (s, d) -> {
              dir(s, d, 0777);
              file(s, d + "/f", 0600);
              s.admin().setPermission(p(d), new FsPermission((short) 0700));
              return s.alice().isFileClosed(p(d + "/f"));
            }),
        call(
            "the writer overwrites its own open file, then closes both streams",
            (s, d) -> {
              FSDataOutputStream first = s.admin().create(p(d + "/f"));
              s.admin().create(p(d + "/f"), true).close();
              first.close();
              return stat(s, d + "/f");
            }),
        call(
            "stream closed after its file was recovered by another client",
            (s, d) -> {
              FSDataOutputStream out = s.admin().create(p(d + "/f"));
              s.secondAdmin().recoverLease(p(d + "/f"));
              out.close();
              return stat(s, d + "/f");
            }));
  }

  private static String outcome(Call call, Side s, String dir) {
    try {
      Object r = call.run(s, dir);
      if (r instanceof FSDataOutputStream out) {
        out.close();
        return "ok: a stream";
      }
      if (r instanceof FSDataInputStream in) {
        in.close();
        return "ok: a stream";
      }
      if (r instanceof HdfsFileStatus) {
        return "ok: a status";
      }
      return "ok: " + r;
    } catch (RemoteException e) {
      return e.getClassName() + ": " + normalize(e.getMessage());
    } catch (Exception e) {
      return e.getClass().getName() + ": " + normalize(e.getMessage());
    }
  }

  /** Blanks what differs between runs: client names, inode ids, hosts; keeps the first line. */
  private static String normalize(String message) {
    if (message == null) {
      return null;
    }
    String first = message.split("\n", 2)[0];
    return first
        .replaceAll("DFSClient_[A-Za-z0-9_-]+", "DFSClient_*")
        .replaceAll("inode \\d+", "inode *")
        .replaceAll("pending creates: \\d+", "pending creates: *");
  }

  private static final AtomicInteger DIRS = new AtomicInteger();

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Call call) {
    String dir = "/c" + DIRS.incrementAndGet();
    String expected = outcome(call, both.hdfsSide(), dir);
    String actual = outcome(call, both.hopsSide(), dir);
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
