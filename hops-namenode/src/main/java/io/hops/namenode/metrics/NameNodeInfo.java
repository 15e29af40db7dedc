package io.hops.namenode.metrics;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.LeavingStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.server.namenode.NameNodeMXBean;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.VersionInfo;

/**
 * HDFS's {@code NameNodeInfo} bean: version, ids, capacity as percentages, and the live and dead
 * datanodes as the JSON the HDFS web UI and monitoring scripts parse. Cluster-wide values come from
 * a {@link ClusterSnapshot}.
 */
public final class NameNodeInfo implements NameNodeMXBean {
  private static final ObjectMapper JSON = new ObjectMapper();

  private final Storage storage;
  private final BlockManager blocks;
  private final Snapshots snapshots;
  private final long startedMillis = System.currentTimeMillis();

  public NameNodeInfo(Storage storage, BlockManager blocks, Snapshots snapshots) {
    this.storage = storage;
    this.blocks = blocks;
    this.snapshots = snapshots;
  }

  private ClusterSnapshot s() {
    return snapshots.get();
  }

  @Override
  public String getVersion() {
    return VersionInfo.getVersion() + ", r" + VersionInfo.getRevision();
  }

  @Override
  public String getSoftwareVersion() {
    return VersionInfo.getVersion();
  }

  @Override
  public long getUsed() {
    return s().capacityUsed();
  }

  @Override
  public long getFree() {
    return s().capacityRemaining();
  }

  @Override
  public long getTotal() {
    return s().capacityTotal();
  }

  @Override
  public long getProvidedCapacity() {
    return 0;
  }

  @Override
  public String getSafemode() {
    return snapshots.safeModeText();
  }

  @Override
  public boolean isUpgradeFinalized() {
    return true;
  }

  @Override
  public RollingUpgradeInfo.Bean getRollingUpgradeStatus() {
    return null;
  }

  @Override
  public long getNonDfsUsedSpace() {
    return s().capacityUsedNonDfs();
  }

  @Override
  public float getPercentUsed() {
    return s().percentUsed();
  }

  @Override
  public float getPercentRemaining() {
    return s().percentRemaining();
  }

  @Override
  public long getCacheUsed() {
    return 0;
  }

  @Override
  public long getCacheCapacity() {
    return 0;
  }

  @Override
  public long getBlockPoolUsedSpace() {
    return s().blockPoolUsed();
  }

  @Override
  public float getPercentBlockPoolUsed() {
    ClusterSnapshot s = s();
    return s.capacityTotal() <= 0 ? 0f : s.blockPoolUsed() * 100f / s.capacityTotal();
  }

  @Override
  public long getTotalBlocks() {
    return s().blocksTotal();
  }

  @Override
  public long getNumberOfMissingBlocks() {
    return s().missingBlocks();
  }

  @Override
  public long getNumberOfMissingBlocksWithReplicationFactorOne() {
    return s().missingReplicationOneBlocks();
  }

  @Override
  public long getNumberOfBadlyDistributedBlocks() {
    return 0;
  }

  @Override
  public long getHighestPriorityLowRedundancyReplicatedBlocks() {
    return 0;
  }

  @Override
  public long getHighestPriorityLowRedundancyECBlocks() {
    return 0;
  }

  @Override
  public long getNumberOfSnapshottableDirs() {
    return 0;
  }

  @Override
  public int getThreads() {
    return Thread.activeCount();
  }

  @Override
  public String getLiveNodes() {
    Map<String, Object> out = new TreeMap<>();
    long now = Time.monotonicNow();
    for (DatanodeState n : s().liveNodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("infoAddr", n.id().getInfoAddr());
      m.put("infoSecureAddr", n.id().getInfoSecureAddr());
      m.put("xferaddr", n.id().getXferAddr());
      m.put("location", n.location());
      m.put("uuid", n.uuid());
      m.put("lastContact", (now - n.lastHeartbeat()) / 1000);
      m.put("usedSpace", n.dfsUsed());
      m.put("adminState", n.adminState().toString());
      m.put("nonDfsUsedSpace", Math.max(0, n.capacity() - n.dfsUsed() - n.remaining()));
      m.put("capacity", n.capacity());
      m.put("version", VersionInfo.getVersion());
      m.put("used", n.dfsUsed());
      m.put("remaining", n.remaining());
      m.put("blockPoolUsed", n.blockPoolUsed());
      m.put(
          "blockPoolUsedPercent", n.capacity() <= 0 ? 0f : n.blockPoolUsed() * 100f / n.capacity());
      m.put("volfails", n.volumeFailures());
      VolumeFailureSummary failures = n.volumeFailureSummary();
      if (failures != null) {
        m.put("failedStorageIDs", failures.getFailedStorageLocations());
        m.put("lastVolumeFailureDate", failures.getLastVolumeFailureDate());
        m.put("estimatedCapacityLostTotal", failures.getEstimatedCapacityLostTotal());
      }
      if (n.upgradeDomain() != null) {
        m.put("upgradeDomain", n.upgradeDomain());
      }
      m.put("reportsAppliedHere", n.ownsReports());
      out.put(n.id().getXferAddrWithHostname(), m);
    }
    return json(out);
  }

