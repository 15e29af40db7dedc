package io.hops.namenode.rpc;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.RecentReceipts;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;

/**
 * Applies the replicas of blocks that datanodes reported here while another namenode owned their
 * reports (see {@link RecentReceipts}): a writer waiting for them need not wait for a dead owner to
 * be replaced.
 */
final class RecentReceiptsApplier {
  private final TransactionRunner runner;
  private final BlockManager blocks;

  RecentReceiptsApplier(TransactionRunner runner, BlockManager blocks) {
    this.runner = runner;
    this.blocks = blocks;
  }

  /** Applies the receipts of {@code blockIds}; whether there were any. */
  boolean apply(List<Long> blockIds) throws IOException {
    boolean applied = false;
    for (long blockId : blockIds) {
      applied |= apply(blockId);
    }
    return applied;
  }

  private boolean apply(long blockId) throws IOException {
    List<RecentReceipts.Receipt> receipts = blocks.receipts().take(blockId);
    DatanodeManager dm = blocks.datanodes();
    boolean applied = false;
    for (RecentReceipts.Receipt r : receipts) {
      DatanodeState node = dm.node(r.datanodeUuid());
      if (node == null) {
        continue;
      }
      StorageRef storage = dm.storageStat(node, r.storage()).ref;
      runner.run(
          () -> new ReplicaChange(blocks, storage, blockId, r.genStamp(), r.numBytes(), true));
      applied = true;
    }
    return applied;
  }
}
