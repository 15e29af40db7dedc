package io.hops.namenode.rpc;

import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.Caller;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;

/**
 * Block tokens for the caller on the blocks an answer carries, when block tokens are on, signed
 * after the transaction (HDFS's BlockManager.setBlockToken): an answer from the retry cache gets a
 * fresh token too.
 */
final class BlockTokenSigning {
  private BlockTokenSigning() {}

  static LocatedBlock signed(BlockTokens tokens, LocatedBlock b, AccessMode mode)
      throws IOException {
    if (tokens.enabled()) {
      tokens.sign(b, mode, Caller.current().user());
    }
    return b;
  }

  static LocatedBlocks signedForRead(BlockTokens tokens, LocatedBlocks blocks) throws IOException {
    if (tokens.enabled()) {
      tokens.signForRead(blocks, Caller.current().user());
    }
    return blocks;
  }
}
