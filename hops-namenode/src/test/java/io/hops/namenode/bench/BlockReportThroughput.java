package io.hops.namenode.bench;

import io.hops.dal.Transaction;
import io.hops.dal.embedded.ReportFloor;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.election.Membership;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.ReportOwnership;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.rpc.DatanodeRpc;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.Replica;
import org.apache.hadoop.hdfs.server.datanode.fsdataset.FsVolumeSpi;
import org.apache.hadoop.hdfs.server.namenode.HdfsBlockReports;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.util.VersionInfo;

/**
 * Full block reports of datanodes with {@code blocks} (default 100,000) replicas each, applied by 1
 * and by 3 namenodes over one embedded store, one datanode owned by each namenode, all reporting at
 * once: the first report (every replica new) and repeated ones (nothing changed, the steady state).
 * In the same run, Apache HDFS's {@code NNThroughputBenchmark -op blockReport} of one datanode with
 * as many replicas (its repeated report; its namenode knows the replicas from incremental reports),
 * then HDFS's first report of them after its namenode restarted ({@link HdfsBlockReports}), and the
 * ratios of hops's times to HDFS's. Not a test. Run: {@code java -cp <test classpath>
 * io.hops.namenode.bench.BlockReportThroughput [blocks [namenodes,... [reports]]]}, e.g. {@code
 * 1000000 1 3}; namenodes {@code 0} measures HDFS only, {@code -Dhops.bench.hdfs=false} hops only;
 * {@code -Dhops.bench.max-rows=N} bounds the first namenode's transactions to N rows; {@code
 * -Dhops.bench.apply-threads=1,2,1,2} measures hops once for each value of {@code
 * hops.namenode.full-report.apply-threads}, in that order (A/B runs, interleaved); {@code
 * -Dhops.bench.startup=true} (one namenode) restarts the namenode after making the blocks, so that
 * its first report arrives in startup safe mode, as HDFS's does. A first report's CPU time (of the
 * whole process, every thread, while it ran) is shown beside its time: on a shared machine it
 * varies less.
 */
public final class BlockReportThroughput {
  private static final int INSERT_BATCH = 2000;

  public static void main(String[] args) throws Exception {
    int blocks = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
    String[] namenodes = (args.length > 1 ? args[1] : "1,3").split(",");
    int reports = args.length > 2 ? Integer.parseInt(args[2]) : 3;
    List<Times> hops = new ArrayList<>();
    String[] applyThreads = System.getProperty("hops.bench.apply-threads", "").split(",");
    for (String n : namenodes) {
      for (String threads : applyThreads) {
        if (Integer.parseInt(n) > 0) {
          hops.addAll(measure(Integer.parseInt(n), blocks, reports, threads));
        }
      }
    }
    List<ReportFloor.Times> floors = floor(blocks, Integer.getInteger("hops.bench.floor", 0));
    if (!Boolean.parseBoolean(System.getProperty("hops.bench.hdfs", "true"))) {
      return;
    }
    HdfsBlockReports.Times hdfs = HdfsBlockReports.measure(blocks, reports);
    System.out.printf(
        "HDFS: %,d-replica full report: first (after a restart) %,d ms (%.0f replicas/s, %,d ms of"
            + " CPU), repeated %,d ms on average of %d%n",
        blocks,
        hdfs.firstMillis(),
        blocks * 1000.0 / Math.max(1, hdfs.firstMillis()),
        hdfs.firstCpuMillis(),
        hdfs.repeatedMillis(),
        reports);
    for (Times t : hops) {
      System.out.println(t.line());
      System.out.printf(
          "  hops / HDFS: first %.2fx HDFS's time (%.2fx its CPU), repeated %.2fx HDFS's time%n",
          t.first() / (double) Math.max(1, hdfs.firstMillis()),
          t.firstCpu() / (double) Math.max(1, hdfs.firstCpuMillis()),
          t.repeated() / (double) Math.max(1, hdfs.repeatedMillis()));
    }
    for (ReportFloor.Times f : floors) {
      System.out.printf(
          "  floor / HDFS's first report: %.2fx its time (%.2fx its CPU)%n",
          f.total() / Math.max(1, hdfs.firstMillis()),
          f.cpu() / Math.max(1, hdfs.firstCpuMillis()));
    }
  }

