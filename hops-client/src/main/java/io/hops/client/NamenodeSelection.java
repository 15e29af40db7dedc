package io.hops.client;

import java.net.InetSocketAddress;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicInteger;

/** How one client picks the namenode for each call among the live ones. */
public enum NamenodeSelection {
  /** Every call to a namenode drawn at random. */
  RANDOM,
  /** Calls go to the live namenodes in turn. */
  ROUND_ROBIN,
  /** One namenode, drawn at random, takes all of a client's calls until it fails. */
  STICKY;

  /** Parses {@code random}, {@code round-robin} or {@code sticky} (any case). */
  public static NamenodeSelection parse(String name) {
    String n = name.trim().toLowerCase(Locale.ROOT);
    switch (n) {
      case "random":
        return RANDOM;
      case "round-robin":
        return ROUND_ROBIN;
      case "sticky":
        return STICKY;
      default:
        throw new IllegalArgumentException(
            "unknown namenode selection '" + name + "': random, round-robin or sticky");
    }
  }

  /** A picker with its own state (turn, sticky choice) for one client. */
  Picker newPicker() {
    switch (this) {
      case RANDOM:
        return candidates -> candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
      case ROUND_ROBIN:
        AtomicInteger turn = new AtomicInteger(ThreadLocalRandom.current().nextInt(1 << 16));
        return candidates ->
            candidates.get(Math.floorMod(turn.getAndIncrement(), candidates.size()));
      case STICKY:
        return new StickyPicker();
    }
    throw new AssertionError(this);
  }

  /** Chooses one of a non-empty list of live namenodes. */
  interface Picker {
    InetSocketAddress pick(List<InetSocketAddress> candidates);
  }

  /** Keeps its choice while it is among the candidates, i.e. until it is marked dead or leaves. */
  private static final class StickyPicker implements Picker {
    private InetSocketAddress chosen;

    @Override
    public synchronized InetSocketAddress pick(List<InetSocketAddress> candidates) {
      if (chosen == null || !candidates.contains(chosen)) {
        chosen = candidates.get(ThreadLocalRandom.current().nextInt(candidates.size()));
      }
      return chosen;
    }
  }
}
