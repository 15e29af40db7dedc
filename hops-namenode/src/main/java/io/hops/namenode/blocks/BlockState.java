package io.hops.namenode.blocks;

import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.BlockUCState;

/**
 * The states of a block, stored as a byte in {@code block_infos.under_construction_state}: the
 * ordinal of HDFS's {@link BlockUCState}.
 */
public final class BlockState {
  public static final byte COMPLETE = (byte) BlockUCState.COMPLETE.ordinal();
  public static final byte UNDER_CONSTRUCTION = (byte) BlockUCState.UNDER_CONSTRUCTION.ordinal();
  public static final byte UNDER_RECOVERY = (byte) BlockUCState.UNDER_RECOVERY.ordinal();
  public static final byte COMMITTED = (byte) BlockUCState.COMMITTED.ordinal();

  private BlockState() {}

  public static String name(byte state) {
    return BlockUCState.values()[state].name();
  }
}
