package io.hops.election;

import io.hops.dal.StorageException;

/**
 * A leader-only transaction found that this namenode no longer holds the leadership it started with
 * (its lease ran out, or another namenode took over with a higher epoch): it is rolled back, so a
 * paused former leader never commits housekeeping after it lost the lease.
 */
public final class NotLeaderException extends StorageException {
  public NotLeaderException(String message) {
    super(message);
  }
}
