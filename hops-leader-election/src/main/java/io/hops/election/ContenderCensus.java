package io.hops.election;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.VariableRow;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One contender's watch of the others' counters, round after round: a contender is alive while its
 * counter was seen to advance within the dead-after interval at the period in force, dead once it
 * stood still for longer. Used by the round's thread only.
 */
final class ContenderCensus {
  /**
   * The counter of a contender, the monotonic time at which it was first seen at that value, and
   * whether this contender has seen it advance (a row read once may be a dead contender's).
   */
  private record Seen(long counter, long sinceNanos, boolean advanced) {}

  /**
   * What a round read of the contenders: those alive (their counter moved within the dead-after
   * interval, or first seen now), those dead, the ids present, the period in force, and when the
   * next contender ahead of this one would count as dead ({@code Long.MAX_VALUE}: none).
   */
  record Census(
      List<LeDescriptorRow> alive,
      List<Long> dead,
      Set<Long> present,
      long period,
      VariableRow periodRow,
      long nextDeadlineNanos) {}

  private final ElectionSettings settings;
  private final Map<Long, Seen> seen = new HashMap<>();

  ContenderCensus(ElectionSettings settings) {
    this.settings = settings;
  }

  /** Forgets every counter seen (a contender that joins again under a new id starts over). */
  void clear() {
    seen.clear();
  }

  /** Whether contender {@code id}'s counter was seen to advance. */
  boolean advanced(long id) {
    Seen s = seen.get(id);
    return s != null && s.advanced();
  }

  /**
   * Reads every contender's row and the period in force; a contender whose counter stood still for
   * the dead-after interval at that period is dead. {@code me} never is.
   */
  Census take(Transaction tx, long me, long start) throws StorageException {
    List<LeDescriptorRow> all = tx.scanAll(LeDescriptorRow.TABLE, LockMode.READ_COMMITTED);
    long readNanos = System.nanoTime();
    VariableRow periodRow =
        tx.find(
            VariableRow.TABLE, ElectionRows.key(ElectionRows.PERIOD_ROW), LockMode.READ_COMMITTED);
    long period =
        Math.max(settings.period().toMillis(), periodRow == null ? 0 : periodRow.longValue());
    // The period read now, never less than what any contender read before its last commit.
    long deadAfter = settings.deadAfterNanos(period);
    List<LeDescriptorRow> alive = new ArrayList<>();
    Set<Long> present = new HashSet<>();
    List<Long> dead = new ArrayList<>();
    for (LeDescriptorRow row : all) {
      present.add(row.id());
      Seen s = seen.get(row.id());
      if (s == null || s.counter() != row.counter()) {
        seen.put(row.id(), new Seen(row.counter(), readNanos, s != null));
        alive.add(row);
      } else if (row.id() == me || start - s.sinceNanos() < deadAfter) {
        alive.add(row);
      } else {
        dead.add(row.id());
      }
    }
    seen.keySet().retainAll(present);
    long deadline = Long.MAX_VALUE;
    for (LeDescriptorRow row : alive) {
      if (row.id() < me) {
        deadline = Math.min(deadline, seen.get(row.id()).sinceNanos() + deadAfter);
      }
    }
    return new Census(alive, dead, present, period, periodRow, deadline);
  }
}
