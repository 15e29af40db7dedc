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

  /** One round. Errors are logged and the task runs again next round. */
  void runOnce() throws IOException;
}
