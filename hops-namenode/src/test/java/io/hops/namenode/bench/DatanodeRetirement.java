package io.hops.namenode.bench;

import io.hops.common.HopsConfig;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockLocation;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.SimulatedFSDataset;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;

/**
 * Issue 57's measurement of retiring a datanode, not a test: hops (one namenode, the embedded store
 * in memory) against an Apache HDFS NameNode (MiniDFSCluster) in the same JVM, each with {@link
 * #DATANODES} stock DataNodes over Hadoop's {@link SimulatedFSDataset} (no data on disk) and the
 * same settings ({@link #settings}). N files of one 1 KB block at replication 3 and their replicas,
 * 3N/5 on each datanode, are made the same way on both without the client's write path ({@link
 * RetirementSetup}) and checked fully replicated; then, on each system:
 *
 * <ol>
 *   <li>re-replication: a datanode is shut down; the clock runs from the shutdown, and the time at
 *       which the namenode lists it dead is noted; it stops once every block has 3 replicas on
 *       other datanodes (the block locations of every file, listed a directory at a time);
 *   <li>decommission: another datanode is put in {@code dfs.hosts.exclude} and the namenode told to
 *       read the file again (hops: {@code refreshNodes}; HDFS: its DatanodeManager, since its RPC
 *       reads the site files); the clock runs until the datanode is DECOMMISSIONED; then every
 *       block is checked to have 3 replicas on datanodes in service.
 * </ol>
 *
 * With 5 datanodes, a datanode holds 3N/5 replicas at first (the one shut down) and about 3N/4 once
 * one is gone (the one decommissioned). Run: {@code java -cp <test classpath>
 * io.hops.namenode.bench.DatanodeRetirement [files]} (default 166,667: 100,000 replicas on the
 * first victim); {@code -Dhops.bench.retire.systems=hops,hdfs} chooses the systems, and the
 * settings' properties below change the pace on both.
 */
public final class DatanodeRetirement {
  static final int DATANODES = 5;
  static final short REPLICATION = 3;
  static final int PER_DIR = 1000;
  static final int FILE_BYTES = 1024;
  private static final long WAIT_MILLIS = 3_600_000;

  /**
   * How often a directory found short is listed again. A listing of 1,000 files with their
   * locations every 100 ms (run 6 and before) was up to a sixth of hops's namenode's samples while
   * it copied, work HDFS does in memory: the bench measured its own polling. The same on both
   * systems; the times are late by up to this much.
   */
  static final long LISTING_POLL_MILLIS = 500;

  /** What one system did; times in ms. */
  record Result(
      String system,
      int files,
      long setupMillis,
      long killedHeld,
      long deadAfterMillis,
      long replicatedAfterMillis,
      long decommissionedHeld,
      long decommissionMillis,
      AdminStates decommissionedState,
      int blocksShortAfterDecommission) {}

  private DatanodeRetirement() {}

  public static void main(String[] args) throws Exception {
    int files = args.length > 0 ? Integer.parseInt(args[0]) : 166_667;
    String systems = System.getProperty("hops.bench.retire.systems", "hops,hdfs");
    Configuration conf = settings();
    printSettings(conf);
    List<Result> results = new ArrayList<>();
    for (String s : systems.split(",")) {
      Result r = s.equals("hdfs") ? runHdfs(conf, files) : runHops(conf, files);
      System.out.println(r);
      results.add(r);
    }
    print(results);
  }

