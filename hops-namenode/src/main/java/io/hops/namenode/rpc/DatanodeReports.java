package io.hops.namenode.rpc;

import io.hops.dal.StorageException;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.blocks.UnregisteredIncludes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;

/**
 * What {@code hdfs dfsadmin -report} and the Balancer see of the datanodes: this namenode's view
 * (heartbeats are soft state per namenode, as in HDFS). Live means heard from within the expiry
 * interval, whatever the admin state; the admin-state reports list the datanodes in that state,
 * live or dead, as HDFS's getDatanodeListForReport; a datanode not in a non-empty include list is
 * left out, as there, and the reports of all and of dead datanodes end with the include list's
 * hosts that no datanode registered from ({@link UnregisteredIncludes}). The lists are read again
 * first if another namenode changed them (one primary-key read).
 */
final class DatanodeReports {
  private DatanodeReports() {}

  static List<DatanodeState> select(DatanodeManager dm, DatanodeReportType type)
      throws StorageException {
    dm.admin().refresh(true); // another namenode may have changed the lists just now
    List<DatanodeState> out = new ArrayList<>();
    for (DatanodeState n : dm.all()) {
      boolean live = dm.isLive(n);
      boolean wanted =
          switch (type) {
            case ALL -> true;
            case LIVE -> live;
            case DEAD -> !live;
            case DECOMMISSIONING -> n.adminState() == AdminStates.DECOMMISSION_INPROGRESS;
            case ENTERING_MAINTENANCE -> n.adminState() == AdminStates.ENTERING_MAINTENANCE;
            case IN_MAINTENANCE -> n.adminState() == AdminStates.IN_MAINTENANCE;
          };
      if (wanted && dm.admin().isIncluded(n.id())) { // HDFS leaves out what is not included
        out.add(n);
      }
    }
    out.sort(Comparator.comparing(n -> n.id().getXferAddr()));
    return out;
  }

  /**
   * {@code getDatanodeReport}: each datanode with its replica count, as HDFS's datanodeReport (read
   * from the database: one index scan per storage; the storage report, which the Balancer asks for
   * every iteration, leaves it out).
   */
  static DatanodeInfo[] nodes(DatanodeManager dm, DatanodeReportType type) throws StorageException {
    List<DatanodeInfo> out = new ArrayList<>();
    for (DatanodeState n : select(dm, type)) {
      out.add(
          new DatanodeInfo.DatanodeInfoBuilder()
              .setFrom(n.info())
              .setNumBlocks(dm.replicaCount(n.uuid()))
              .build());
    }
    out.addAll(unregistered(dm, type));
    return out.toArray(new DatanodeInfo[0]);
  }

  /** HDFS appends them, unsorted, to the reports that list dead datanodes. */
  private static List<DatanodeInfo> unregistered(DatanodeManager dm, DatanodeReportType type)
      throws StorageException {
    return type == DatanodeReportType.ALL || type == DatanodeReportType.DEAD
        ? dm.unregisteredIncludes().list(dm)
        : List.of();
  }

  static DatanodeStorageReport[] storages(DatanodeManager dm, DatanodeReportType type)
      throws StorageException {
    List<DatanodeStorageReport> out = new ArrayList<>();
    for (DatanodeState n : select(dm, type)) {
      List<StorageReport> reports = new ArrayList<>();
      for (StorageStat s : n.storages()) {
        reports.add(
            new StorageReport(
                new DatanodeStorage(
                    s.ref.storageUuid(),
                    s.failed ? DatanodeStorage.State.FAILED : DatanodeStorage.State.NORMAL,
                    s.ref.type()),
                s.failed,
                s.capacity,
                s.dfsUsed,
                s.remaining,
                s.blockPoolUsed,
                Math.max(0, s.capacity - s.dfsUsed - s.remaining)));
      }
      out.add(new DatanodeStorageReport(n.info(), reports.toArray(new StorageReport[0])));
    }
    for (DatanodeInfo d : unregistered(dm, type)) {
      out.add(new DatanodeStorageReport(d, new StorageReport[0]));
    }
    return out.toArray(new DatanodeStorageReport[0]);
  }
}