  /**
   * {@code rounds} times the raw RocksDB work of a first report of {@code blocks} replicas ({@link
   * ReportFloor}), on a store of its own holding the blocks, compacted; each round once for each
   * read batch of {@code -Dhops.bench.floor-batch} (keys per {@code multiGet}, a comma list, by
   * default all in one; with {@code -Dhops.bench.floor-bulk=true} read in key order and written as
   * ingested table files instead, {@link ReportFloor#measureBulk}); a line each.
   */
  private static List<ReportFloor.Times> floor(int blocks, int rounds) throws Exception {
    List<ReportFloor.Times> out = new ArrayList<>();
    if (rounds <= 0) {
      return out;
    }
    try (HopsTestCluster cluster = new HopsTestCluster(new Configuration(false))) {
      long from = 1L << 40;
      makeBlocks(cluster.namenode(), 1_000_000L, from, blocks);
      ReportFloor.settle(cluster.namenode().storage());
      String[] batches =
          System.getProperty("hops.bench.floor-batch", Integer.toString(blocks)).split(",");
      for (int r = 0; r < rounds * batches.length; r++) {
        int batch = Integer.parseInt(batches[r % batches.length]);
        // A storage of its own each round: every replica row is new, as in a first report.
        boolean bulk = Boolean.getBoolean("hops.bench.floor-bulk");
        ReportFloor.Times t =
            bulk
                ? ReportFloor.measureBulk(cluster.namenode().storage(), from, blocks, 1_000_000 + r)
                : ReportFloor.measure(
                    cluster.namenode().storage(), from, blocks, 1_000_000 + r, batch);
        System.out.printf(
            "floor of a %,d-replica first report (raw RocksDB, %s, round %d):"
                + " %.0f ms (lookup rows %.0f, block rows %.0f, replica rows written %.0f; %.0f ms"
                + " of CPU)%n",
            blocks,
            bulk
                ? "read in key order, written as ingested table files"
                : String.format("%,d keys per multiGet", batch),
            r / batches.length + 1,
            t.total(),
            t.lookups(),
            t.blocks(),
            t.write(),
            t.cpu());
        out.add(t);
      }
    }
    return out;
  }

  /** One namenode's report times in ms, and the line that shows them. */
  private record Times(long first, long firstCpu, long repeated, String line) {}

