package io.hops.namenode.housekeeping;

import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.tx.ExecutePhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;

/**
 * One block's replicas as {@link ReplicationCheck} counts them, as HDFS counts them: live (on a
 * live datanode, not corrupt, not being deleted), retiring, corrupt, in maintenance, and the
 * datanodes holding any.
 */
final class CountedReplicas {
  final List<StorageRef> live = new ArrayList<>();

  /**
   * On live datanodes being (or done being) decommissioned, or entering maintenance: not counted,
   * but copied from.
   */
  final List<StorageRef> retiring = new ArrayList<>();

  final List<StorageRef> corruptHeld = new ArrayList<>();
  final Set<String> containing = new HashSet<>();
  int maintenance;

  private CountedReplicas() {}

  /**
   * Counts the replicas {@code held} of a block, given its excess and corrupt rows; the rows of
   * replicas no longer held (their datanode deleted them) are deleted on the way.
   */
  static CountedReplicas count(
      ExecutePhase tx,
      DatanodeManager dm,
      List<ReplicaRow> held,
      List<ExcessReplicaRow> excess,
      List<CorruptReplicaRow> corrupt)
      throws IOException {
    Set<Integer> heldIds = new HashSet<>();
    held.forEach(r -> heldIds.add(r.storageId()));
    Set<Integer> beingDeleted = new HashSet<>();
    for (ExcessReplicaRow e : excess) {
      if (heldIds.contains(e.storageId())) {
        beingDeleted.add(e.storageId());
      } else {
        tx.delete(ExcessReplicaRow.TABLE, e); // its datanode deleted it: done
      }
    }
    Set<Integer> corruptIds = new HashSet<>();
    for (CorruptReplicaRow c : corrupt) {
      if (heldIds.contains(c.storageId())) {
        corruptIds.add(c.storageId());
      } else {
        tx.delete(CorruptReplicaRow.TABLE, c);
      }
    }
    CountedReplicas counted = new CountedReplicas();
    for (ReplicaRow r : held) {
      StorageRef s = dm.cachedStorage(r.storageId());
      if (s == null) {
        continue;
      }
      counted.containing.add(s.datanodeUuid());
      if (beingDeleted.contains(s.id())) {
        continue;
      }
      DatanodeState n = dm.node(s.datanodeUuid());
      if (corruptIds.contains(s.id())) {
        counted.corruptHeld.add(s);
      } else if (n != null && n.isMaintenance()) {
        // HDFS: a maintenance replica, live or dead; read (and copied) from only while its
        // datanode is live and still entering maintenance.
        counted.maintenance++;
        if (dm.isLive(s) && n.adminState() == AdminStates.ENTERING_MAINTENANCE) {
          counted.retiring.add(s);
        }
      } else if (dm.isLive(s)) {
        (n != null && n.isDecommission() ? counted.retiring : counted.live).add(s);
      }
    }
    return counted;
  }
}
