package org.apache.hadoop.hdfs.server.namenode;

import java.io.File;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.DataStorage;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.util.VersionInfo;

/**
 * Apache HDFS's cluster restart, beside hops's ({@code
 * io.hops.namenode.bench.ClusterRestartThroughput}): a namenode in process with {@code datanodes}
 * datanodes (as {@code NNThroughputBenchmark}'s, in this process, speaking the datanode protocol to
 * the namenode's RPC server) of {@code blocks} replicas each, one replica per block, written
 * through the client protocol and incremental reports. Then the namespace is saved and the namenode
 * started again from its image (it knows the blocks, no replica, and is in startup safe mode,
 * {@code dfs.namenode.safemode.threshold-pct} 0.999, extension 0), and the datanodes register,
 * heartbeat and send their full reports all at once, each a first report ({@code
 * processFirstBlockReport}); timed from the first registration until the namenode leaves safe mode
 * and until every report is applied.
 */
public final class HdfsClusterRestart {
  private static final int BLOCKS_PER_FILE = 1000;
  private static final long CAPACITY = 1L << 40;

  private HdfsClusterRestart() {}

  /** Times from the first registration, in ms, and the process's CPU meanwhile. */
  public record Times(long safeModeOff, long safeModeCpu, long reportsApplied, long reportsCpu) {}

  /** One datanode of the benchmark: its registration, its one storage, its replicas. */
  private record Datanode(
      DatanodeRegistration reg, DatanodeStorage storage, BlockListAsLongs.Builder blocks) {}

  public static Times measure(int datanodes, int blocks) throws Exception {
    File dir = Files.createTempDirectory("hdfs-restart-").toFile();
    try {
      Configuration conf = HdfsBlockReports.formatted(dir);
      conf.setFloat(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY, 0.999f);
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
      conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
      // As NNThroughputBenchmark: datanodes that heartbeat once stay alive through the making.
      conf.setLong(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, 3 * 60);
      // A block's incremental report is applied asynchronously: let the next addBlock not wait for
      // it (only while the blocks are made; nothing timed adds a block).
      conf.setInt(DFSConfigKeys.DFS_NAMENODE_FILE_CLOSE_NUM_COMMITTED_ALLOWED_KEY, BLOCKS_PER_FILE);
      NameNode nn = NameNode.createNameNode(new String[0], conf);
      try {
        List<Datanode> dns = makeCluster(nn.getRpcServer(), datanodes, blocks);
        nn = HdfsBlockReports.restarted(nn, conf);
        return restart(nn, dns);
      } finally {
        nn.stop();
        nn.join();
      }
    } finally {
      FileUtil.fullyDelete(dir);
    }
  }

