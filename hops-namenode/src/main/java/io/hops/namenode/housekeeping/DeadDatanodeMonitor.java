package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeManager.Node;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.housekeeping.RemoveStorageReplicas.FileBlock;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import org.apache.hadoop.hdfs.server.protocol.RegisterCommand;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Datanodes whose heartbeats stopped (HDFS HeartbeatManager.heartbeatCheck and
 * DatanodeManager.removeDeadDatanode): their replicas are forgotten, storage by storage, in small
 * transactions ({@link RemoveStorageReplicas}), and the blocks they held are queued for
 * re-replication. Finding a storage's replicas is an index scan on {@code replicas.storage_id}; its
 * pipeline locations, which have no such index, a scan of the (small) pipeline table.
 *
 * <p>A datanode that comes back gets a registration command first (its other queued commands are
 * dropped), so that it re-registers and sends a full block report, as with HDFS; a datanode that
 * comes back before its turn here keeps its replicas.
 */
final class DeadDatanodeMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(DeadDatanodeMonitor.class);
  static final int BATCH = 100;

  private final Namesystem ns;
  private final DatanodeManager dm;

  /** Declared dead and not yet forgotten (a failed round leaves them here for the next one). */
  private final Map<String, Node> toForget = new LinkedHashMap<>();

  DeadDatanodeMonitor(Namesystem ns) {
    this.ns = ns;
    this.dm = ns.blocks().datanodes();
  }

  @Override
  public String name() {
    return "dead-datanodes";
  }

  @Override
  public void runOnce() throws IOException {
    for (Node n : dm.takeNewlyDead()) {
      toForget.put(n.uuid(), n);
    }
    for (Node n : new ArrayList<>(toForget.values())) {
      if (dm.isLive(n)) {
        toForget.remove(n.uuid()); // back in time: what it holds is still there
        continue;
      }
      int removed = 0;
      for (StorageRef s : dm.storagesOf(n.uuid())) {
        removed += forget(s);
      }
      n.clearCommands();
      n.addCommand(RegisterCommand.REGISTER);
      toForget.remove(n.uuid());
      LOG.info(
          "dead datanode {} ({}): {} replicas forgotten, their blocks queued for re-replication",
          n.id().getXferAddr(),
          n.uuid(),
          removed);
    }
  }

  private int forget(StorageRef s) throws IOException {
    TreeSet<FileBlock> held =
        new TreeSet<>(
            Comparator.comparingLong(FileBlock::inodeId).thenComparingLong(FileBlock::blockId));
    try (Transaction tx = ns.storage().begin()) {
      for (ReplicaRow r :
          tx.findByIndex(ReplicaRow.TABLE, "storage_id", s.id(), LockMode.READ_COMMITTED)) {
        held.add(new FileBlock(r.inodeId(), r.blockId()));
      }
      for (ReplicaUnderConstructionRow r :
          tx.scanAll(ReplicaUnderConstructionRow.TABLE, LockMode.READ_COMMITTED)) {
        if (r.storageId() == s.id()) {
          held.add(new FileBlock(r.inodeId(), r.blockId()));
        }
      }
    }
    List<FileBlock> all = new ArrayList<>(held);
    int removed = 0;
    for (int i = 0; i < all.size(); i += BATCH) {
      List<FileBlock> batch = all.subList(i, Math.min(all.size(), i + BATCH));
      removed += ns.runAsLeader(() -> new RemoveStorageReplicas(s.id(), batch));
    }
    return removed;
  }
}
