package io.hops.namenode.blocks;

import io.hops.election.LeaderElection;
import io.hops.election.Membership;
import java.util.List;
import java.util.function.Predicate;

/**
 * Which namenode processes a datanode's block reports (docs/architecture.md, "Wire compatibility"):
 * every datanode reports to every namenode, and exactly one of the live namenodes, chosen by a hash
 * of the datanode's uuid over the sorted live ids, applies them. When the membership changes the
 * datanode is re-owned at the next round, and a new owner asks the datanode for a full report to
 * catch up on what it missed. Views of the membership differ for a moment around a change, so two
 * namenodes may both apply a datanode's reports, out of order with each other: a full report
 * removes only replicas recorded before it was asked for (see {@code DatanodeRpc.blockReport}).
 */
public final class ReportOwnership {
  private final BlockManager bm;
  private volatile Predicate<String> forced;

  ReportOwnership(BlockManager bm) {
    this.bm = bm;
  }

  /** Whether this namenode processes the reports of {@code datanodeUuid}. */
  public boolean owns(String datanodeUuid) {
    Predicate<String> f = forced;
    if (f != null) {
      return f.test(datanodeUuid);
    }
    LeaderElection e = bm.election();
    if (e == null) {
      return false;
    }
    return ownerOf(datanodeUuid, e.membership()) == e.id();
  }

  /**
   * Fault injection for tests: from now on this namenode owns the reports of the datanodes {@code
   * owns} accepts and of no other, as a view of the membership that differs from the other
   * namenodes' would make it; null goes back to the membership.
   */
  public void forceForTesting(Predicate<String> owns) {
    forced = owns;
  }

  /** The owner's id among the live namenodes, or -1 when there are none. */
  public static long ownerOf(String datanodeUuid, Membership m) {
    List<Long> ids = m.ids();
    if (ids.isEmpty()) {
      return -1;
    }
    return ids.get(Math.floorMod(mix(datanodeUuid.hashCode()), ids.size()));
  }

  /** Spreads similar uuids (murmur3's finalizer). */
  private static int mix(int h) {
    h ^= h >>> 16;
    h *= 0x85ebca6b;
    h ^= h >>> 13;
    h *= 0xc2b2ae35;
    h ^= h >>> 16;
    return h;
  }
}