  /** Registers the datanodes and writes files of their blocks, {@code blocks} on each. */
  private static List<Datanode> makeCluster(NamenodeProtocols rpc, int datanodes, int blocks)
      throws Exception {
    rpc.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
    NamespaceInfo ns = rpc.versionRequest();
    String pool = ns.getBlockPoolID();
    List<Datanode> dns = new ArrayList<>();
    for (int d = 0; d < datanodes; d++) {
      DatanodeRegistration reg =
          new DatanodeRegistration(
              new DatanodeID(
                  "127.0.0.1", "localhost", DataNode.generateUuid(), 10_000 + d, 9864, 0, 9867),
              new DataStorage(ns),
              new ExportedBlockKeys(),
              VersionInfo.getVersion());
      reg = rpc.registerDatanode(reg);
      reg.setNamespaceInfo(ns);
      DatanodeStorage storage = new DatanodeStorage(DatanodeStorage.generateUuid());
      rpc.blockReport(
          reg,
          pool,
          new StorageBlockReport[] {new StorageBlockReport(storage, BlockListAsLongs.EMPTY)},
          new BlockReportContext(1, 0, System.nanoTime(), 0L));
      heartbeat(rpc, reg, storage);
      dns.add(new Datanode(reg, storage, BlockListAsLongs.builder()));
    }
    String client = "hdfs-restart-bench";
    long total = (long) datanodes * blocks;
    int block = 0;
    for (int f = 0; block < total; f++) {
      String file = "/restart/f" + f;
      rpc.create(
          file,
          FsPermission.getDefault(),
          client,
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)),
          true,
          (short) 1,
          1024,
          CryptoProtocolVersion.supported(),
          null,
          null);
      ExtendedBlock last = null;
      for (int b = 0; b < BLOCKS_PER_FILE && block < total; b++, block++) {
        // Each block on the next datanode in turn, as the favoured node.
        Datanode target = dns.get(block % datanodes);
        LocatedBlock at =
            rpc.addBlock(
                file,
                client,
                last,
                null,
                HdfsConstants.GRANDFATHER_INODE_ID,
                new String[] {target.reg().getXferAddr()},
                null);
        last = at.getBlock();
        last.setNumBytes(1024); // as the replica's and the commit's length
        for (DatanodeInfo where : at.getLocations()) {
          Datanode dn = dns.get(where.getXferPort() - 10_000);
          dn.blocks().add(new BlockListAsLongs.BlockReportReplica(last.getLocalBlock()));
          rpc.blockReceivedAndDeleted(
              dn.reg(),
              pool,
              new StorageReceivedDeletedBlocks[] {
                new StorageReceivedDeletedBlocks(
                    dn.storage(),
                    new ReceivedDeletedBlockInfo[] {
                      new ReceivedDeletedBlockInfo(
                          last.getLocalBlock(),
                          ReceivedDeletedBlockInfo.BlockStatus.RECEIVED_BLOCK,
                          null)
                    })
              });
        }
      }
      rpc.complete(file, client, last, HdfsConstants.GRANDFATHER_INODE_ID);
    }
    return dns;
  }

  private static Times restart(NameNode nn, List<Datanode> dns) throws Exception {
    NamenodeProtocols rpc = nn.getRpcServer();
    String pool = nn.getNamesystem().getBlockPoolId();
    List<StorageBlockReport[]> reports = new ArrayList<>();
    for (Datanode dn : dns) {
      reports.add(
          new StorageBlockReport[] {new StorageBlockReport(dn.storage(), dn.blocks().build())});
    }
    if (!nn.getNamesystem().isInStartupSafeMode()) {
      throw new IllegalStateException("HDFS's namenode started out of safe mode");
    }
    List<Callable<Void>> datanodes = new ArrayList<>();
    for (int d = 0; d < dns.size(); d++) {
      Datanode dn = dns.get(d);
      StorageBlockReport[] report = reports.get(d);
      datanodes.add(
          () -> {
            rpc.registerDatanode(dn.reg());
            heartbeat(rpc, dn.reg(), dn.storage());
            rpc.blockReport(
                dn.reg(), pool, report, new BlockReportContext(1, 0, System.nanoTime(), 0L));
            return null;
          });
    }
    return timed(datanodes, () -> nn.getNamesystem().isInSafeMode());
  }

  /**
   * Runs each of {@code datanodes} (a datanode coming back) in a thread of its own, all at once,
   * and times from their start until {@code inSafeMode} turns false and until all have returned.
   */
  public static Times timed(List<Callable<Void>> datanodes, BooleanSupplier inSafeMode)
      throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(datanodes.size());
    long cpu = HdfsBlockReports.processCpuMillis();
    long start = System.nanoTime();
    List<Future<Void>> done = new ArrayList<>();
    for (Callable<Void> dn : datanodes) {
      done.add(threads.submit(dn));
    }
    long safeAt = -1;
    long safeCpu = -1;
    long appliedAt = -1;
    long appliedCpu = -1;
    while (safeAt < 0 || appliedAt < 0) {
      if (safeAt < 0 && !inSafeMode.getAsBoolean()) {
        safeAt = (System.nanoTime() - start) / 1_000_000L;
        safeCpu = HdfsBlockReports.processCpuMillis() - cpu;
      }
      if (appliedAt < 0 && done.stream().allMatch(Future::isDone)) {
        appliedAt = (System.nanoTime() - start) / 1_000_000L;
        appliedCpu = HdfsBlockReports.processCpuMillis() - cpu;
      }
      Thread.sleep(1);
    }
    for (Future<Void> f : done) {
      f.get(); // a report that failed fails the run
    }
    threads.shutdown();
    return new Times(safeAt, safeCpu, appliedAt, appliedCpu);
  }

  private static void heartbeat(
      NamenodeProtocols rpc, DatanodeRegistration reg, DatanodeStorage storage) throws Exception {
    rpc.sendHeartbeat(
        reg,
        new StorageReport[] {new StorageReport(storage, false, CAPACITY, 0, CAPACITY, 0, 0L)},
        0L,
        0L,
        0,
        0,
        0,
        null,
        true,
        SlowPeerReports.EMPTY_REPORT,
        SlowDiskReports.EMPTY_REPORT);
  }
}
