package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.FailedStorages;
import io.hops.namenode.housekeeping.RemoveStorageReplicas.FileBlock;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The replicas of failed storages (HDFS HeartbeatManager.heartbeatCheck's failed storages, and
 * BlockManager.removeBlocksAssociatedTo): the leader forgets them, a page of {@code
 * replicas.storage_id} at a time, in the fenced transactions of {@link RemoveStorageReplicas},
 * which queue their blocks for re-replication. Which storages failed is the {@code storages.state}
 * column ({@link FailedStorages}); which of them this leader found empty is its memory only, so a
 * new leader looks at each once more.
 */
final class FailedStorageMonitor implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(FailedStorageMonitor.class);

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final FailedStorages failed;
  private final int pageRows;
  private final Set<Integer> emptied = new HashSet<>();
  private long epoch = -1;

  FailedStorageMonitor(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.failed = blockManager.datanodes().failedStorages();
    this.pageRows = QueueCursor.pageRows(conf);
  }

  @Override
  public String name() {
    return "failed-storages";
  }

  @Override
  public void runOnce() throws IOException {
    long leading = blockManager.leadingEpoch();
    if (leading != epoch) {
      epoch = leading;
      emptied.clear();
    }
    Set<Integer> ids = failed.ids();
    emptied.retainAll(ids);
    int budget = pageRows;
    for (int id : ids) {
      while (budget > 0 && !emptied.contains(id) && failed.isFailed(id)) {
        budget -= Math.max(1, forgetPage(id));
      }
    }
  }

  /** Forgets the first page of the storage's replicas; returns the rows read. */
  private int forgetPage(int storageId) throws IOException {
    List<FileBlock> held;
    try (Transaction tx = storage.begin()) {
      held =
          tx
              .findByIndexFrom(
                  ReplicaRow.TABLE,
                  "storage_id",
                  storageId,
                  null,
                  pageRows,
                  LockMode.READ_COMMITTED)
              .stream()
              .map(r -> new FileBlock(r.inodeId(), r.blockId()))
              .toList();
    }
    boolean noting = ChangedStorages.noting(blockManager);
    int removed = 0;
    // An index page comes in (inode, block) order, the order RemoveStorageReplicas locks in.
    for (int i = 0; i < held.size(); i += DeadDatanodeMonitor.BATCH) {
      List<FileBlock> batch = held.subList(i, Math.min(held.size(), i + DeadDatanodeMonitor.BATCH));
      removed +=
          leader.run(
              () -> new RemoveStorageReplicas(blockManager.clock(), storageId, batch, noting));
    }
    if (held.size() < pageRows) {
      emptied.add(storageId);
    }
    if (removed > 0) {
      LOG.info(
          "failed storage {}: {} replicas forgotten, their blocks queued for re-replication",
          storageId,
          removed);
    }
    return held.size();
  }
}
