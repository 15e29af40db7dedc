package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.RecentReceipts;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.blocks.StorageRef;
import java.io.IOException;
import java.util.List;

/**
 * Applies the replicas of blocks that datanodes reported here while another namenode owned their
 * reports (see {@link RecentReceipts}): a writer waiting for them need not wait for a dead owner to
 * be replaced.
 */
final class RecentReceiptsApplier {
  private final Namesystem ns;

  RecentReceiptsApplier(Namesystem ns) {
    this.ns = ns;
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
    List<RecentReceipts.Receipt> receipts = ns.blocks().receipts().take(blockId);
    DatanodeManager dm = ns.blocks().datanodes();
    boolean applied = false;
    for (RecentReceipts.Receipt r : receipts) {
      DatanodeState node = dm.node(r.datanodeUuid());
      if (node == null) {
        continue;
      }
      StorageRef storage = dm.storageStat(node, r.storage()).ref;
      ns.run(
          () -> new ReplicaChange(ns.blocks(), storage, blockId, r.genStamp(), r.numBytes(), true));
      applied = true;
    }
    return applied;
  }
}
