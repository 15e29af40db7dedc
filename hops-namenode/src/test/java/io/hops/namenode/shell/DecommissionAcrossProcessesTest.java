package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.tools.StockTool;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Decommission as an operator lives it (issue 57's test): three {@code bin/hops namenode} processes
 * over MariaDB and five datanode processes; a client reads its files the whole time. The exclude
 * file names one datanode and {@code dfsadmin -refreshNodes} goes to a namenode that does not lead;
 * while the node is decommissioning the leader is killed with SIGKILL. The node still ends
 * DECOMMISSIONED, every block keeps three replicas on other nodes, no read fails, the killed
 * namenode started again sees the same state, and the namespace check is clean.
 */
class DecommissionAcrossProcessesTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int FILES = 12;

  @Test
  @Timeout(value = 600, unit = TimeUnit.SECONDS)
  void aDecommissionGoesOnThroughTheLeadersDeathWithNoFailedRead() throws Exception {
    Map<String, String> db = HopsTestCluster.emptyMariadbOrNull();
    assumeTrue(db != null, "HOPS_TEST_MYSQL_URL is not set");
    Path work = Path.of("target/decommission-processes/" + System.nanoTime()).toAbsolutePath();
    Files.createDirectories(work);
    Path exclude = work.resolve("exclude");
    Files.writeString(exclude, "");
    try (ProcessCluster cluster =
        new ProcessCluster(
            work,
            db,
            3,
            Map.of(
                "dfs.hosts.exclude",
                exclude.toString(),
                "dfs.namenode.decommission.interval",
                "1",
                "dfs.namenode.redundancy.interval.seconds",
                "1",
                "dfs.blocksize",
                Integer.toString(BLOCK)))) {
      cluster.startNamenodes();
      cluster.startDatanodes(5);
      Configuration client = cluster.haClient();
      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.get(FileSystem.getDefaultUri(client), client)) {
        cluster.awaitLiveDatanodes(fs);
        byte[][] data = new byte[FILES][];
        for (int f = 0; f < FILES; f++) {
          data[f] = new byte[2 * BLOCK + 1000];
          new Random(f).nextBytes(data[f]);
          try (FSDataOutputStream out = fs.create(path(f), true, 4096, (short) 3, BLOCK)) {
            out.write(data[f]);
          }
        }
        for (int f = 0; f < FILES; f++) {
          HopsTestCluster.awaitReplicas(fs, path(f), 3);
        }
        Reader reader = new Reader(client, data);
        reader.start();

        DatanodeInfo victim = fs.getDataNodeStats(DatanodeReportType.LIVE)[0];
        String uuid = victim.getDatanodeUuid();
        Files.writeString(exclude, victim.getXferAddr() + "\n", StandardCharsets.UTF_8);
        int leader = cluster.leaderIndex();
        int other = (leader + 1) % cluster.namenodes();
        StockTool.Output o =
            StockTool.run(out -> new DFSAdmin(cluster.clientOf(other)), "-refreshNodes");
        assertThat(o.rc()).as(o.err()).isZero();
        awaitState(fs, uuid, AdminStates.DECOMMISSION_INPROGRESS, 30);

        cluster.kill(leader); // mid-way: only the database knows where the decommission is
        awaitState(fs, uuid, AdminStates.DECOMMISSIONED, 240);
        assertThat(cluster.leaderIndex()).isNotEqualTo(leader);
        for (int f = 0; f < FILES; f++) {
          for (BlockLocation b : fs.getFileBlockLocations(path(f), 0, Long.MAX_VALUE)) {
            assertThat(
                    Arrays.stream(b.getNames())
                        .filter(n -> !n.equals(victim.getXferAddr()))
                        .count())
                .as("live replicas of a block of %s besides the decommissioned node", path(f))
                .isGreaterThanOrEqualTo(3);
          }
        }
        reader.stop();
        assertThat(reader.failure.get()).as("a read failed").isNull();
        assertThat(reader.reads.get()).isPositive();

        cluster.startNamenode(leader);
        try (DistributedFileSystem again =
            (DistributedFileSystem) FileSystem.get(cluster.clientOf(leader))) {
          assertThat(state(again, uuid)).isEqualTo(AdminStates.DECOMMISSIONED);
          for (int f = 0; f < FILES; f++) {
            assertThat(read(again, path(f), data[f].length)).isEqualTo(data[f]);
          }
        }
      }
    }
    try (Storage s = Storages.open(DalConfig.of(db))) {
      assertThat(NamespaceChecker.violations(s)).isEmpty();
    }
  }

  private static org.apache.hadoop.fs.Path path(int f) {
    return new org.apache.hadoop.fs.Path("/decommission/f" + f);
  }

  private static byte[] read(FileSystem fs, org.apache.hadoop.fs.Path p, int length)
      throws Exception {
    byte[] got = new byte[length];
    try (FSDataInputStream in = fs.open(p)) {
      in.readFully(got);
    }
    return got;
  }

  private static AdminStates state(DistributedFileSystem fs, String uuid) throws Exception {
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getAdminState();
      }
    }
    return null;
  }

  private static void awaitState(
      DistributedFileSystem fs, String uuid, AdminStates wanted, int seconds) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    AdminStates now = state(fs, uuid);
    while (now != wanted) {
      assertThat(System.nanoTime())
          .as("the node is %s, not %s, after %d s", now, wanted, seconds)
          .isLessThan(deadline);
      Thread.sleep(250);
      now = state(fs, uuid);
    }
  }

  /** Reads every file again and again through its own HA client, checking the bytes. */
  private static final class Reader {
    final AtomicReference<Throwable> failure = new AtomicReference<>();
    final AtomicInteger reads = new AtomicInteger();
    private final AtomicBoolean stop = new AtomicBoolean();
    private final Thread thread;

    Reader(Configuration conf, byte[][] data) {
      thread =
          new Thread(
              () -> {
                try (FileSystem fs = FileSystem.get(FileSystem.getDefaultUri(conf), conf)) {
                  while (!stop.get()) {
                    for (int f = 0; f < data.length && !stop.get(); f++) {
                      assertThat(read(fs, path(f), data[f].length))
                          .as("bytes of %s", path(f))
                          .isEqualTo(data[f]);
                      reads.incrementAndGet();
                    }
                  }
                } catch (Throwable e) {
                  failure.set(e);
                }
              },
              "reader");
    }

    void start() {
      thread.start();
    }

    void stop() throws InterruptedException {
      stop.set(true);
      thread.join(60_000);
    }
  }
}
