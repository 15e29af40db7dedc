package io.hops.namenode.housekeeping;

import io.hops.namenode.subtree.SubtreeOperations;
import java.io.IOException;

/**
 * Finishes big deletes whose namenode died while freeing their rows: each round, the roots of
 * detached subtrees (one partition, see {@code Inodes.DETACHED}) whose reclaiming namenode has left
 * the membership are taken over and reclaimed on this namenode's reclaim thread, off the
 * housekeeping thread.
 */
final class DetachedSubtrees implements HousekeepingTask {
  private final SubtreeOperations subtrees;

  DetachedSubtrees(SubtreeOperations subtrees) {
    this.subtrees = subtrees;
  }

  @Override
  public String name() {
    return "deleted-subtree reclaim";
  }

  @Override
  public void runOnce() throws IOException {
    subtrees.resumeReclaims();
  }
}
