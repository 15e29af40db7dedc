package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Quotas and content summary of files stored in the database count as the same files on Apache
 * HDFS's datanodes: storage space is length times replication. The same calls run on hops (files
 * written with hops-client into a {@code DB} directory) and on a MiniDFSCluster (stock client,
 * datanodes), and {@code hdfs dfs -count -q} and the content summary are compared after each:
 * create, append, truncate, overwrite, rename in and out, delete, and a create past the space quota
 * (hops declines the database and the pipeline meets the quota as HDFS's does).
 */
class SmallFilesQuotaLikeHdfsTest {
  private static final int MB = 1024 * 1024;
  private static final short REPLICATION = 3;

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static Side hopsSide;
  private static Side hdfsSide;

  /** One side: a client that writes (hops-client on hops), the superuser's stock client. */
  private record Side(FileSystem writer, DistributedFileSystem admin, Configuration conf) {}

  @FunctionalInterface
  private interface Step {
    void run(Side s) throws Exception;
  }

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster();
    hops.startDatanodes(1);
    Configuration hdfsConf = new Configuration(false);
    hdfsConf.setBoolean("dfs.quota.by.storage.type.enabled", false);
    hdfsConf.setInt("dfs.heartbeat.interval", 1);
    hdfs = ApacheHdfs.start("smallfiles-quota", hdfsConf);
    hdfs.startDataNodes(hdfs.getConfiguration(0), 1, true, null, null);
    hdfs.waitActive();
    Configuration hopsConf = clientConf(hops.clientConf());
    hopsConf.set("fs.defaultFS", hops.uri().toString());
    Configuration hopsWriterConf = new Configuration(hopsConf);
    hopsWriterConf.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    hopsSide =
        new Side(
            FileSystem.get(hops.uri(), hopsWriterConf),
            (DistributedFileSystem) FileSystem.get(hops.uri(), hopsConf),
            hopsConf);
    assertThat(hopsSide.writer()).isInstanceOf(HopsDistributedFileSystem.class);
    Configuration hdfsClient = clientConf(ApacheHdfs.clientConf(hdfs, REPLICATION));
    hdfsClient.set("fs.defaultFS", hdfs.getURI().toString());
    DistributedFileSystem hdfsFs =
        (DistributedFileSystem) FileSystem.get(hdfs.getURI(), hdfsClient);
    hdfsSide = new Side(hdfsFs, hdfsFs, hdfsClient);
    hopsSide.admin().mkdirs(new Path("/q"));
    hopsSide.admin().setStoragePolicy(new Path("/q"), "DB");
    hdfsSide.admin().mkdirs(new Path("/q"));
    for (Side s : new Side[] {hopsSide, hdfsSide}) {
      s.admin().mkdirs(new Path("/q/sub"));
      s.admin().mkdirs(new Path("/out"));
      s.admin().setQuota(new Path("/q"), 100, 64L * MB);
      s.admin().setQuota(new Path("/q/sub"), 100, 64L * MB);
    }
  }

  private static Configuration clientConf(Configuration c) {
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", REPLICATION);
    c.setLong("dfs.blocksize", MB);
    // One datanode for three replicas: an append's pipeline has no other datanode to add.
    c.setBoolean("dfs.client.block.write.replace-datanode-on-failure.enable", false);
    return c;
  }

  @AfterAll
  static void stop() throws Exception {
    if (hopsSide != null) {
      hopsSide.writer().close();
      hopsSide.admin().close();
    }
    if (hdfsSide != null) {
      hdfsSide.admin().close();
    }
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  private static void write(Side s, String path, int size) throws Exception {
    try (FSDataOutputStream out = s.writer().create(new Path(path), true)) {
      out.write(SmallFilesTest.bytes(size, size));
    }
  }

  /** What {@code hdfs dfs -count -q} prints for {@code paths}, and their content summaries. */
  private static String counts(Side s, String... paths) throws Exception {
    StringBuilder b = new StringBuilder();
    List<String> args = new ArrayList<>(List.of("-count", "-q"));
    args.addAll(List.of(paths));
    ThreadConsole.Captured shell =
        ThreadConsole.capture(
            () -> ToolRunner.run(new FsShell(s.conf()), args.toArray(new String[0])));
    b.append("rc ").append(shell.exit());
    b.append('\n').append(shell.out());
    for (String p : paths) {
      ContentSummary c = s.admin().getContentSummary(new Path(p));
      b.append(p)
          .append(" len ")
          .append(c.getLength())
          .append(" space ")
          .append(c.getSpaceConsumed())
          .append(" files ")
          .append(c.getFileCount())
          .append('\n');
    }
    return b.toString();
  }

  /** Runs {@code step} on both sides; the outcome and the counts after it must be equal. */
  private static void same(String what, Step step) throws Exception {
    String[] seen = new String[2];
    Side[] sides = {hopsSide, hdfsSide};
    for (int i = 0; i < 2; i++) {
      String outcome;
      try {
        step.run(sides[i]);
        outcome = "ok";
      } catch (Exception e) {
        String m = String.valueOf(e.getMessage());
        outcome = e.getClass().getSimpleName() + ": " + m.split("\n")[0];
      }
      seen[i] = what + " -> " + outcome + "\n" + counts(sides[i], "/q", "/q/sub", "/out");
    }
    assertThat(seen[0]).as("hops vs HDFS after " + what).isEqualTo(seen[1]);
  }

  @Test
  void databaseFilesCountAsTheSameFilesOnDatanodes() throws Exception {
    for (int size : new int[] {0, 1, 1024, 4096, 65536}) {
      same("create " + size, s -> write(s, "/q/f" + size, size));
    }
    assertThat(SmallFilesTableFullTest.where(hops, hopsSide.admin(), new Path("/q/f4096")))
        .as("the hops side keeps them in the database")
        .isEqualTo("db");
    same(
        "append 100 to f1024",
        s -> {
          try (FSDataOutputStream out = s.writer().append(new Path("/q/f1024"))) {
            out.write(new byte[100]);
          }
        });
    same(
        "truncate f4096 to 1000",
        s -> {
          if (!s.admin().truncate(new Path("/q/f4096"), 1000)) {
            while (!s.admin().isFileClosed(new Path("/q/f4096"))) {
              Thread.sleep(50);
            }
          }
        });
    same("overwrite f65536 with 3000 bytes", s -> write(s, "/q/f65536", 3000));
    same("rename f1 into sub", s -> s.admin().rename(new Path("/q/f1"), new Path("/q/sub/f1")));
    same("write in sub", s -> write(s, "/q/sub/g", 2000));
    same("rename sub/g out", s -> s.admin().rename(new Path("/q/sub/g"), new Path("/out/g")));
    same("delete f65536", s -> s.admin().delete(new Path("/q/f65536"), false));
    same("write in sub/d", s -> write(s, "/q/sub/d/x", 5000));
    same("delete sub/d", s -> s.admin().delete(new Path("/q/sub/d"), true));
    same("space quota 10 KB", s -> s.admin().setQuota(new Path("/q"), 100, 10 * 1024));
    same("create past the space quota", s -> write(s, "/q/big", 4096));
  }
}
