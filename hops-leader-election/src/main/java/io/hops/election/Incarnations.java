package io.hops.election;

import io.hops.dal.rows.LeDescriptorRow;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

/**
 * The incarnations of the live contenders as of the last round, and since when each one that was
 * live has been missing (see {@link LeaderElection#goneSince}).
 */
final class Incarnations {
  private static final long FORGET_GONE_NANOS = TimeUnit.HOURS.toNanos(1);

  /** The incarnations of the live contenders as of the last round. */
  private volatile Set<Long> live = Set.of();

  /**
   * When each incarnation that was live went missing: the start of the first round that no longer
   * had it, dropped when it is live again (or after {@link #FORGET_GONE_NANOS}).
   */
  private final Map<Long, Long> goneSince = new ConcurrentHashMap<>();

  Set<Long> live() {
    return live;
  }

  OptionalLong goneSince(long incarnation) {
    Long since = goneSince.get(incarnation);
    return since == null ? OptionalLong.empty() : OptionalLong.of(since);
  }

  /** Takes the live contenders of a round that started at {@code roundStart}. */
  void afterRound(List<LeDescriptorRow> alive, long roundStart) {
    Set<Long> wasLive = live;
    live =
        alive.stream()
            .map(r -> r.incarnation() == 0 ? r.id() : r.incarnation())
            .collect(Collectors.toUnmodifiableSet());
    noteGone(wasLive, live, roundStart);
  }

  private void noteGone(Set<Long> wasLive, Set<Long> live, long roundStart) {
    for (long inc : wasLive) {
      if (!live.contains(inc)) {
        goneSince.putIfAbsent(inc, roundStart);
      }
    }
    goneSince.keySet().removeAll(live);
    goneSince.values().removeIf(since -> roundStart - since > FORGET_GONE_NANOS);
  }
}
