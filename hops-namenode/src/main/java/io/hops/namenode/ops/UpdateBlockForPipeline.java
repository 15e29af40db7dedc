package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * {@code updateBlockForPipeline}: a writer rebuilding its pipeline (after a datanode failed, or to
 * append) gets a new generation stamp for its block under construction (HDFS
 * FSNamesystem.bumpBlockGenerationStamp). The block keeps its stamp until {@code updatePipeline}
 * commits the new one. Locks the file found from the block: PK + IS + PK + PK.
 */
public final class UpdateBlockForPipeline extends Operation<LocatedBlock> {
  private final BlockManager bm;
  private final ExtendedBlock block;
  private final String clientName;
  private InodeRow file;
  private BlockInfoRow stored;

  public UpdateBlockForPipeline(BlockManager bm, ExtendedBlock block, String clientName) {
    this.bm = bm;
    this.block = block;
    this.clientName = clientName;
  }

  @Override
  public String name() {
    return "updateBlockForPipeline";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    OpenFiles.checkPool(bm.blockPoolId(), block);
    file = FileOfBlock.lock(tx, block);
    if (file != null) {
      stored =
          tx.find(
              BlockInfoRow.TABLE,
              BlockInfoRow.TABLE.key(file.id(), block.getBlockId()),
              LockMode.EXCLUSIVE);
    }
  }

  @Override
  protected LocatedBlock execute(ExecutePhase tx) throws IOException {
    FileOfBlock.checkUnderConstruction(block, stored, file, clientName);
    ExtendedBlock bumped = new ExtendedBlock(block);
    bumped.setGenerationStamp(
        bm.newGenerationStamp(Math.max(stored.generationStamp(), block.getGenerationStamp())));
    return new LocatedBlock(bumped, new DatanodeInfo[0]);
  }
}
