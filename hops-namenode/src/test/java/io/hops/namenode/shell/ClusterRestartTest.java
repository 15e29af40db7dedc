package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Issue 55, as a user ran it: {@code bin/hops cluster} (a namenode and three datanodes in one
 * process) gets SIGKILL while a stock client writes, and is started again over the same
 * directories. The restarted namenode is in safe mode until the datanodes are back and their blocks
 * counted, and refuses writes retriably meanwhile: the writer fails no write but the one its dead
 * datanodes were receiving at the kill, gets no "could only be written to 0 of the 1 minReplication
 * nodes", and leaves no file open but that one.
 */
class ClusterRestartTest {
  private static final int BLOCK = 256 * 1024;

  private final List<Process> processes = new ArrayList<>();
  private Path work;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : processes) {
      p.destroyForcibly();
    }
    for (Process p : processes) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Timeout(value = 240, unit = TimeUnit.SECONDS)
  void aClusterKilledAndStartedAgainUnderAWriterFailsNoWriteItCouldRetry() throws Exception {
    work = Files.createDirectories(Path.of("target/cluster-restart/" + System.nanoTime()));
    Path conf = Files.createDirectories(work.resolve("conf"));
    int rpcPort = Processes.freePort();
    Files.writeString(
        conf.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPort),
        StandardCharsets.UTF_8);
    Files.writeString(
        conf.resolve("hdfs-site.xml"),
        Processes.site(
            "hops.metadata.embedded.dir",
            work.resolve("metadata").toAbsolutePath().toString(),
            "hops.namenode.rpc.port",
            Integer.toString(rpcPort),
            "hops.namenode.http.port",
            Integer.toString(Processes.freePort()),
            "dfs.namenode.fs-limits.min-block-size",
            "1024",
            "dfs.heartbeat.interval",
            "1",
            "dfs.namenode.safemode.extension",
            "3000"),
        StandardCharsets.UTF_8);
    startCluster(conf, 0);

    Configuration client = haClientOfOne(rpcPort);
    try (DistributedFileSystem fs =
        (DistributedFileSystem) FileSystem.get(URI.create("hdfs://hops"), client)) {
      Writer writer = new Writer(fs, "/r1", BLOCK);
      while (writer.acknowledged() < 10) {
        Thread.sleep(100);
      }
      processes.get(0).destroyForcibly();
      assertThat(processes.get(0).waitFor(30, TimeUnit.SECONDS)).isTrue();
      int acknowledgedAtKill = writer.acknowledged();
      long restarted = System.nanoTime();
      startCluster(conf, 1);
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (fs.setSafeMode(SafeModeAction.SAFEMODE_GET)) {
        assertThat(System.nanoTime()).as("safe mode left").isLessThan(deadline);
        Thread.sleep(200);
      }
      long safeModeMillis = (System.nanoTime() - restarted) / 1_000_000;
      deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
      while (writer.acknowledged() < acknowledgedAtKill + 10) {
        assertThat(System.nanoTime()).as("the writer goes on").isLessThan(deadline);
        Thread.sleep(100);
      }
      writer.close();
      // The datanodes died with the namenode: the file they were receiving at the kill may fail,
      // as it would in HDFS. Nothing else may.
      List<Writer.Failure> failures = writer.failures();
      assertThat(failures).as("writes the stock client gave up on").hasSizeLessThanOrEqualTo(1);
      for (Writer.Failure f : failures) {
        assertThat(f.error())
            .as("the write under way at the kill")
            .hasMessageNotContaining("could only be written to");
      }
      writer.assertAcknowledgedFilesRead();
      List<String> open = Writer.openFiles(fs);
      assertThat(open)
          .as("files left open")
          .isSubsetOf(failures.stream().map(Writer.Failure::path).toList());
      System.out.printf(
          "bin/hops cluster killed and restarted under a writer: %d files written, %d failed at"
              + " the kill; safe mode left %d ms after the restart began%n",
          writer.acknowledged(), failures.size(), safeModeMillis);
    }
  }

  /** {@code bin/hops cluster} with this test's configuration, until it says it runs. */
  private void startCluster(Path conf, int generation) throws Exception {
    List<String> cmd = Processes.java(false);
    cmd.addAll(
        List.of(
            "cluster",
            "--conf",
            conf.toString(),
            "--data-dir",
            work.resolve("data").toString(),
            "--datanodes",
            "3"));
    Path out = work.resolve("cluster-" + generation + ".out");
    Path err = work.resolve("cluster-" + generation + ".err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    processes.add(0, p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains("hops cluster running")) {
      assertThat(p.isAlive()).as("the cluster died:%n%s", Processes.tail(err)).isTrue();
      assertThat(System.nanoTime())
          .as("the cluster did not start:%n%s", Processes.tail(err))
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /**
   * A stock client of the namenode as an HA nameservice of one: it retries what HDFS's client
   * retries against an HA namenode (a refused connection, a retriable error such as startup safe
   * mode).
   */
  private static Configuration haClientOfOne(int rpcPort) {
    Configuration c = new Configuration(false);
    c.set("dfs.nameservices", "hops");
    c.set("dfs.ha.namenodes.hops", "nn0");
    c.set("dfs.namenode.rpc-address.hops.nn0", "127.0.0.1:" + rpcPort);
    c.set(
        "dfs.client.failover.proxy.provider.hops",
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 1);
    c.setInt("ipc.client.connect.retry.interval", 100);
    c.setInt("dfs.client.failover.sleep.base.millis", 100);
    c.setInt("dfs.client.failover.sleep.max.millis", 1000);
    c.setInt("dfs.client.failover.max.attempts", 200);
    c.setInt("dfs.client.retry.max.attempts", 200);
    return c;
  }
}
