package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeRow;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.net.NetworkTopology;

/**
 * The datanodes' registrations as persisted ({@code datanodes}), so that any namenode can name the
 * holder of a replica and places replicas by the same racks: written by the namenode a datanode
 * registers with, read by the others.
 */
final class DatanodeRegistrations {
  /** Attempts of one registration's transaction, each lost to another namenode's on a new row. */
  private static final int MAX_ATTEMPTS = 4;

  private DatanodeRegistrations() {}

  /** The stored registration of a datanode, or null if none. */
  static DatanodeRow find(Storage storage, String datanodeUuid) throws StorageException {
    try (Transaction tx = storage.begin()) {
      return tx.find(
          DatanodeRow.TABLE, DatanodeRow.TABLE.key(datanodeUuid), LockMode.READ_COMMITTED);
    }
  }

  /** What a registration stored: the datanode's admin state now, and the racks' history. */
  record Stored(AdminStates state, RackHistory.Change racks) {}

  /**
   * Stores a registration at {@code location}, keeping the stored admin state (an excluded datanode
   * starts decommissioning), and records in {@code history} a second rack it brings.
   */
  static Stored store(
      Storage storage, DatanodeAdmin admin, RackHistory history, DatanodeID reg, String location)
      throws StorageException {
    DatanodeRow fresh =
        new DatanodeRow(
            reg.getDatanodeUuid(),
            reg.getHostName(),
            reg.getIpAddr(),
            reg.getXferPort(),
            reg.getInfoPort(),
            reg.getInfoSecurePort(),
            reg.getIpcPort(),
            location,
            (byte) 0,
            System.currentTimeMillis());
    AdminStates state;
    DuplicateKeyException previous = null;
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        DatanodeRow old =
            tx.find(DatanodeRow.TABLE, DatanodeRow.TABLE.keyOf(fresh), LockMode.EXCLUSIVE);
        // The admin state survives a registration; an excluded datanode starts decommissioning.
        state = admin.atRegistration(reg, old);
        DatanodeRow row = DatanodeAdmin.withState(fresh, state);
        if (old == null) {
          tx.insert(DatanodeRow.TABLE, row);
        } else {
          tx.update(DatanodeRow.TABLE, row);
        }
        if (state != (old == null ? AdminStates.NORMAL : DatanodeAdmin.stateOf(old))) {
          DatanodeAdmin.bump(tx);
        }
        RackHistory.Change racks = history.atRegistration(tx, reg, location);
        tx.commit();
        return new Stored(state, racks);
      } catch (DuplicateKeyException e) {
        // A datanode registers with every namenode at once: on an engine whose locking read of a
        // missing row takes no lock, two may insert the same row (the datanode's, or the racks'
        // multi_rack row); the loser reads the winner's on its next attempt. With three namenodes
        // an attempt may lose on one row and the next on another, so a new key each time is
        // retried, a few times; the same key twice in a row is no race.
        if (attempt >= MAX_ATTEMPTS - 1 || (previous != null && sameKey(e, previous))) {
          throw e;
        }
        previous = e;
      }
    }
  }

  private static boolean sameKey(DuplicateKeyException a, DuplicateKeyException b) {
    return a.key() != null && a.key().equals(b.key());
  }

  static String locationOf(DatanodeRow row) {
    String l = row.networkLocation();
    return l == null || l.isEmpty() ? NetworkTopology.DEFAULT_RACK : l;
  }

  static DatanodeID toId(DatanodeRow row) {
    return new DatanodeID(
        row.ipAddress(),
        row.hostname(),
        row.datanodeUuid(),
        row.xferPort(),
        row.infoPort(),
        row.infoSecurePort(),
        row.ipcPort());
  }
}