  private static List<Times> measure(int namenodes, int blocks, int reports, String applyThreads)
      throws Exception {
    List<Times> times = new ArrayList<>();
    Configuration conf = new Configuration(false);
    if (!applyThreads.isEmpty()) {
      conf.set(NamenodeConfig.FULL_REPORT_APPLY_THREADS, applyThreads);
    }
    boolean startup = namenodes == 1 && Boolean.getBoolean("hops.bench.startup");
    long firstBlock = 1L << 40;
    HopsNameNode restarted = null;
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      List<HopsNameNode> nns = new ArrayList<>();
      if (startup) {
        // As HDFS's first report: the namenode restarts over blocks with no replica recorded and
        // is in startup safe mode when the datanode reports.
        makeBlocks(cluster.namenode(), 1_000_000L, firstBlock, blocks);
        cluster.namenode().close();
        restarted = cluster.startAnotherNamenode();
        while (!restarted.election().isLeader()) {
          Thread.sleep(100);
        }
        while (!deferring(restarted)) {
          Thread.sleep(100);
        }
        nns.add(restarted);
      } else {
        nns.add(cluster.namenode());
      }
      String maxRows = System.getProperty("hops.bench.max-rows");
      if (maxRows != null) {
        nns.get(0).namesystem().runner().boundRows(Integer.parseInt(maxRows));
      }
      for (int i = 1; i < namenodes; i++) {
        nns.add(cluster.startAnotherNamenode());
      }
      while (nns.stream().anyMatch(n -> n.election().membership().members().size() < namenodes)) {
        Thread.sleep(100);
      }
      Membership m = nns.get(0).election().membership();
      ExecutorService pool = Executors.newFixedThreadPool(namenodes);
      List<Future<long[]>> runs = new ArrayList<>();
      for (int i = 0; i < namenodes; i++) {
        HopsNameNode nn = nns.get(i);
        String uuid = uuidOwnedBy(nn.election().id(), m);
        long from = firstBlock + (long) i * blocks;
        if (!startup) {
          makeBlocks(nn, 1_000_000L + i, from, blocks);
        }
        runs.add(pool.submit(() -> report(nn, uuid, from, blocks, reports)));
      }
      for (int i = 0; i < namenodes; i++) {
        // The first report's CPU, of the process and of the reporting thread; each report's time.
        long[] ms = runs.get(i).get();
        long repeated = 0;
        for (int r = 3; r < ms.length; r++) {
          repeated += ms[r];
        }
        repeated /= Math.max(1, ms.length - 3);
        String line =
            String.format(
                "%d namenode(s)%s%s, namenode %d: %,d-replica full report: first %,d ms (%.0f"
                    + " replicas/s, %,d ms of CPU, %,d ms of it the reporting thread's), repeated"
                    + " %,d ms on average of %d",
                namenodes,
                applyThreads.isEmpty() ? "" : ", " + applyThreads + " apply thread(s)",
                startup ? ", in startup safe mode" : "",
                i + 1,
                blocks,
                ms[2],
                blocks * 1000.0 / ms[2],
                ms[0],
                ms[1],
                repeated,
                ms.length - 3);
        System.out.println(line);
        times.add(new Times(ms[2], ms[0], repeated, line));
      }
      pool.shutdown();
      for (int i = nns.size() - 1; i > 0; i--) {
        nns.get(i).close();
      }
    } finally {
      if (restarted != null) {
        restarted.close();
      }
    }
    return times;
  }

  /** Whether the starting leader has deferred the checks of first reports (DeferredChecks). */
  static boolean deferring(HopsNameNode nn) throws Exception {
    try (Transaction tx = nn.namesystem().storage().begin()) {
      return tx.find(
              io.hops.dal.rows.VariableRow.TABLE,
              io.hops.namenode.blocks.DeferredChecks.key(),
              io.hops.dal.LockMode.READ_COMMITTED)
          != null;
    }
  }

  /** A datanode uuid whose reports {@code owner} applies. */
  static String uuidOwnedBy(long owner, Membership m) {
    while (true) {
      String uuid = UUID.randomUUID().toString();
      if (ReportOwnership.ownerOf(uuid, m) == owner) {
        return uuid;
      }
    }
  }

  /** {@code count} complete blocks of one file, with their lookup rows. */
  private static void makeBlocks(HopsNameNode nn, long inode, long from, int count)
      throws Exception {
    makeBlocks(nn, inode, from, count, -1);
  }

  /**
   * {@code count} complete blocks of one file, with their lookup rows and, unless {@code storageId}
   * is negative, a replica on that storage each (as a report recorded them before a clean stop).
   */
  static void makeBlocks(HopsNameNode nn, long inode, long from, int count, int storageId)
      throws Exception {
    for (int done = 0; done < count; done += INSERT_BATCH) {
      try (Transaction tx = nn.namesystem().storage().begin()) {
        for (int i = done; i < Math.min(count, done + INSERT_BATCH); i++) {
          long id = from + i;
          tx.insert(
              BlockInfoRow.TABLE,
              new BlockInfoRow(inode, id, i, i * 1024L, 1024, 1001, BlockState.COMPLETE, 0, -1, 0));
          tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(id, inode));
          if (storageId >= 0) {
            tx.insert(ReplicaRow.TABLE, new ReplicaRow(inode, id, storageId, 0));
          }
        }
        tx.commit();
      }
    }
  }

  /** A datanode's storage formatted for this namespace: its calls carry the registration id. */
  static StorageInfo datanodeStorage(org.apache.hadoop.hdfs.server.protocol.NamespaceInfo ns) {
    return new StorageInfo(
        org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion.getCurrentLayoutVersion(),
        ns.getNamespaceID(),
        ns.getClusterID(),
        ns.getCTime(),
        NodeType.DATA_NODE);
  }

  /**
   * Registers a datanode and sends a first full report and then {@code repeats} identical ones: the
   * CPU time the process spent during the first one, the CPU time of this thread in it (the whole
   * report with one apply thread, without the collector, the compiler and the housekeeping that run
   * beside it), then each one's time, in ms.
   */
  private static long[] report(HopsNameNode nn, String uuid, long from, int count, int repeats)
      throws Exception {
    DatanodeRpc rpc = HopsNameNode.datanodeRpc(nn.namesystem());
    DatanodeRegistration reg = registration(nn, uuid, 9866);
    rpc.registerDatanode(reg);
    StorageBlockReport[] report = fullReport(uuid, from, count);
    String pool = nn.namesystem().blocks().blockPoolId();
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    long[] ms = new long[3 + repeats];
    for (int r = 2; r < ms.length; r++) {
      long cpu = HdfsBlockReports.processCpuMillis();
      long threadCpu = threads.getCurrentThreadCpuTime();
      long start = System.nanoTime();
      rpc.blockReport(reg, pool, report, new BlockReportContext(1, 0, r, 0));
      ms[r] = (System.nanoTime() - start) / 1_000_000L;
      if (r == 2) {
        ms[0] = HdfsBlockReports.processCpuMillis() - cpu;
        ms[1] = (threads.getCurrentThreadCpuTime() - threadCpu) / 1_000_000L;
      }
    }
    return ms;
  }

  /** Datanode {@code uuid}'s registration, its data transfer port {@code xferPort} on this host. */
  static DatanodeRegistration registration(HopsNameNode nn, String uuid, int xferPort) {
    return new DatanodeRegistration(
        new DatanodeID("127.0.0.1", "localhost", uuid, xferPort, 9864, 0, 9867),
        datanodeStorage(nn.namesystem().blocks().ids().namespaceInfo()),
        new ExportedBlockKeys(),
        VersionInfo.getVersion());
  }

  /** The full report of datanode {@code uuid}'s one storage: blocks {@code from} on. */
  static StorageBlockReport[] fullReport(String uuid, long from, int count) {
    BlockListAsLongs.Builder list = BlockListAsLongs.builder();
    for (int i = 0; i < count; i++) {
      list.add(new FinalizedReplica(from + i));
    }
    return new StorageBlockReport[] {
      new StorageBlockReport(new DatanodeStorage("DS-" + uuid), list.build())
    };
  }

  /** A finalized replica of 1 KB at generation stamp 1001, as a datanode lists it. */
  private record FinalizedReplica(long blockId) implements Replica {
    @Override
    public long getBlockId() {
      return blockId;
    }

    @Override
    public long getGenerationStamp() {
      return 1001;
    }

    @Override
    public ReplicaState getState() {
      return ReplicaState.FINALIZED;
    }

    @Override
    public long getNumBytes() {
      return 1024;
    }

    @Override
    public long getBytesOnDisk() {
      return 1024;
    }

    @Override
    public long getVisibleLength() {
      return 1024;
    }

    @Override
    public String getStorageUuid() {
      return null;
    }

    @Override
    public boolean isOnTransientStorage() {
      return false;
    }

    @Override
    public FsVolumeSpi getVolume() {
      return null;
    }
  }
}
