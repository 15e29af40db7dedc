package io.hops.namenode.rpc;

import io.hops.election.LeaderElection;
import io.hops.election.Membership;
import io.hops.election.MembershipText;
import io.hops.namenode.blocks.BlockManager;
import java.util.List;
import org.apache.hadoop.ipc.GenericRefreshProtocol;
import org.apache.hadoop.ipc.RefreshResponse;

/**
 * The extension RPC every namenode serves on its RPC port: Hadoop's generic refresh call with the
 * identifier {@code hops.namenodes} answers with the live namenodes and the leader ({@link
 * MembershipText}), so clients and tools learn them from any one address. Also reachable with the
 * stock tool: {@code hdfs dfsadmin -refresh HOST:PORT hops.namenodes}.
 */
public final class MembershipRpc implements GenericRefreshProtocol {
  private final BlockManager bm;

  public MembershipRpc(BlockManager bm) {
    this.bm = bm;
  }

  @Override
  public List<RefreshResponse> refresh(String identifier, String[] args) {
    if (!MembershipText.RPC_IDENTIFIER.equals(identifier)) {
      return List.of(
          new RefreshResponse(
              -1,
              "hops namenodes answer only the refresh identifier "
                  + MembershipText.RPC_IDENTIFIER
                  + ", not "
                  + identifier));
    }
    LeaderElection e = bm.election();
    Membership m = e == null ? Membership.EMPTY : e.membership();
    RefreshResponse r = new RefreshResponse(0, MembershipText.encode(m));
    r.setSenderName("hops");
    return List.of(r);
  }
}
