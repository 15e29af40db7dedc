package io.hops.election;

import java.util.ArrayList;
import java.util.List;

/**
 * The membership as text, one namenode a line, for the extension RPC that every namenode serves
 * (Hadoop's generic refresh call, identifier {@link #RPC_IDENTIFIER}) and for operators' tools:
 *
 * <pre>
 * epoch 7 leader 3
 * 3	host-a	10.0.0.1:8020	10.0.0.1:9870	1732381234000	leader
 * 5	host-b	10.0.0.2:8020	10.0.0.2:9870	1732381299000	-
 * </pre>
 */
public final class MembershipText {
  /** The identifier of the generic refresh call that answers with the membership. */
  public static final String RPC_IDENTIFIER = "hops.namenodes";

  private MembershipText() {}

  public static String encode(Membership m) {
    StringBuilder out = new StringBuilder();
    out.append("epoch ").append(m.epoch()).append(" leader ").append(m.leaderId()).append('\n');
    for (Member n : m.members()) {
      out.append(n.id())
          .append('\t')
          .append(blankIfNull(n.hostname()))
          .append('\t')
          .append(blankIfNull(n.rpcAddress()))
          .append('\t')
          .append(blankIfNull(n.httpAddress()))
          .append('\t')
          .append(n.startTime())
          .append('\t')
          .append(n.leader() ? "leader" : "-")
          .append('\n');
    }
    return out.toString();
  }

  public static Membership decode(String text) {
    String[] lines = text.split("\n");
    String[] head = lines[0].trim().split(" ");
    if (head.length != 4 || !head[0].equals("epoch") || !head[2].equals("leader")) {
      throw new IllegalArgumentException("not a hops membership: " + lines[0]);
    }
    List<Member> members = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      if (lines[i].isBlank()) {
        continue;
      }
      String[] f = lines[i].split("\t", -1);
      members.add(
          new Member(
              Long.parseLong(f[0]), f[1], f[2], f[3], Long.parseLong(f[4]), f[5].equals("leader")));
    }
    return new Membership(members, Long.parseLong(head[3]), Long.parseLong(head[1]));
  }

  private static String blankIfNull(String s) {
    return s == null ? "" : s;
  }
}
