package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.StorageRow;
import io.hops.dal.schema.Key;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Storages whose datanode said they failed (HDFS DatanodeDescriptor.updateStorageStats and
 * updateFailedStorage). A datanode drops a failed volume from its heartbeats; when a heartbeat
 * reports a new volume failure (a later {@link VolumeFailureSummary#getLastVolumeFailureDate}, or
 * more failed volumes), or is the first here since the datanode registered, each storage of the
 * datanode it leaves out has failed. The state is the {@code storages.state} column ({@link
 * DatanodeStorage.State#FAILED}), written by whichever namenode sees it first (every namenode gets
 * the same heartbeats, so each sees it and finds it written); a storage reported again (its
 * datanode restarted with the disk back) is {@code NORMAL} again. The leader's {@code
 * housekeeping/FailedStorageMonitor} forgets the replicas of the failed storages. Which storages
 * failed is kept here as a hint: loaded at start, and noted as heartbeats mark them.
 */
public final class FailedStorages {
  private static final Logger LOG = LoggerFactory.getLogger(FailedStorages.class);
  private static final byte FAILED = (byte) DatanodeStorage.State.FAILED.ordinal();
  private static final byte NORMAL = (byte) DatanodeStorage.State.NORMAL.ordinal();

  private final Storage storage;
  private final DatanodeManager dm;
  private final Set<Integer> failed = ConcurrentHashMap.newKeySet();

  FailedStorages(Storage storage, DatanodeManager dm) {
    this.storage = storage;
    this.dm = dm;
  }

  /** A storage row read at start. */
  void loaded(StorageRow row) {
    if (row.state() == FAILED) {
      failed.add(row.storageId());
    }
  }

  /** The ids of the storages known to have failed (a hint: see the class comment). */
  public Set<Integer> ids() {
    return Set.copyOf(failed);
  }

  /** Whether the storage is known to have failed. */
  public boolean isFailed(int storageId) {
    return failed.contains(storageId);
  }

  /**
   * Whether a heartbeat of {@code n} should be checked for storages it leaves out, by HDFS's rule:
   * a later last failure than the one it reported before, else more failed volumes, or its first
   * heartbeat since it registered. Call before noting the heartbeat's figures.
   */
  boolean newFailure(DatanodeState n, int volumeFailures, VolumeFailureSummary summary) {
    boolean first = n.firstHeartbeatSinceRegistration();
    VolumeFailureSummary last = n.volumeFailureSummary();
    boolean check =
        summary != null && last != null
            ? summary.getLastVolumeFailureDate() > last.getLastVolumeFailureDate()
            : volumeFailures > n.volumeFailures() || first;
    if (check && volumeFailures != n.volumeFailures()) {
      LOG.info(
          "datanode {}: number of failed storages changes from {} to {}",
          n.id().getXferAddr(),
          n.volumeFailures(),
          volumeFailures);
    }
    return check;
  }

  /**
   * The storages a heartbeat of {@code n} reported: a failed one reported again is NORMAL; with
   * {@code check}, every other storage of {@code n} has failed.
   */
  void reported(DatanodeState n, StorageReport[] reports, boolean check) throws StorageException {
    Set<String> uuids = new HashSet<>();
    List<StorageRef> back = new ArrayList<>();
    for (StorageReport r : reports) {
      String uuid = r.getStorage().getStorageID();
      uuids.add(uuid);
      StorageRef ref = dm.storageStat(n, r.getStorage()).ref;
      if (failed.contains(ref.id())) {
        back.add(ref);
      }
    }
    if (!back.isEmpty()) {
      setState(back, NORMAL);
      back.forEach(ref -> failed.remove(ref.id()));
      LOG.info("datanode {}: storages {} are reported again", n.id().getXferAddr(), back);
    }
    if (!check) {
      return;
    }
    List<StorageRef> gone = new ArrayList<>();
    for (StorageRef ref : dm.storagesOf(n.uuid())) {
      if (!uuids.contains(ref.storageUuid()) && !failed.contains(ref.id())) {
        gone.add(ref);
      }
    }
    if (gone.isEmpty()) {
      return;
    }
    setState(gone, FAILED);
    for (StorageRef ref : gone) {
      failed.add(ref.id());
      n.dropStorage(ref.storageUuid());
      LOG.info("datanode {}: storage {} failed", n.id().getXferAddr(), ref.storageUuid());
    }
  }

  /** Writes {@code state} on the storages' rows that hold another. */
  private void setState(List<StorageRef> refs, byte state) throws StorageException {
    List<Key> keys =
        refs.stream().map(StorageRef::id).sorted().map(id -> StorageRow.TABLE.key(id)).toList();
    try (Transaction tx = storage.begin()) {
      for (StorageRow row : tx.findBatch(StorageRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (row != null && row.state() != state) {
          tx.update(
              StorageRow.TABLE,
              new StorageRow(
                  row.storageId(),
                  row.storageUuid(),
                  row.datanodeUuid(),
                  row.storageType(),
                  state));
        }
      }
      tx.commit();
    }
  }
}
