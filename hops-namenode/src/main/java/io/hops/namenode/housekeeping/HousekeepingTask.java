package io.hops.namenode.housekeeping;

import java.io.IOException;

/**
 * One chore of the leader's housekeeping, run periodically. It reads what it needs from the
 * database each round (no state carried between rounds is authoritative), so another namenode can
 * take over at any time.
 */
public interface HousekeepingTask {
  /** The task's name in logs and metrics. */
  String name();

  /**
   * Whether the task runs while the cluster is in safe mode. As in HDFS, what changes replicas or
   * files on the namenode's own initiative (re-replication, invalidation, block release, lease
   * expiry) waits: an operator enters safe mode during a mass datanode loss to stop a storm of
   * copies and deletions, and a cluster that starts has not heard from all its datanodes yet.
   */
  default boolean runsInSafeMode() {
    return true;
  }

  /** One round. Errors are logged and the task runs again next round. */
  void runOnce() throws IOException;
}
