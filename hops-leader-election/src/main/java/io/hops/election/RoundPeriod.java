package io.hops.election;

import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The period of the election's rounds as one contender keeps it: the value in force (read each
 * round from {@code variables}), raised when this contender's rounds run slow. Any contender raises
 * it, not only the leader: a slow one would otherwise miss its deadlines and join again, round
 * after round.
 */
final class RoundPeriod {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final ElectionSettings settings;
  private final ElectionRows rows;
  private long millis;
  private long lastRoundNanos;

  RoundPeriod(ElectionSettings settings, ElectionRows rows) {
    this.settings = settings;
    this.rows = rows;
    this.millis = settings.period().toMillis();
  }

  /** The period in force, in milliseconds, as of the last committed round. */
  long millis() {
    return millis;
  }

  /** A round committed having read {@code millis} as the period in force. */
  void committed(long millis) {
    this.millis = millis;
  }

  /** A round ended, having taken {@code nanos}. */
  void roundTook(long nanos) {
    lastRoundNanos = nanos;
  }

  /**
   * Raises the period in force, {@code period} as read by this round, if the last round ran slow.
   */
  void raiseIfSlow(Transaction tx, long me, long period, VariableRow periodRow)
      throws StorageException {
    long raised = raised(period);
    if (raised > period) {
      rows.writePeriod(tx, raised, periodRow);
      LOG.warn(
          "leader election rounds of id {} run slow ({} ms): period raised from {} to {} ms",
          me,
          lastRoundNanos / 1_000_000L,
          period,
          raised);
    }
  }

  /** When a round takes over half the period, the period goes up by the configured period. */
  private long raised(long period) {
    if (lastRoundNanos * 2 <= period * 1_000_000L) {
      return period;
    }
    return Math.min(settings.maxPeriod().toMillis(), period + settings.period().toMillis());
  }
}
