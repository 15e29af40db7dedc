package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;

/**
 * The file of a block named only by its id (a pipeline update, a datanode's block recovery): the
 * block's lookup row read committed, then the file's inode found by id and locked exclusively, as
 * every operation that changes a file's blocks locks the file first (docs/architecture.md, "Lock
 * order"). The inode is keyed by its parent and name, and only its id is known: PK + PK where this
 * namenode saw the file (its hint cache), PK + IS + PK where it did not.
 */
final class FileOfBlock {
  private FileOfBlock() {}

  /** The locked inode of the file that owns {@code block}, or null if the block or file is gone. */
  static InodeRow lock(LockPhase tx, ExtendedBlock block) throws IOException {
    BlockLookupRow lookup = lookup(tx, block);
    return lookup == null ? null : OpenFiles.byId(tx, lookup.inodeId());
  }

  /**
   * The locked inode of the file whose copy-on-truncate tail keeps {@code block} (the old block of
   * a truncate's copy, moved there when the copy's recovery committed), or null: the block's lookup
   * row, the tail by its id (an index scan, read committed), then the file as above.
   */
  static InodeRow lockTruncated(LockPhase tx, ExtendedBlock block) throws IOException {
    BlockLookupRow lookup = lookup(tx, block);
    if (lookup == null) {
      return null;
    }
    List<SnapshotFileTailRow> tails =
        tx.findByIndex(
            SnapshotFileTailRow.TABLE, "tail_id", lookup.inodeId(), LockMode.READ_COMMITTED);
    return tails.isEmpty() ? null : OpenFiles.byId(tx, tails.get(0).inodeId());
  }

  private static BlockLookupRow lookup(LockPhase tx, ExtendedBlock block) throws IOException {
    return tx.find(
        BlockLookupRow.TABLE,
        BlockLookupRow.TABLE.key(block.getBlockId()),
        LockMode.READ_COMMITTED);
  }

  /**
   * HDFS FSNamesystem.checkUCBlock: the block exists, is under construction, in a file being
   * written by {@code clientName}. Its messages.
   */
  static void checkUnderConstruction(
      ExtendedBlock block, BlockInfoRow stored, InodeRow file, String clientName)
      throws IOException {
    if (stored == null) {
      throw new IOException(block + " does not exist.");
    }
    if (stored.underConstructionState() != BlockState.UNDER_CONSTRUCTION) {
      throw new IOException(
          "Unexpected BlockUCState: "
              + block
              + " is "
              + BlockState.name(stored.underConstructionState())
              + " but not "
              + BlockState.name(BlockState.UNDER_CONSTRUCTION));
    }
    if (file == null || file.isDir() || !file.underConstruction()) {
      throw new IOException(
          "The file "
              + stored.blockId()
              + " belonged to does not exist or it is not under construction.");
    }
    if (clientName == null || !clientName.equals(file.clientName())) {
      throw new LeaseExpiredException(
          "Lease mismatch: " + block + " is accessed by a non lease holder " + clientName);
    }
  }
}
