package io.hops.namenode.quota;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockState;

/**
 * The storage space a file counts against its quotas, as HDFS counts it
 * (INodeFile.storagespaceConsumed): its bytes times its replication, where a last block that is not
 * yet complete counts as a full block of the file's preferred size, so that a writer is refused
 * when it asks for the block ({@code addBlock}), not half-way through writing it.
 */
public final class FileSpace {
  private FileSpace() {}

  /** The space of {@code file}, whose last block is {@code last} (null: none or unknown). */
  public static long of(InodeRow file, BlockInfoRow last) {
    return bytes(file, last) * file.replication();
  }

  /** The space of {@code file} before replication. */
  public static long bytes(InodeRow file, BlockInfoRow last) {
    if (file.isDir()) {
      return 0;
    }
    return file.size() + unwritten(file.preferredBlockSize(), last);
  }

  /** As {@link #bytes}, with the file's size and replication given. */
  public static long of(long size, int replication, long preferred, BlockInfoRow last) {
    return (size + unwritten(preferred, last)) * replication;
  }

  /**
   * What a last block being written adds to the bytes written so far: the rest of a full block. A
   * committed block counts as written (HDFS commitOrCompleteLastBlock gives the rest back then).
   */
  private static long unwritten(long preferred, BlockInfoRow last) {
    if (last == null) {
      return 0;
    }
    byte s = last.underConstructionState();
    if (s == BlockState.UNDER_CONSTRUCTION || s == BlockState.UNDER_RECOVERY) {
      return Math.max(0, preferred - last.numBytes());
    }
    return 0;
  }
}
