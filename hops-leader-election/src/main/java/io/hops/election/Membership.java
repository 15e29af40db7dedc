package io.hops.election;

import java.util.List;

/**
 * The live namenodes in id order, as of one election round, with the leader's id ({@code -1} while
 * there is none) and the epoch of its leadership.
 */
public record Membership(List<Member> members, long leaderId, long epoch) {
  public static final Membership EMPTY = new Membership(List.of(), -1, 0);

  public Membership {
    members = List.copyOf(members);
  }

  /** The live ids, sorted. */
  public List<Long> ids() {
    return members.stream().map(Member::id).toList();
  }

  /** The leader's entry, or null. */
  public Member leader() {
    return members.stream().filter(Member::leader).findFirst().orElse(null);
  }
}
