package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code updatePipeline}: the writer rebuilt its pipeline; the block under construction takes the
 * new generation stamp and the acknowledged length, and its expected locations become the new
 * pipeline (HDFS FSNamesystem.updatePipelineInternal). The file's length follows the block's. Locks
 * the file found from the block, then its tail (see {@link FileBlockTail#lock}).
 */
public final class UpdatePipeline extends Operation<Void> {
  private static final Logger LOG = LoggerFactory.getLogger(UpdatePipeline.class);

  private final BlockManager bm;
  private final String clientName;
  private final ExtendedBlock oldBlock;
  private final ExtendedBlock newBlock;
  private final DatanodeID[] newNodes;
  private final String[] newStorageIds;
  private InodeRow file;
  private FileBlocks blocks;
  private List<Integer> pipeline;

  public UpdatePipeline(
      BlockManager bm,
      String clientName,
      ExtendedBlock oldBlock,
      ExtendedBlock newBlock,
      DatanodeID[] newNodes,
      String[] newStorageIds) {
    this.bm = bm;
    this.clientName = clientName;
    this.oldBlock = oldBlock;
    this.newBlock = newBlock;
    this.newNodes = newNodes == null ? new DatanodeID[0] : newNodes;
    this.newStorageIds = newStorageIds;
  }

  @Override
  public String name() {
    return "updatePipeline";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    OpenFiles.checkPool(bm.blockPoolId(), oldBlock);
    if (newBlock.getBlockId() != oldBlock.getBlockId()) {
      throw new IOException(newBlock + " and " + oldBlock + " has different block identifier");
    }
    file = FileOfBlock.lock(tx, oldBlock);
    if (file != null && !file.isDir()) {
      blocks =
          FileBlockTail.lock(
              tx, file, LockMode.EXCLUSIVE, bm.datanodes(), oldBlock.getBlockId(), false);
    }
    pipeline = storageIds(bm.datanodes(), newNodes, newStorageIds);
  }

  /**
   * The storage ids of the new pipeline, as HDFS getDatanodeStorageInfos finds them: a node or
   * storage this namenode does not know is left out. Resolved before the execute phase, since a
   * storage seen for the first time gets its id in a transaction of its own.
   */
  static List<Integer> storageIds(DatanodeManager dm, DatanodeID[] nodes, String[] storages)
      throws StorageException {
    List<Integer> ids = new ArrayList<>();
    for (int i = 0; i < nodes.length; i++) {
      String uuid = storages != null && i < storages.length ? storages[i] : null;
      DatanodeState n = dm.node(nodes[i].getDatanodeUuid());
      if (n == null || uuid == null) {
        LOG.warn("pipeline names unknown datanode {} or storage {}", nodes[i], uuid);
        continue;
      }
      StorageRef ref = null;
      for (StorageStat s : n.storages()) {
        if (s.ref.storageUuid().equals(uuid)) {
          ref = s.ref;
        }
      }
      if (ref == null) {
        ref = dm.storageRef(uuid, n.uuid(), StorageType.DEFAULT);
      }
      if (!ids.contains(ref.id())) {
        ids.add(ref.id());
      }
    }
    return ids;
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    BlockInfoRow stored = blocks == null ? null : blocks.block(oldBlock.getBlockId());
    FileOfBlock.checkUnderConstruction(oldBlock, stored, file, clientName);
    BlockInfoRow last = blocks.last();
    if (last.blockId() != stored.blockId()) {
      throw new IOException(
          "Update "
              + oldBlock
              + ": it is not the last block of its file ("
              + bm.extended(last)
              + ")");
    }
    if (newBlock.getGenerationStamp() <= last.generationStamp()) {
      throw new IOException(
          "Update "
              + oldBlock
              + " but the new block "
              + newBlock
              + " does not have a larger generation stamp than the last block "
              + bm.extended(last).getLocalBlock());
    }
    if (newBlock.getNumBytes() < last.numBytes()) {
      throw new IOException(
          "Update "
              + oldBlock
              + " (size="
              + oldBlock.getNumBytes()
              + ") to a smaller size block "
              + newBlock
              + " (size="
              + newBlock.getNumBytes()
              + ")");
    }
    BlockInfoRow updated =
        new BlockInfoRow(
            last.inodeId(),
            last.blockId(),
            last.blockIndex(),
            last.startOffset(),
            newBlock.getNumBytes(),
            newBlock.getGenerationStamp(),
            last.underConstructionState(),
            last.timestamp(),
            last.primaryNodeIndex(),
            last.blockRecoveryId());
    tx.update(BlockInfoRow.TABLE, updated);
    bm.setExpected(tx, updated, blocks.expected(last.blockId()), pipeline);
    blocks.replace(updated);
    MutableInode inode = MutableInode.of(file);
    inode.size = blocks.length();
    tx.update(InodeRow.TABLE, inode.toRow());
    LOG.info(
        "updatePipeline({} => {}, newNodes={}) success",
        oldBlock.getLocalBlock(),
        newBlock.getLocalBlock(),
        pipeline);
    return null;
  }
}
