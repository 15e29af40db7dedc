package io.hops.election;

import io.hops.dal.rows.LeDescriptorRow;
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

  /** The membership an election round saw: its live rows, in id order, and its leader. */
  static Membership of(List<LeDescriptorRow> alive, long leaderId, long epoch) {
    return new Membership(
        alive.stream()
            .sorted((a, b) -> Long.compare(a.id(), b.id()))
            .map(
                r ->
                    new Member(
                        r.id(),
                        r.hostname(),
                        r.rpcAddress(),
                        r.httpAddress(),
                        r.startTime(),
                        r.id() == leaderId))
            .toList(),
        leaderId,
        epoch);
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