  /**
   * The settings both systems run with: heartbeats every second, a datanode dead after 12 s (HDFS's
   * 2 × recheck + 10 × heartbeat), re-replication and the decommission check every second, and a
   * pace of copies an operator would set for a fast drain (HDFS's defaults, 2 per datanode every 3
   * s, would take hours for 100,000 blocks). At that pace a datanode's streaming server needs a
   * listen queue longer than Hadoop's 256: a copy sent by {@code DNA_TRANSFER} waits for no answer,
   * so one whose connection the target's full queue dropped is lost until the pending timeout
   * (docs/benchmarks.md, "Where the lost copies go"). Each can be changed by a system property of
   * the key's name prefixed with {@code hops.bench.retire.}.
   */
  static Configuration settings() {
    Map<String, String> s = new LinkedHashMap<>();
    s.put(DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY, "1");
    s.put(DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY, "1000");
    s.put(DFSConfigKeys.DFS_NAMENODE_REDUNDANCY_INTERVAL_SECONDS_KEY, "1");
    s.put(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, "1000");
    s.put(DFSConfigKeys.DFS_NAMENODE_REPLICATION_WORK_MULTIPLIER_PER_ITERATION, "500");
    s.put(DFSConfigKeys.DFS_NAMENODE_REPLICATION_MAX_STREAMS_KEY, "500");
    s.put(DFSConfigKeys.DFS_NAMENODE_REPLICATION_STREAMS_HARD_LIMIT_KEY, "500");
    s.put(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_INTERVAL_KEY, "1");
    s.put(DFSConfigKeys.DFS_NAMENODE_DECOMMISSION_BLOCKS_PER_INTERVAL_KEY, "500000");
    s.put(CommonConfigurationKeysPublic.IPC_SERVER_LISTEN_QUEUE_SIZE_KEY, "4096");
    Configuration conf = new Configuration(false);
    s.forEach((k, v) -> conf.set(k, System.getProperty("hops.bench.retire." + k, v)));
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, FILE_BYTES);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, REPLICATION);
    SimulatedFSDataset.setFactory(conf);
    return conf;
  }

  private static void printSettings(Configuration conf) {
    System.out.println("settings, the same on both systems:");
    for (Map.Entry<String, String> e : conf) {
      System.out.printf("  %s = %s%n", e.getKey(), e.getValue());
    }
  }

  private static void print(List<Result> results) {
    System.out.printf(
        "%-5s %8s %9s | %9s %9s %13s | %9s %13s%n",
        "", "files", "setup s", "held", "dead s", "replicated s", "held", "decommission s");
    for (Result r : results) {
      System.out.printf(
          "%-5s %,8d %9.1f | %,9d %9.1f %13.1f | %,9d %13.1f%n",
          r.system(),
          r.files(),
          r.setupMillis() / 1000.0,
          r.killedHeld(),
          r.deadAfterMillis() / 1000.0,
          r.replicatedAfterMillis() / 1000.0,
          r.decommissionedHeld(),
          r.decommissionMillis() / 1000.0);
    }
    if (results.size() == 2) {
      Result h = results.get(0);
      Result d = results.get(1);
      System.out.printf(
          "hops / HDFS: re-replication from the kill %.2f, from the declared death %.2f;"
              + " decommission %.2f%n",
          h.replicatedAfterMillis() / (double) d.replicatedAfterMillis(),
          (h.replicatedAfterMillis() - h.deadAfterMillis())
              / (double) (d.replicatedAfterMillis() - d.deadAfterMillis()),
          h.decommissionMillis() / (double) d.decommissionMillis());
    }
    System.out.printf(
        "load average %.1f%n",
        java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
  }

  static Result runHops(Configuration settings, int files) throws Exception {
    java.nio.file.Path exclude = excludeFile();
    Configuration conf = new Configuration(settings);
    conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString());
    // HDFS's one NameNode has no lease to lose; hops's default (1.8 s) was lost to the collector's
    // pauses of up to a second on the loaded machine at 100,000 replicas a datanode, and every new
    // leader asks every datanode for a full report.
    conf.set(
        HopsConfig.ELECTION_MISSED_HEARTBEATS,
        System.getProperty("hops.bench.retire." + HopsConfig.ELECTION_MISSED_HEARTBEATS, "10"));
    System.out.printf(
        "hops only: %s = %s%n",
        HopsConfig.ELECTION_MISSED_HEARTBEATS, conf.get(HopsConfig.ELECTION_MISSED_HEARTBEATS));
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      hops.startDatanodes(DATANODES, conf);
      try (DistributedFileSystem fs = hops.client()) {
        return measure(
            "hops",
            fs,
            files,
            hops.datanodes(),
            () -> RetirementSetup.hops(hops.namenode(), fs, hops.datanodes(), files),
            exclude,
            () -> fs.refreshNodes(),
            dn -> dn.shutdown());
      }
    }
  }

  static Result runHdfs(Configuration settings, int files) throws Exception {
    java.nio.file.Path exclude = excludeFile();
    Configuration conf = new Configuration(settings);
    conf.set(DFSConfigKeys.DFS_HOSTS_EXCLUDE, exclude.toString());
    MiniDFSCluster hdfs = ApacheHdfs.start("retire", conf, DATANODES);
    try (DistributedFileSystem fs =
        (DistributedFileSystem)
            FileSystem.newInstance(hdfs.getURI(), ApacheHdfs.clientConf(hdfs, REPLICATION))) {
      return measure(
          "hdfs",
          fs,
          files,
          hdfs.getDataNodes(),
          () -> RetirementSetup.hdfs(hdfs, fs, files),
          exclude,
          // HDFS's refreshNodes RPC reads the site files again; the conf is handed over instead.
          () ->
              hdfs.getNamesystem()
                  .getBlockManager()
                  .getDatanodeManager()
                  .refreshNodes(hdfs.getConfiguration(0)),
          dn -> hdfs.stopDataNode(dn.getDatanodeId().getXferAddr()));
    } finally {
      hdfs.shutdown();
    }
  }

  private static java.nio.file.Path excludeFile() throws java.io.IOException {
    java.nio.file.Path exclude = Files.createTempFile("retire-exclude-", "");
    Files.writeString(exclude, "");
    return exclude;
  }

  /** Makes the files and their replicas; the replicas each datanode was given. */
  interface Setup {
    long[] run() throws Exception;
  }

  /** The operator's {@code refreshNodes}. */
  interface Refresh {
    void run() throws Exception;
  }

  /** Shuts a datanode down. */
  interface Kill {
    void run(DataNode dn) throws Exception;
  }

  private static Result measure(
      String system,
      DistributedFileSystem fs,
      int files,
      List<DataNode> datanodes,
      Setup setup,
      java.nio.file.Path exclude,
      Refresh refreshNodes,
      Kill kill)
      throws Exception {
    long t0 = System.nanoTime();
    long[] given = setup.run();
    long setupMillis = millisSince(t0);
    awaitReplicated(fs, files, null, false);
    StringBuilder held = new StringBuilder();
    for (int d = 0; d < datanodes.size(); d++) {
      held.append(String.format(" %,d (given %,d)", held(fs, datanodes.get(d)), given[d]));
    }
    System.out.printf(
        "%s: %,d files made in %.1f s; replicas held by datanode 0 to %d:%s%n",
        system, files, setupMillis / 1000.0, datanodes.size() - 1, held);

    DataNode killed = datanodes.get(0);
    DataNode leaving = datanodes.get(1);
    String killedUuid = killed.getDatanodeUuid();
    long killedHeld = held(fs, killed);
    long start = System.nanoTime();
    kill.run(killed);
    long dead = awaitState(fs, killedUuid, null) - start;
    awaitReplicated(fs, files, killedUuid, false);
    long replicated = millisSince(start);

    long leavingHeld = held(fs, leaving);
    Files.writeString(exclude, leaving.getDatanodeId().getXferAddr() + "\n");
    start = System.nanoTime();
    refreshNodes.run();
    awaitState(fs, leaving.getDatanodeUuid(), AdminStates.DECOMMISSIONED);
    long decommission = millisSince(start);
    long sweep = System.nanoTime();
    int short3 = awaitReplicated(fs, files, leaving.getDatanodeUuid(), true);
    // What listing every directory once costs: the end of each re-replication wait is such a sweep.
    System.out.printf(
        "%s: every directory listed once with locations in %.1f s%n",
        system, millisSince(sweep) / 1000.0);
    AdminStates state = stateOf(fs, leaving.getDatanodeUuid());
    return new Result(
        system,
        files,
        setupMillis,
        killedHeld,
        dead / 1_000_000,
        replicated,
        leavingHeld,
        decommission,
        state,
        short3);
  }

  static Path file(int i) {
    return new Path("/retire/d" + (i / PER_DIR) + "/f" + (i % PER_DIR));
  }

  private static int dirs(int files) {
    return (files + PER_DIR - 1) / PER_DIR;
  }

  /**
   * Waits until every file's block has 3 replicas, none on the datanode {@code gone} (null: any),
   * listing the files with their locations a directory at a time; a directory found complete is not
   * listed again. With {@code once}, lists every directory once and returns the blocks short of 3
   * replicas in service (a decommissioned datanode's replica is still listed, last).
   */
  static int awaitReplicated(DistributedFileSystem fs, int files, String gone, boolean once)
      throws Exception {
    String goneAddr = gone == null ? null : addressOf(fs, gone);
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    int shortBlocks = 0;
    for (int d = 0; d < dirs(files); ) {
      int missing = 0;
      RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(new Path("/retire/d" + d));
      while (it.hasNext()) {
        for (BlockLocation l : it.next().getBlockLocations()) {
          int ok = 0;
          for (String n : l.getNames()) {
            ok += n.equals(goneAddr) ? 0 : 1;
          }
          missing += ok == REPLICATION ? 0 : 1;
        }
      }
      if (once) {
        shortBlocks += missing;
        d++;
      } else if (missing == 0) {
        d++;
      } else if (System.currentTimeMillis() > deadline) {
        throw new AssertionError("/retire/d" + d + " not fully replicated in an hour");
      } else {
        Thread.sleep(LISTING_POLL_MILLIS);
      }
    }
    return shortBlocks;
  }

  private static String addressOf(DistributedFileSystem fs, String uuid) throws Exception {
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getXferAddr();
      }
    }
    return null;
  }

  private static AdminStates stateOf(DistributedFileSystem fs, String uuid) throws Exception {
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.ALL)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getAdminState();
      }
    }
    return null;
  }

  /**
   * Waits until the datanode {@code uuid} is in {@code state}, or dead when {@code state} is null;
   * returns {@link System#nanoTime} then. Polls the storage report (the Balancer's), which carries
   * each datanode's state without its replica count: hops counts a datanode's replicas by an index
   * scan (docs/architecture.md), HDFS keeps the count in memory, and ten datanode reports a second
   * made hops scan every replica of the cluster ten times a second while it decommissioned.
   */
  private static long awaitState(DistributedFileSystem fs, String uuid, AdminStates state)
      throws Exception {
    long deadline = System.currentTimeMillis() + WAIT_MILLIS;
    DatanodeReportType type = state == null ? DatanodeReportType.DEAD : DatanodeReportType.ALL;
    while (true) {
      for (DatanodeStorageReport r : fs.getClient().getDatanodeStorageReport(type)) {
        DatanodeInfo d = r.getDatanodeInfo();
        if (d.getDatanodeUuid().equals(uuid) && (state == null || d.getAdminState() == state)) {
          return System.nanoTime();
        }
      }
      if (System.currentTimeMillis() > deadline) {
        throw new AssertionError(uuid + " not " + (state == null ? "dead" : state) + " in an hour");
      }
      Thread.sleep(100);
    }
  }

  /** The replicas the namenode lists on {@code dn} ({@code dfsadmin -report}'s block count). */
  private static long held(DistributedFileSystem fs, DataNode dn) throws Exception {
    String uuid = dn.getDatanodeUuid();
    for (DatanodeInfo d : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
      if (d.getDatanodeUuid().equals(uuid)) {
        return d.getNumBlocks();
      }
    }
    return -1;
  }

  private static long millisSince(long nanos) {
    return (System.nanoTime() - nanos) / 1_000_000;
  }
}
