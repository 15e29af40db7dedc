package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signed;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.ops.GetAdditionalDatanode;
import io.hops.namenode.ops.UpdateBlockForPipeline;
import io.hops.namenode.ops.UpdatePipeline;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;

/**
 * The {@code ClientProtocol} calls a writer makes to recover its pipeline: a datanode to replace a
 * failed one, a new generation stamp, and the recovered pipeline.
 */
public final class ClientPipeline {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final BlockTokens blockTokens;

  public ClientPipeline(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      BlockTokens blockTokens) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.blockTokens = blockTokens;
  }

  LocatedBlock getAdditionalDatanode(
      String src,
      long fileId,
      ExtendedBlock blk,
      DatanodeInfo[] existings,
      String[] existingStorageIDs,
      DatanodeInfo[] excludes,
      int numAdditionalNodes,
      String clientName)
      throws IOException {
    var pc = checkers.ofCaller();
    return signed(
        blockTokens,
        runner.run(
            () ->
                new GetAdditionalDatanode(
                    pc,
                    blocks,
                    src,
                    fileId,
                    blk,
                    existings,
                    existingStorageIDs,
                    excludes,
                    numAdditionalNodes,
                    LongNames.key(clientName))),
        AccessMode.COPY);
  }

  LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName) throws IOException {
    return signed(
        blockTokens,
        runner.run(() -> new UpdateBlockForPipeline(blocks, block, LongNames.key(clientName))),
        AccessMode.WRITE);
  }

  void updatePipeline(
      String clientName,
      ExtendedBlock oldBlock,
      ExtendedBlock newBlock,
      DatanodeID[] newNodes,
      String[] newStorageIDs)
      throws IOException {
    // @AtMostOnce in HDFS: a resend of an update that committed would find the block already at
    // the new generation stamp and fail the writer's pipeline recovery.
    runner.runAtMostOnce(
        () ->
            new UpdatePipeline(
                blocks, LongNames.key(clientName), oldBlock, newBlock, newNodes, newStorageIDs),
        ClientCalls.keptWith("updatePipeline"));
  }
}
