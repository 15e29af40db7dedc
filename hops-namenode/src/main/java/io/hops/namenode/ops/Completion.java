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
    if (b.underConstructionState() == BlockState.COMPLETE) {
      return b;
    }
    if (b.underConstructionState() == BlockState.COMMITTED) {
      // Committed without enough live replicas, so the client asks again. Usually a datanode's
      // report completes the block meanwhile; but its replica may have been recorded before the
      // commit by a namenode that counted it while the committing one did not (a datanode it has
      // not heard from yet: it just started, or its heartbeats are late), and no report will
      // come again. So each retry counts again, as HDFS's commitOrCompleteLastBlock does.
      return bm.liveReplicas(f, b.blockId()) >= bm.minReplication()
          ? completed(tx, bm, f, with(b, b.numBytes(), BlockState.COMPLETE))
          : b;
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
    if (complete) {
      return completed(tx, bm, f, changed);
    }
    tx.update(BlockInfoRow.TABLE, changed);
    f.replace(changed);
    return changed;
  }

  /** Writes {@code changed}, a block now complete: its pipeline becomes pending replication. */
  private static BlockInfoRow completed(
      ExecutePhase tx, BlockManager bm, FileBlocks f, BlockInfoRow changed) throws IOException {
    tx.update(BlockInfoRow.TABLE, changed);
    bm.expectedToPending(
        tx, changed, f.expected(changed.blockId()), f.replicas(changed.blockId()), -1);
    dropPipeline(tx, f, changed.blockId());
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
        b.startOffset(),
        numBytes,
        b.generationStamp(),
        state,
        b.timestamp(),
        b.primaryNodeIndex(),
        b.blockRecoveryId());
  }
}
