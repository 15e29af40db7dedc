package io.hops.election;

import java.time.Duration;

/**
 * The election's timing (docs/architecture.md, "Leader election"). A namenode is dead once its
 * counter has not advanced for {@code missedHeartbeats} periods; a leader's lease is {@link
 * #LEASE_FRACTION} of that, so that it stops acting as leader before any other namenode can take
 * its place, whatever its clock rate.
 */
public record ElectionSettings(Duration period, int missedHeartbeats, Duration maxPeriod) {
  /** The lease as a share of the time after which others declare a silent namenode dead. */
  public static final double LEASE_FRACTION = 0.9;

  public ElectionSettings {
    if (period.toMillis() <= 0 || missedHeartbeats < 1 || maxPeriod.compareTo(period) < 0) {
      throw new IllegalArgumentException(
          "bad leader election settings: period "
              + period
              + ", missed heartbeats "
              + missedHeartbeats
              + ", max period "
              + maxPeriod);
    }
  }

  public static ElectionSettings defaults() {
    return new ElectionSettings(Duration.ofSeconds(1), 2, Duration.ofSeconds(10));
  }

  /** How long a leader may act after the start of its last successful round, at this period. */
  public long leaseNanos(long periodMillis) {
    return (long) (LEASE_FRACTION * missedHeartbeats * periodMillis * 1_000_000L);
  }

  /** How long a counter must stand still before its namenode is dead, at this period. */
  public long deadAfterNanos(long periodMillis) {
    return missedHeartbeats * periodMillis * 1_000_000L;
  }
}
