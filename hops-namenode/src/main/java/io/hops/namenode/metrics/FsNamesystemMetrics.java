package io.hops.namenode.metrics;

import io.hops.namenode.blocks.DatanodeState;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.namenode.metrics.FSNamesystemMBean;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.metrics2.annotation.Metric;
import org.apache.hadoop.metrics2.annotation.Metrics;
import org.apache.hadoop.metrics2.lib.MetricsRegistry;

/**
 * HDFS's {@code FSNamesystem} metrics source and {@code FSNamesystemState} bean, with HDFS's names:
 * what dashboards and alerts read. Every value is cluster-wide, from a {@link ClusterSnapshot}.
 * What hops does not have (snapshots, encryption zones, erasure coding, an edit log) reads as zero.
 */
@Metrics(name = "FSNamesystem", about = "Namesystem state and counts", context = "dfs")
public final class FsNamesystemMetrics implements FSNamesystemMBean {
  final MetricsRegistry registry = new MetricsRegistry("FSNamesystem");
  private final Snapshots snapshots;

  public FsNamesystemMetrics(Snapshots snapshots, int rpcPort) {
    this.snapshots = snapshots;
    registry.tag("Port", "the namenode's RPC port", Integer.toString(rpcPort));
  }

  private ClusterSnapshot s() {
    return snapshots.get();
  }

  @Override
  public String getFSState() {
    return s().safeMode() ? "safeMode" : "Operational";
  }

  @Metric({"HAState", "Every hops namenode is active"})
  public String getHAState() {
    return "active";
  }

  @Override
  @Metric({"BlocksTotal", "Blocks in the namespace (the leader's census)"})
  public long getBlocksTotal() {
    return s().blocksTotal();
  }

  @Override
  @Metric({"FilesTotal", "Files and directories (the leader's census)"})
  public long getFilesTotal() {
    return s().filesTotal();
  }

  @Metric({"MillisSinceLastCensus", "Age of FilesTotal and BlocksTotal"})
  public long getMillisSinceLastCensus() {
    long at = s().censusTakenAt();
    return at == 0 ? -1 : Math.max(0, s().takenAtMillis() - at);
  }

  @Override
  @Metric({"CapacityTotal", "Total raw capacity of data nodes in bytes"})
  public long getCapacityTotal() {
    return s().capacityTotal();
  }

  @Metric({"CapacityTotalGB", "Total raw capacity of data nodes in GB"})
  public float getCapacityTotalGB() {
    return gb(getCapacityTotal());
  }

  @Override
  @Metric({"CapacityUsed", "Total used capacity across all data nodes in bytes"})
  public long getCapacityUsed() {
    return s().capacityUsed();
  }

  @Metric({"CapacityUsedGB", "Total used capacity across all data nodes in GB"})
  public float getCapacityUsedGB() {
    return gb(getCapacityUsed());
  }

  @Override
  @Metric({"CapacityRemaining", "Remaining capacity in bytes"})
  public long getCapacityRemaining() {
    return s().capacityRemaining();
  }

  @Metric({"CapacityRemainingGB", "Remaining capacity in GB"})
  public float getCapacityRemainingGB() {
    return gb(getCapacityRemaining());
  }

  @Metric({"CapacityUsedNonDFS", "Total space used by data nodes for non DFS purposes in bytes"})
  public long getCapacityUsedNonDFS() {
    return s().capacityUsedNonDfs();
  }

  @Override
  public long getProvidedCapacityTotal() {
    return 0;
  }

  @Override
  @Metric({"TotalLoad", "Total number of active transceivers of the live datanodes"})
  public int getTotalLoad() {
    return s().totalLoad();
  }

  @Override
  @Metric({"PendingReplicationBlocks", "Blocks being re-replicated"})
  public long getPendingReplicationBlocks() {
    return s().pendingReplicationBlocks();
  }

  @Override
  @Metric({"PendingReconstructionBlocks", "Blocks being re-replicated"})
  public long getPendingReconstructionBlocks() {
    return s().pendingReplicationBlocks();
  }

  @Override
  @Metric({"UnderReplicatedBlocks", "Blocks with fewer live replicas than their replication"})
  public long getUnderReplicatedBlocks() {
    return s().lowRedundancyBlocks();
  }

  @Override
  @Metric({"LowRedundancyBlocks", "Blocks with fewer live replicas than their replication"})
  public long getLowRedundancyBlocks() {
    return s().lowRedundancyBlocks();
  }

  @Metric({"CorruptBlocks", "Number of blocks with corrupt replicas"})
  public long getCorruptReplicaBlocks() {
    return s().corruptBlocks();
  }

  @Metric({"MissingBlocks", "Number of missing blocks"})
  public long getMissingBlocksCount() {
    return s().missingBlocks();
  }

  @Metric({"MissingReplOneBlocks", "Number of missing blocks with replication factor 1"})
  public long getMissingReplOneBlocksCount() {
    return s().missingReplicationOneBlocks();
  }

