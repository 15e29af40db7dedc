package io.hops.namenode.quota;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.ThreadConsole;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Quotas side by side: each scenario runs the same calls against hops and against Apache HDFS (a
 * MiniDFSCluster with one datanode) in the same run, and records every call's outcome (its result,
 * or the exception's class and first message line) and the quota usage after it; the transcripts
 * must be equal. Blocks are 1 MB and files have one replica unless a scenario says otherwise.
 */
class QuotaLikeHdfsTest {
  private static final int MB = 1024 * 1024;

  @FunctionalInterface
  private interface Call {
    Object run(Side s) throws Exception;
  }

  /**
   * One datanode a side; files of one replica and blocks of 1 MB. hops has one storage type: HDFS
   * refuses quotas by storage type the same way when they are disabled.
   */
  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
          () -> {
            Configuration hdfsConf = new Configuration(false);
            hdfsConf.setBoolean("dfs.quota.by.storage.type.enabled", false);
            hdfsConf.setInt("dfs.heartbeat.interval", 1);
            return SideBySide.named("quota")
                .hdfsConf(hdfsConf)
                .datanodes(1)
                .oneNamenode()
                .client(
                    c -> {
                      c.setInt("dfs.replication", 1);
                      c.setLong("dfs.blocksize", MB);
                    })
                .start();
          });

  // ---- helpers ----

  private static Path p(String path) {
    return new Path(path);
  }

  private static String usage(Side s, String path) throws Exception {
    QuotaUsage u = s.admin().getQuotaUsage(p(path));
    return "ns "
        + u.getFileAndDirectoryCount()
        + "/"
        + u.getQuota()
        + " ds "
        + u.getSpaceConsumed()
        + "/"
        + u.getSpaceQuota();
  }

  private static String summary(Side s, String path) throws Exception {
    ContentSummary c = s.admin().getContentSummary(p(path));
    return "files "
        + c.getFileCount()
        + " dirs "
        + c.getDirectoryCount()
        + " len "
        + c.getLength()
        + " quota "
        + c.getQuota()
        + " space "
        + c.getSpaceConsumed()
        + "/"
        + c.getSpaceQuota();
  }

  private static void write(Side s, String path, int bytes) throws Exception {
    try (FSDataOutputStream out = s.admin().create(p(path))) {
      out.write(new byte[bytes]);
    }
  }

  private static void append(Side s, String path, int bytes) throws Exception {
    try (FSDataOutputStream out = s.admin().append(p(path))) {
      out.write(new byte[bytes]);
    }
  }

  private static void waitClosed(Side s, String path) throws Exception {
    long deadline = System.currentTimeMillis() + 60_000;
    while (!s.admin().isFileClosed(p(path))) {
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(path + " stayed open");
      }
      Thread.sleep(100);
    }
  }

  private static String outcome(Call call, Side s) {
    try {
      return "returned " + call.run(s);
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e);
    }
  }

  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  /** Runs the steps on one side, recording each outcome and the usage of {@code dir} after it. */
  private static List<String> transcript(Side s, String dir, List<Call> steps) {
    List<String> out = new ArrayList<>();
    for (Call c : steps) {
      out.add(outcome(c, s));
      out.add("  usage " + outcome(x -> usage(x, dir), s));
    }
    out.add("summary " + outcome(x -> summary(x, dir), s));
    return out;
  }

  private static void sameOnBoth(String dir, Call... steps) {
    List<String> expected = transcript(both.hdfsSide(), dir, List.of(steps));
    List<String> actual = transcript(both.hopsSide(), dir, List.of(steps));
    assertThat(actual).isEqualTo(expected);
  }

  private static Call quota(String path, long ns, long ds) {
    return s -> {
      s.admin().setQuota(p(path), ns, ds);
      return "set";
    };
  }

  private static final long KEEP = HdfsConstants.QUOTA_DONT_SET;
  private static final long CLEAR = HdfsConstants.QUOTA_RESET;

  // ---- setQuota and its refusals ----

  @Test
  void setQuotaIsRefusedLikeHdfs() {
    sameOnBoth(
        "/r",
        s -> s.admin().mkdirs(p("/r/d")),
        s -> s.admin().createNewFile(p("/r/f")),
        s -> {
          s.alice().setQuota(p("/r/d"), 10, KEEP);
          return "set";
        },
        quota("/r/missing", 10, KEEP),
        quota("/r/f", 10, KEEP),
        s -> {
          s.admin().setQuotaByStorageType(p("/r/d"), StorageType.SSD, 100);
          return "set";
        },
        quota("/r", 10, KEEP),
        quota("/r", KEEP, 5 * MB),
        quota("/r", 1, KEEP),
        quota("/r", CLEAR, KEEP),
        quota("/r", KEEP, CLEAR));
  }

  // ---- namespace quota ----

  @Test
  void namespaceQuotaRefusesCreateAndMkdirsLikeHdfs() {
    sameOnBoth(
        "/n",
        s -> s.admin().mkdirs(p("/n")),
        quota("/n", 4, KEEP),
        s -> s.admin().createNewFile(p("/n/f1")),
        s -> s.admin().mkdirs(p("/n/d1")),
        s -> s.admin().createNewFile(p("/n/d1/f2")),
        s -> s.admin().createNewFile(p("/n/f3")),
        s -> s.admin().mkdirs(p("/n/d2")),
        s -> s.admin().delete(p("/n/d1"), true),
        s -> s.admin().mkdirs(p("/n/a/b/c")),
        s -> s.admin().exists(p("/n/a")) + " " + s.admin().exists(p("/n/a/b")),
        s -> s.admin().delete(p("/n/a"), true),
        s -> {
          s.admin().create(p("/n/x/y/z")).close();
          return "created";
        },
        s -> s.admin().exists(p("/n/x")),
        s -> {
          s.admin().create(p("/n/f1"), true).close();
          return "overwritten";
        });
  }

  @Test
  void renameIntoANamespaceQuotaLikeHdfs() {
    sameOnBoth(
        "/m",
        s -> s.admin().mkdirs(p("/m/q")),
        s -> s.admin().mkdirs(p("/m/src/tree/deeper")),
        s -> s.admin().createNewFile(p("/m/src/tree/f")),
        s -> s.admin().createNewFile(p("/m/src/g")),
        quota("/m/q", 3, KEEP),
        s -> s.admin().rename(p("/m/src/tree"), p("/m/q")),
        s -> {
          s.admin().rename(p("/m/src/tree"), p("/m/q/tree"), Options.Rename.NONE);
          return "renamed";
        },
        s -> s.admin().rename(p("/m/src/g"), p("/m/q")),
        s -> usage(s, "/m/q"),
        s -> s.admin().rename(p("/m/q/g"), p("/m/q/g2")),
        s -> s.admin().rename(p("/m/q/g2"), p("/m/src/g")),
        s -> usage(s, "/m/q"),
        quota("/m", 7, KEEP),
        s -> s.admin().rename(p("/m/src/tree"), p("/m/q")),
        s -> usage(s, "/m/q"),
        s -> s.admin().rename(p("/m/q/tree"), p("/m/src/tree")),
        s -> usage(s, "/m/q"));
  }

  // ---- storage space quota ----

  @Test
  void spaceQuotaRefusesTheBlockThatDoesNotFitLikeHdfs() {
    sameOnBoth(
        "/s",
        s -> s.admin().mkdirs(p("/s")),
        quota("/s", KEEP, 2 * MB + MB / 2),
        s -> {
          write(s, "/s/a", MB + 100);
          return "written";
        },
        s -> {
          write(s, "/s/b", MB + 100);
          return "written";
        },
        s -> s.admin().exists(p("/s/b")) + " " + s.admin().getFileStatus(p("/s/b")).getLen(),
        s -> s.admin().delete(p("/s/b"), false),
        s -> {
          append(s, "/s/a", 10);
          return "appended";
        },
        s -> s.admin().getFileStatus(p("/s/a")).getLen(),
        s -> s.admin().setReplication(p("/s/a"), (short) 3),
        s -> s.admin().setReplication(p("/s/a"), (short) 2),
        s -> s.admin().truncate(p("/s/a"), MB),
        s -> s.admin().getFileStatus(p("/s/a")).getLen(),
        s -> s.admin().delete(p("/s/a"), false));
  }

  @Test
  void appendToAPartialBlockNeedsAFullBlockLikeHdfs() {
    sameOnBoth(
        "/ap",
        s -> s.admin().mkdirs(p("/ap")),
        s -> {
          write(s, "/ap/f", 1000);
          return "written";
        },
        quota("/ap", KEEP, MB / 2),
        s -> {
          append(s, "/ap/f", 10);
          return "appended";
        },
        quota("/ap", KEEP, 2 * MB),
        s -> {
          append(s, "/ap/f", 10);
          return "appended";
        },
        s -> s.admin().getFileStatus(p("/ap/f")).getLen());
  }

  @Test
  void truncateInsideABlockLikeHdfs() throws Exception {
    sameOnBoth(
        "/tr",
        s -> s.admin().mkdirs(p("/tr")),
        quota("/tr", 10, 4 * MB),
        s -> {
          write(s, "/tr/f", MB + MB / 2);
          return "written";
        },
        s -> {
          boolean done = s.admin().truncate(p("/tr/f"), MB + 100);
          waitClosed(s, "/tr/f");
          return done;
        },
        s -> s.admin().getFileStatus(p("/tr/f")).getLen(),
        s -> s.admin().truncate(p("/tr/f"), MB));
  }

  @Test
  void concatKeepsTheTargetsReplicationLikeHdfs() {
    sameOnBoth(
        "/c",
        s -> s.admin().mkdirs(p("/c")),
        s -> {
          write(s, "/c/t", MB);
          write(s, "/c/s1", MB);
          write(s, "/c/s2", 1000);
          return "written";
        },
        s -> s.admin().setReplication(p("/c/t"), (short) 3),
        quota("/c", 10, 6 * MB),
        s -> {
          s.admin().concat(p("/c/t"), new Path[] {p("/c/s1"), p("/c/s2")});
          return "concatenated";
        },
        quota("/c", 10, 8 * MB),
        s -> {
          s.admin().concat(p("/c/t"), new Path[] {p("/c/s1"), p("/c/s2")});
          return "concatenated";
        },
        s -> s.admin().getFileStatus(p("/c/t")).getLen());
  }

  // ---- the shell ----

  private static String shell(Side s, org.apache.hadoop.util.Tool tool, String... args)
      throws Exception {
    ThreadConsole.Captured c =
        ThreadConsole.captureMerged(() -> ToolRunner.run(new Configuration(s.conf()), tool, args));
    int rc = c.exit();
    // The client logs to the same streams: its lines are not the shell's.
    String out =
        c.out()
            .lines()
            .filter(l -> !l.matches("^\\d\\d:\\d\\d:\\d\\d[.,]\\d+ .*") && !l.contains(" INFO "))
            .map(l -> l + "\n")
            .collect(java.util.stream.Collectors.joining());
    // The shell names the file system in some messages: hops and HDFS differ there only.
    out = out.replace(s.admin().getUri().toString(), "hdfs://NN");
    return "rc " + rc + "\n" + out;
  }

  @Test
  void dfsadminAndCountShowTheSameQuotas() throws Exception {
    sameOnBoth(
        "/sh",
        s -> s.admin().mkdirs(p("/sh/d/e")),
        s -> {
          write(s, "/sh/d/f", 3000);
          return "written";
        },
        s -> shell(s, new DFSAdmin(), "-setQuota", "10", "/sh", "/sh/d"),
        s -> shell(s, new DFSAdmin(), "-setSpaceQuota", "1g", "/sh/d"),
        s -> shell(s, new FsShell(), "-count", "-q", "-h", "/sh", "/sh/d", "/sh/d/f"),
        s -> shell(s, new FsShell(), "-count", "-q", "/sh/d"),
        s -> shell(s, new FsShell(), "-count", "-q", "-u", "/sh/d"),
        s -> shell(s, new DFSAdmin(), "-clrSpaceQuota", "/sh/d"),
        s -> shell(s, new DFSAdmin(), "-clrQuota", "/sh"),
        s -> shell(s, new FsShell(), "-count", "-q", "-h", "/sh", "/sh/d"),
        s -> shell(s, new DFSAdmin(), "-setQuota", "1", "/sh/d/f"),
        s -> shell(s, new DFSAdmin(), "-setQuota", "0", "/sh/d"));
  }
}
