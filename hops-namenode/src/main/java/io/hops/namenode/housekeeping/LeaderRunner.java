package io.hops.namenode.housekeeping;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.function.Supplier;

/**
 * Runs housekeeping's writes as transactions fenced by the election: each commits only if this
 * namenode still leads at the epoch the database names (docs/architecture.md, "Wire
 * compatibility"), so a leader that lost its lease mid-round changes nothing.
 */
final class LeaderRunner {
  private final TransactionRunner runner;
  private final TransactionRunner.Fence fence;

  LeaderRunner(TransactionRunner runner, BlockManager blockManager) {
    this.runner = runner;
    this.fence = blockManager.leaderFence();
  }

  <T> T run(Supplier<? extends Operation<T>> op) throws IOException {
    return runner.run(op, fence);
  }
}
