package io.hops.namenode.ops;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.tx.ExecutePhase;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;

/** Committing and completing blocks: what addBlock, complete and fsync share. */
final class Completion {
  private Completion() {}

  /**
   * HDFS commitOrCompleteLastBlock: the writer's length and generation stamp of its last block
   * become the block's; it is COMMITTED, and COMPLETE at once if enough live replicas reported it.
   * Committing a committed or complete block again changes nothing (a retried call).
   */
  static BlockInfoRow commit(
      ExecutePhase tx,
      BlockManager bm,
      FileBlocks f,
      BlockInfoRow b,
      ExtendedBlock client,
      String src)
      throws IOException {
    if (b.underConstructionState() == BlockState.COMPLETE
        || b.underConstructionState() == BlockState.COMMITTED) {
      return b;
    }
    if (b.generationStamp() != client.getGenerationStamp()) {
      throw new IOException(
          "Commit block with mismatching GS. NN has "
              + bm.extended(b)
              + ", client submits "
              + client
              + " (file "
              + src
              + ")");
    }
    boolean complete = bm.liveReplicas(f, b.blockId()) >= bm.minReplication();
    BlockInfoRow changed =
        with(b, client.getNumBytes(), complete ? BlockState.COMPLETE : BlockState.COMMITTED);
    tx.update(BlockInfoRow.TABLE, changed);
    if (complete) {
      bm.expectedToPending(tx, changed, f.expected(b.blockId()), f.replicas(b.blockId()), -1);
      dropPipeline(tx, f, b.blockId());
    }
    f.replace(changed);
    return changed;
  }

  /** A complete block needs no pipeline any more. */
  static void dropPipeline(ExecutePhase tx, FileBlocks f, long blockId) throws IOException {
    for (ReplicaUnderConstructionRow r : f.expected(blockId)) {
      tx.delete(ReplicaUnderConstructionRow.TABLE, r);
    }
  }

  static BlockInfoRow with(BlockInfoRow b, long numBytes, byte state) {
    return new BlockInfoRow(
        b.inodeId(),
        b.blockId(),
        b.blockIndex(),
        numBytes,
        b.generationStamp(),
        state,
        b.timestamp(),
        b.primaryNodeIndex(),
        b.blockRecoveryId());
  }
}
