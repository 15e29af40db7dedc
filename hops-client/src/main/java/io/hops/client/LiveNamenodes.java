package io.hops.client;

import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;

/**
 * The namenodes a client may call: the latest membership (the configured seeds until the first
 * refresh), less those that failed a call within the dead-namenode TTL.
 */
final class LiveNamenodes {
  private final long deadTtlNanos;
  private final LongSupplier nanoClock;
  private volatile List<InetSocketAddress> known;
  private final Map<InetSocketAddress, Long> deadUntil = new ConcurrentHashMap<>();

  LiveNamenodes(List<InetSocketAddress> seeds, long deadTtlNanos, LongSupplier nanoClock) {
    if (seeds.isEmpty()) {
      throw new IllegalArgumentException("no namenode address configured");
    }
    this.known = List.copyOf(seeds);
    this.deadTtlNanos = deadTtlNanos;
    this.nanoClock = nanoClock;
  }

  /** Replaces the list with a fresh membership; an empty one (nobody alive?) is ignored. */
  void replace(List<InetSocketAddress> members) {
    if (!members.isEmpty()) {
      known = List.copyOf(members);
    }
  }

  List<InetSocketAddress> known() {
    return known;
  }

  void markDead(InetSocketAddress nn) {
    deadUntil.put(nn, nanoClock.getAsLong() + deadTtlNanos);
  }

  /**
   * The namenodes not marked dead; all of them when every one is marked, since a call must go
   * somewhere and the client's retry policy bounds the attempts.
   */
  List<InetSocketAddress> candidates() {
    long now = nanoClock.getAsLong();
    List<InetSocketAddress> all = known;
    List<InetSocketAddress> alive = new ArrayList<>(all.size());
    for (InetSocketAddress nn : all) {
      Long until = deadUntil.get(nn);
      if (until == null || until - now <= 0) {
        alive.add(nn);
      }
    }
    return alive.isEmpty() ? all : alive;
  }
}
