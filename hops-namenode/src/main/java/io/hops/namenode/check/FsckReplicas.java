package io.hops.namenode.check;

import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * A block's replicas as {@link Fsck} counts and shows them: by the admin state and liveness of
 * their datanodes here (HDFS's NumberReplicas), and as {@code -locations}, {@code -racks} and
 * {@code -replicaDetails} print them.
 */
final class FsckReplicas {
  /** A block's replicas by the state of their datanodes (HDFS's NumberReplicas). */
  static final class Counts {
    int live;
    int decommissioning;
    int decommissioned;
    int enteringMaintenance;
    int inMaintenance;

    int total() {
      return live + decommissioning + decommissioned + enteringMaintenance + inMaintenance;
    }
  }

  private final DatanodeManager datanodes;
  private final boolean showLocations;
  private final boolean showRacks;
  private final boolean showReplicaDetails;
  private final boolean showMaintenanceState;

  FsckReplicas(
      DatanodeManager datanodes,
      boolean showLocations,
      boolean showRacks,
      boolean showReplicaDetails,
      boolean showMaintenanceState) {
    this.datanodes = datanodes;
    this.showLocations = showLocations;
    this.showRacks = showRacks;
    this.showReplicaDetails = showReplicaDetails;
    this.showMaintenanceState = showMaintenanceState;
  }

  /**
   * Counts a block's replicas as HDFS's checkReplicaOnStorage does. A replica on a dead datanode is
   * not counted (HDFS forgets it when the datanode dies) unless the datanode is in maintenance,
   * whose replicas HDFS keeps as not for reading.
   */
  Counts count(LocatedBlock lb) {
    Counts r = new Counts();
    for (DatanodeInfo d : lb.getLocations()) {
      DatanodeState node = datanodes.node(d.getDatanodeUuid());
      if (node == null) {
        continue;
      }
      boolean live = datanodes.isLive(node);
      switch (node.adminState()) {
        case IN_MAINTENANCE -> r.inMaintenance++;
        case ENTERING_MAINTENANCE -> {
          if (live) {
            r.enteringMaintenance++;
          } else {
            r.inMaintenance++;
          }
        }
        case DECOMMISSION_INPROGRESS -> r.decommissioning += live ? 1 : 0;
        case DECOMMISSIONED -> r.decommissioned += live ? 1 : 0;
        default -> r.live += live ? 1 : 0;
      }
    }
    return r;
  }

  /** How {@code -replicaDetails} shows a replica's state, in NamenodeFsck's order of checks. */
  private String state(DatanodeInfo d, boolean corrupt) {
    DatanodeState node = datanodes.node(d.getDatanodeUuid());
    AdminStates a = node == null ? AdminStates.NORMAL : node.adminState();
    if (a == AdminStates.DECOMMISSIONED) {
      return "(DECOMMISSIONED)";
    } else if (a == AdminStates.DECOMMISSION_INPROGRESS) {
      return "(DECOMMISSIONING)";
    } else if (showMaintenanceState && a == AdminStates.ENTERING_MAINTENANCE) {
      return "(ENTERING MAINTENANCE)";
    } else if (showMaintenanceState && a == AdminStates.IN_MAINTENANCE) {
      return "(IN MAINTENANCE)";
    } else if (corrupt) {
      return "(CORRUPT)";
    }
    return node != null && datanodes.isLive(node) ? "(LIVE)" : "(STALE_NODE)";
  }

  /** The replicas of a block as -locations, -racks or -replicaDetails show them. */
  String describe(LocatedBlock lb, boolean corrupt) {
    if (!(showLocations || showRacks || showReplicaDetails)) {
      return "";
    }
    StringBuilder sb = new StringBuilder(" ["); // two spaces after Live_repl=N, as HDFS prints
    DatanodeInfo[] locations = lb.getLocations();
    for (int i = 0; i < locations.length; i++) {
      DatanodeInfo d = locations[i];
      if (showRacks) {
        sb.append(d.getNetworkLocation()).append('/').append(d.getXferAddr());
      } else {
        sb.append(d);
      }
      if (showReplicaDetails) {
        sb.append(state(d, corrupt));
      }
      if (i + 1 < locations.length) {
        sb.append(", ");
      }
    }
    return sb.append(']').toString();
  }
}
