package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * {@code hdfs fsck -replicate}: queues a file's mis-replicated blocks (found by the fsck walk) for
 * the leader's replication check, which copies each to another rack and then deletes the surplus
 * (HDFS BlockManager.processMisReplicatedBlocks). One transaction: the file's block rows locked
 * exclusively (as the check and setReplication lock them), its queued marks read committed, one
 * pruned scan each; a block gone is skipped, one already queued stays as it is. Answers how many of
 * the blocks are queued now, as HDFS counts the blocks it processed ("Blocks queued for
 * replication").
 */
public final class QueueMisplacedBlocks extends Operation<Integer> {
  private final BlockManager bm;
  private final long inodeId;
  private final Set<Long> blockIds;
  private List<BlockInfoRow> blocks;
  private final Set<Long> queued = new HashSet<>();

  public QueueMisplacedBlocks(BlockManager bm, long inodeId, Set<Long> blockIds) {
    this.bm = bm;
    this.inodeId = inodeId;
    this.blockIds = blockIds;
  }

  @Override
  public String name() {
    return "queueMisplacedBlocks";
  }

  @Override
  public Object partitionHint() {
    return inodeId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    blocks = tx.findByPartition(BlockInfoRow.TABLE, inodeId, LockMode.EXCLUSIVE);
    tx.findByPartition(UnderReplicatedBlockRow.TABLE, inodeId, LockMode.READ_COMMITTED)
        .forEach(r -> queued.add(r.blockId()));
  }

  @Override
  protected Integer execute(ExecutePhase tx) throws IOException {
    int n = 0;
    for (BlockInfoRow b : blocks) {
      if (!blockIds.contains(b.blockId())) {
        continue;
      }
      if (queued.add(b.blockId())) {
        tx.insert(
            UnderReplicatedBlockRow.TABLE,
            new UnderReplicatedBlockRow(inodeId, b.blockId(), 0, bm.now(), -1));
      }
      n++;
    }
    return n;
  }
}
