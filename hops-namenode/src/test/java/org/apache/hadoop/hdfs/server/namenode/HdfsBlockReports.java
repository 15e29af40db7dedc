package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSTestUtil;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * Apache HDFS's own block report measurement ({@code NNThroughputBenchmark -op blockReport}), run
 * in this JVM beside hops's ({@code io.hops.namenode.bench.BlockReportThroughput}): its namenode in
 * process, one datanode whose {@code blocks} replicas the namenode knows from incremental reports,
 * then {@code reports} full reports of them (repeated ones). Then a cluster restart: the namespace
 * saved, the namenode stopped and started again from its image (it knows the blocks, no replica,
 * and is in safe mode), the datanode registered again and its first full report timed, the one HDFS
 * applies through {@code processFirstBlockReport}. In Hadoop's package to reach the benchmark's
 * datanode and average, which it otherwise only logs.
 */
public final class HdfsBlockReports {
  private HdfsBlockReports() {}

  /** The times of one datanode's full reports, in ms. */
  public record Times(long firstMillis, long firstCpuMillis, long repeatedMillis) {}

  /**
   * The average time of a repeated full report of {@code blocks} replicas and the time of the first
   * one after a restart, in ms.
   */
  public static Times measure(int blocks, int reports) throws Exception {
    File dir = Files.createTempDirectory("hdfs-nnbench-").toFile();
    try {
      Configuration conf = formatted(dir);
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
        long repeated = op.getAverageTime();
        long[] first = firstAfterRestart(conf, op);
        return new Times(first[0], first[1], repeated);
      } finally {
        bench.close();
      }
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }

  /**
   * The namenode restarted from its saved image, then the benchmark's datanode registered again and
   * its full report, every replica new to the namenode, timed: its time and the CPU time the
   * process spent meanwhile, in ms.
   */
  private static long[] firstAfterRestart(
      Configuration conf, NNThroughputBenchmark.OperationStatsBase op) throws Exception {
    NameNode nn = restarted(NNThroughputBenchmark.nameNode, conf);
    NNThroughputBenchmark.nameNode = nn; // closed with the benchmark
    // The benchmark's datanode class is private: its registration, storage and replicas by name.
    Field field = op.getClass().getDeclaredField("datanodes");
    field.setAccessible(true);
    Object dn = ((Object[]) field.get(op))[0];
    DatanodeRegistration reg = (DatanodeRegistration) member(dn, "dnRegistration");
    DatanodeStorage storage = (DatanodeStorage) member(dn, "storage");
    Method list = dn.getClass().getDeclaredMethod("getBlockReportList");
    list.setAccessible(true);
    nn.getRpcServer().registerDatanode(reg);
    StorageBlockReport[] report = {
      new StorageBlockReport(storage, (BlockListAsLongs) list.invoke(dn))
    };
    long cpu = processCpuMillis();
    long start = System.nanoTime();
    nn.getRpcServer()
        .blockReport(
            reg,
            nn.getNamesystem().getBlockPoolId(),
            report,
            new BlockReportContext(1, 0, System.nanoTime(), 0L));
    long ms = (System.nanoTime() - start) / 1_000_000L;
    cpu = processCpuMillis() - cpu;
    long known = nn.getNamesystem().getBlockManager().getTotalBlocks();
    long live =
        nn.getNamesystem().getBlockManager().getDatanodeManager().getDatanode(reg).numBlocks();
    if (live != known) {
      throw new IllegalStateException(
          "HDFS's first report recorded " + live + " replicas of " + known + " blocks");
    }
    return new long[] {ms, cpu};
  }

  /** A namenode's configuration with its image in {@code dir}, formatted, for benchmarks. */
  static Configuration formatted(File dir) throws Exception {
    // As the benchmark's run() does (its -logLevel): a line per block received would slow the
    // making of the replicas more than anything measured. Read as the loggers are made.
    for (String log : List.of("BlockStateChange", "org.apache.hadoop.hdfs.StateChange")) {
      if (System.getProperty("org.slf4j.simpleLogger.log." + log) == null) {
        System.setProperty("org.slf4j.simpleLogger.log." + log, "warn");
      }
    }
    Configuration conf = new HdfsConfiguration();
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 16);
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, new File(dir, "name").getAbsolutePath());
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    FileSystem.setDefaultUri(conf, "hdfs://127.0.0.1:0");
    DefaultMetricsSystem.setMiniClusterMode(true); // the format registered metrics already
    // Each of the benchmark's addBlock calls waits for its edit to be synced to disk: a million
    // fsyncs on a shared disk do not end. No report writes an edit, so none of it is measured.
    EditLogFileOutputStream.setShouldSkipFsyncForTesting(true);
    DFSTestUtil.formatNameNode(conf);
    return conf;
  }

  /**
   * Saves the namespace of {@code old} and stops it; starts a namenode from the image, which knows
   * the blocks, no replica, and is in startup safe mode.
   */
  static NameNode restarted(NameNode old, Configuration conf) throws Exception {
    old.getRpcServer().setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
    old.getRpcServer().saveNamespace(0, 0);
    old.stop();
    old.join();
    return NameNode.createNameNode(new String[0], conf);
  }

  /** The CPU time of this process's threads so far, in ms. */
  public static long processCpuMillis() {
    return ((com.sun.management.OperatingSystemMXBean)
                java.lang.management.ManagementFactory.getOperatingSystemMXBean())
            .getProcessCpuTime()
        / 1_000_000L;
  }

  private static Object member(Object o, String name) throws ReflectiveOperationException {
    Field f = o.getClass().getDeclaredField(name);
    f.setAccessible(true);
    return f.get(o);
  }
}
