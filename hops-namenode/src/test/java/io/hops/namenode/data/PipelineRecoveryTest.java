package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.concat;
import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.net.URI;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A datanode dies while a stock client writes through it: the client rebuilds its pipeline with
 * updateBlockForPipeline and updatePipeline (and, when its policy says so, a replacement from
 * getAdditionalDatanode), and the file ends up with every byte written. Each test stops one of the
 * four datanodes: the one that needs a spare datanode runs first.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class PipelineRecoveryTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 1000);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(4);
  }

  @AfterAll
  static void stop() {
    if (cluster != null) {
      cluster.close();
    }
  }

  private static DistributedFileSystem client(boolean replace) throws IOException {
    Configuration c = cluster.clientConf();
    c.setBoolean("dfs.client.block.write.replace-datanode-on-failure.enable", replace);
    c.set("dfs.client.block.write.replace-datanode-on-failure.policy", "ALWAYS");
    c.setBoolean("dfs.client.block.write.replace-datanode-on-failure.best-effort", false);
    return (DistributedFileSystem) FileSystem.get(URI.create(cluster.uri().toString()), c);
  }

  private static long count(String op) {
    OperationMetrics m = cluster.namenode().namesystem().runner().metrics();
    return m.get(op).count() - m.get(op).failures();
  }

  /** Stops the datanode at position {@code i} of the stream's current pipeline. */
  private static DatanodeInfo kill(FSDataOutputStream out, int i) {
    DatanodeInfo[] pipeline = ((DFSOutputStream) out.getWrappedStream()).getPipeline();
    assertThat(pipeline).hasSize(3);
    DatanodeInfo victim = pipeline[i];
    for (DataNode dn : cluster.datanodes()) {
      if (dn.getXferPort() == victim.getXferPort() && dn.isDatanodeUp()) {
        dn.shutdown();
        return victim;
      }
    }
    throw new AssertionError("no running datanode at " + victim);
  }

  private static void assertLocatedAwayFrom(
      DistributedFileSystem fs, Path p, long length, DatanodeInfo dead, int replicas)
      throws Exception {
    eventually(
        30,
        "every block of " + p + " on " + replicas + "+ datanodes, none of them " + dead,
        () -> {
          BlockLocation[] located = fs.getFileBlockLocations(p, 0, length);
          return Arrays.stream(located)
              .allMatch(
                  l -> {
                    try {
                      return l.getNames().length >= replicas
                          && Arrays.stream(l.getNames())
                              .noneMatch(n -> n.equals(dead.getXferAddr()));
                    } catch (IOException e) {
                      return false;
                    }
                  });
        });
  }

  @Test
  @Order(1)
  void aDeadDatanodeIsReplacedAndTheWriteCompletes() throws Exception {
    Path p = new Path("/pipeline/replaced");
    byte[] before = bytes(300 * 1024, 1);
    byte[] after = bytes(BLOCK, 2);
    long pipelineUpdates = count("updatePipeline");
    long additions = count("getAdditionalDatanode");
    DatanodeInfo dead;
    try (DistributedFileSystem fs = client(true)) {
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
        out.write(before);
        out.hflush();
        dead = kill(out, 1);
        out.write(after);
        out.hflush();
      }
      assertThat(read(fs, p)).isEqualTo(concat(before, after));
      assertThat(fs.getFileStatus(p).getLen()).isEqualTo(before.length + after.length);
      assertThat(count("getAdditionalDatanode")).isGreaterThan(additions);
      assertThat(count("updatePipeline")).isGreaterThan(pipelineUpdates);
      assertLocatedAwayFrom(fs, p, before.length + after.length, dead, 3);
    }
  }

  @Test
  @Order(2)
  void withoutReplacementTheWriteGoesOnWithTheSurvivors() throws Exception {
    Path p = new Path("/pipeline/survivors");
    byte[] before = bytes(200 * 1024, 3);
    byte[] after = bytes(500 * 1024, 4);
    long pipelineUpdates = count("updatePipeline");
    DatanodeInfo dead;
    try (DistributedFileSystem fs = client(false)) {
      try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
        out.write(before);
        out.hflush();
        dead = kill(out, 0);
        out.write(after);
      }
      assertThat(read(fs, p)).isEqualTo(concat(before, after));
      assertThat(count("updatePipeline")).isGreaterThan(pipelineUpdates);
      assertLocatedAwayFrom(fs, p, before.length + after.length, dead, 2);
    }
  }
}