  @Override
  public String getDeadNodes() {
    Map<String, Object> out = new TreeMap<>();
    long now = Time.monotonicNow();
    for (DatanodeState n : s().deadNodes()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("lastContact", (now - n.lastHeartbeat()) / 1000);
      m.put("decommissioned", n.adminState() == AdminStates.DECOMMISSIONED);
      m.put("adminState", n.adminState().toString());
      m.put("xferaddr", n.id().getXferAddr());
      m.put("location", n.location());
      m.put("uuid", n.uuid());
      out.put(n.id().getXferAddrWithHostname(), m);
    }
    // HDFS lists them as last heard from at time 0 of its monotonic clock.
    for (DatanodeInfo d : s().neverRegistered()) {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("lastContact", now / 1000);
      m.put("decommissioned", d.getAdminState() == AdminStates.DECOMMISSIONED);
      m.put("adminState", d.getAdminState().toString());
      m.put("xferaddr", d.getXferAddr());
      m.put("location", d.getNetworkLocation());
      m.put("uuid", "");
      out.put(d.getXferAddrWithHostname(), m);
    }
    return json(out);
  }

  @Override
  public String getDecomNodes() {
    return leaving(AdminStates.DECOMMISSION_INPROGRESS, "decommissionOnlyReplicas");
  }

  /**
   * The datanodes in {@code state}, live or dead, each with what the leader's admin monitor last
   * found walking it ({@link LeavingStatus}, read from the database), as HDFS's getDecomNodes and
   * getEnteringMaintenanceNodes: zeros until a first whole walk; {@code decommissionDuration}
   * counts from that walk's end.
   */
  private String leaving(AdminStates state, String outOfServiceOnlyKey) {
    DatanodeManager dm = blocks.datanodes();
    List<DatanodeState> nodes =
        dm.all().stream()
            .filter(n -> n.adminState() == state && dm.admin().isIncluded(n.id()))
            .toList();
    Map<String, LeavingStatus> found;
    try {
      found = LeavingStatus.read(storage, nodes.stream().map(n -> n.uuid()).toList());
    } catch (StorageException e) {
      throw new IllegalStateException("cannot read the leaving datanodes' counts: " + e, e);
    }
    long now = Time.now();
    Map<String, Object> out = new TreeMap<>();
    for (DatanodeState n : nodes) {
      LeavingStatus st = found.getOrDefault(n.uuid(), new LeavingStatus(now, 0, 0, 0));
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("xferaddr", n.id().getXferAddr());
      m.put("location", n.location());
      m.put("uuid", n.uuid());
      m.put("underReplicatedBlocks", st.underReplicated());
      m.put(outOfServiceOnlyKey, st.outOfServiceOnly());
      m.put("underReplicateInOpenFiles", st.underReplicatedInOpenFiles());
      if (state == AdminStates.DECOMMISSION_INPROGRESS) {
        m.put("decommissionDuration", Math.max(0, now - st.startMillis()));
      }
      out.put(n.id().getXferAddrWithHostname(), m);
    }
    return json(out);
  }

  @Override
  public String getEnteringMaintenanceNodes() {
    return leaving(AdminStates.ENTERING_MAINTENANCE, "maintenanceOnlyReplicas");
  }

  @Override
  public String getClusterId() {
    return blocks.ids().clusterId();
  }

  @Override
  public String getBlockPoolId() {
    return blocks.blockPoolId();
  }

  @Override
  public String getNameDirStatuses() {
    return "{\"active\":{},\"failed\":{}}";
  }

  @Override
  public String getNodeUsage() {
    return "{\"nodeUsage\":{}}";
  }

  @Override
  public String getNameJournalStatus() {
    return "[]";
  }

  @Override
  public String getJournalTransactionInfo() {
    return "{}";
  }

  @Override
  public long getNNStartedTimeInMillis() {
    return startedMillis;
  }

  @Override
  public String getCompileInfo() {
    return VersionInfo.getDate()
        + " by "
        + VersionInfo.getUser()
        + " from "
        + VersionInfo.getBranch();
  }

  @Override
  public String getCorruptFiles() {
    return "[]";
  }

  @Override
  public int getCorruptFilesCount() {
    return 0;
  }

  @Override
  public int getDistinctVersionCount() {
    return s().liveNodes().isEmpty() ? 0 : 1;
  }

  @Override
  public Map<String, Integer> getDistinctVersions() {
    int live = s().liveNodes().size();
    return live == 0 ? Map.of() : Map.of(VersionInfo.getVersion(), live);
  }

  @Override
  public String getNameDirSize() {
    return "{}";
  }

  @Override
  public String getVerifyECWithTopologyResult() {
    return "{\"isSupported\":false,\"resultMessage\":\"hops has no erasure coding\"}";
  }

  private static String json(Object o) {
    try {
      return JSON.writeValueAsString(o);
    } catch (JsonProcessingException e) {
      throw new IllegalStateException(e);
    }
  }
}