  @Override
  public long getScheduledReplicationBlocks() {
    return 0;
  }

  @Override
  @Metric({"PendingDeletionBlocks", "Replicas waiting to be deleted on datanodes"})
  public long getPendingDeletionBlocks() {
    return s().pendingDeletionBlocks();
  }

  @Override
  @Metric({"NumLiveDataNodes", "Number of datanodes which are currently live"})
  public int getNumLiveDataNodes() {
    return s().liveNodes().size();
  }

  @Override
  @Metric({"NumDeadDataNodes", "Number of datanodes which are currently dead"})
  public int getNumDeadDataNodes() {
    return s().deadCount();
  }

  @Override
  @Metric({"StaleDataNodes", "Number of datanodes marked stale due to delayed heartbeat"})
  public int getNumStaleDataNodes() {
    return s().staleNodes();
  }

  @Override
  public int getNumDecomLiveDataNodes() {
    return count(s().liveNodes(), AdminStates.DECOMMISSIONED);
  }

  @Override
  public int getNumDecomDeadDataNodes() {
    // HDFS counts an excluded include-list host that never registered as decommissioned.
    return count(s().deadNodes(), AdminStates.DECOMMISSIONED)
        + (int)
            s().neverRegistered().stream()
                .filter(d -> d.getAdminState() == AdminStates.DECOMMISSIONED)
                .count();
  }

  @Override
  @Metric({"NumInServiceLiveDataNodes", "Number of live datanodes which are in service"})
  public int getNumInServiceLiveDataNodes() {
    // HDFS: the live datanodes neither decommissioned nor in maintenance.
    return s().liveNodes().size()
        - count(s().liveNodes(), AdminStates.DECOMMISSIONED)
        - count(s().liveNodes(), AdminStates.IN_MAINTENANCE);
  }

  @Override
  @Metric({"VolumeFailuresTotal", "Total number of volume failures across all Datanodes"})
  public int getVolumeFailuresTotal() {
    return s().liveNodes().stream().mapToInt(DatanodeState::volumeFailures).sum();
  }

  @Override
  @Metric({
    "EstimatedCapacityLostTotal",
    "An estimate of the total capacity lost due to volume failures"
  })
  public long getEstimatedCapacityLostTotal() {
    return s().liveNodes().stream()
        .map(DatanodeState::volumeFailureSummary)
        .filter(java.util.Objects::nonNull)
        .mapToLong(VolumeFailureSummary::getEstimatedCapacityLostTotal)
        .sum();
  }

  @Override
  public int getNumDecommissioningDataNodes() {
    return count(s().liveNodes(), AdminStates.DECOMMISSION_INPROGRESS)
        + count(s().deadNodes(), AdminStates.DECOMMISSION_INPROGRESS);
  }

  /** The datanodes of {@code nodes} in admin state {@code state} (a hint, DatanodeAdmin). */
  static int count(java.util.List<io.hops.namenode.blocks.DatanodeState> nodes, AdminStates state) {
    return (int) nodes.stream().filter(n -> n.adminState() == state).count();
  }

  @Override
  public String getSnapshotStats() {
    return "{\"SnapshottableDirectories\":0,\"Snapshots\":0}";
  }

  @Override
  public long getMaxObjects() {
    return 0;
  }

  @Override
  public long getBlockDeletionStartTime() {
    return 0;
  }

  @Override
  public int getNumStaleStorages() {
    return 0;
  }

  @Override
  public String getTopUserOpCounts() {
    return "{}";
  }

  @Override
  public int getNumEncryptionZones() {
    return 0;
  }

  @Override
  public int getFsLockQueueLength() {
    return 0; // no namespace lock: transactions lock rows
  }

  @Override
  public long getTotalSyncCount() {
    return 0;
  }

  @Override
  public String getTotalSyncTimes() {
    return "";
  }

  @Override
  @Metric({
    "NumInMaintenanceLiveDataNodes",
    "Number of live Datanodes which are in maintenance state"
  })
  public int getNumInMaintenanceLiveDataNodes() {
    return count(s().liveNodes(), AdminStates.IN_MAINTENANCE);
  }

  @Override
  @Metric({
    "NumInMaintenanceDeadDataNodes",
    "Number of dead Datanodes which are in maintenance state"
  })
  public int getNumInMaintenanceDeadDataNodes() {
    return count(s().deadNodes(), AdminStates.IN_MAINTENANCE);
  }

  @Override
  @Metric({
    "NumEnteringMaintenanceDataNodes",
    "Number of Datanodes that are entering the maintenance state"
  })
  public int getNumEnteringMaintenanceDataNodes() {
    return count(s().liveNodes(), AdminStates.ENTERING_MAINTENANCE);
  }

  @Override
  public long getCurrentTokensCount() {
    return 0;
  }

  @Override
  public int getPendingSPSPaths() {
    return 0;
  }

  @Override
  public float getReconstructionQueuesInitProgress() {
    return 1f;
  }

  private static float gb(long bytes) {
    return bytes / (1024f * 1024f * 1024f);
  }
}
