package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Apache HDFS's own block report measurement ({@code NNThroughputBenchmark -op blockReport}), run
 * in this JVM beside hops's ({@code io.hops.namenode.bench.BlockReportThroughput}): its namenode in
 * process, one datanode whose {@code blocks} replicas the namenode knows from incremental reports,
 * then {@code reports} full reports of them. In Hadoop's package only to read the benchmark's
 * average, which it otherwise only logs.
 */
public final class HdfsBlockReports {
  private HdfsBlockReports() {}

  /** The average time of a repeated full report of {@code blocks} replicas, in ms. */
  public static long averageMillis(int blocks, int reports) throws Exception {
    File dir = Files.createTempDirectory("hdfs-nnbench-").toFile();
    try {
      Configuration conf = new HdfsConfiguration();
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 16);
      conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, new File(dir, "name").getAbsolutePath());
      conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
      FileSystem.setDefaultUri(conf, "hdfs://127.0.0.1:0");
      DefaultMetricsSystem.setMiniClusterMode(true); // the format registered metrics already
      DFSTestUtil.formatNameNode(conf);
      NNThroughputBenchmark bench = new NNThroughputBenchmark(conf);
      // What the benchmark's run() does before its operations, here to keep the stats.
      NameNode nn = NameNode.createNameNode(new String[0], conf);
      NNThroughputBenchmark.nameNode = nn;
      NNThroughputBenchmark.nameNodeProto = nn.getRpcServer();
      NNThroughputBenchmark.clientProto = nn.getRpcServer();
      NNThroughputBenchmark.dataNodeProto = nn.getRpcServer();
      NNThroughputBenchmark.refreshUserMappingsProto = nn.getRpcServer();
      NNThroughputBenchmark.bpid = nn.getNamesystem().getBlockPoolId();
      try {
        List<String> args =
            new ArrayList<>(
                List.of(
                    "-op",
                    "blockReport",
                    "-datanodes",
                    "1",
                    "-reports",
                    Integer.toString(reports),
                    "-blocksPerReport",
                    Integer.toString(blocks),
                    "-blocksPerFile",
                    "1000",
                    "-blockSize",
                    "1024")); // the default is more than its datanode has room for
        NNThroughputBenchmark.OperationStatsBase op = bench.new BlockReportStats(args);
        op.benchmark();
        return op.getAverageTime();
      } finally {
        bench.close();
      }
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }
}
