package io.hops.client;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;

/**
 * Asks one namenode for the live namenodes through Hadoop's generic refresh call (identifier {@code
 * hops.namenodes}). The answer is the text of {@code io.hops.election.MembershipText}; it is parsed
 * here so that the client needs no hops jar but its own.
 */
final class MembershipClient {
  static final String RPC_IDENTIFIER = "hops.namenodes";

  private MembershipClient() {}

  /** The RPC addresses of the live namenodes, as {@code namenode} sees them. */
  static List<InetSocketAddress> fetch(InetSocketAddress namenode, Configuration conf)
      throws IOException {
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    GenericRefreshProtocolPB proxy =
        RPC.getProxy(
            GenericRefreshProtocolPB.class,
            RPC.getProtocolVersion(GenericRefreshProtocolPB.class),
            namenode,
            c);
    try (GenericRefreshProtocolClientSideTranslatorPB client =
        new GenericRefreshProtocolClientSideTranslatorPB(proxy)) {
      Collection<RefreshResponse> answers = client.refresh(RPC_IDENTIFIER, new String[0]);
      if (answers.isEmpty()) {
        throw new IOException("namenode " + namenode + " gave no membership");
      }
      RefreshResponse r = answers.iterator().next();
      if (r.getReturnCode() != 0) {
        throw new IOException("namenode " + namenode + " refused: " + r.getMessage());
      }
      return rpcAddresses(r.getMessage());
    }
  }

  /**
   * The RPC addresses (third field) of the member lines of a membership text: a header line {@code
   * epoch E leader ID}, then {@code id, hostname, rpc, http, startTime, leader|-}, tab-separated.
   */
  static List<InetSocketAddress> rpcAddresses(String text) throws IOException {
    String[] lines = text.split("\n");
    if (lines.length == 0 || !lines[0].startsWith("epoch ")) {
      throw new IOException("not a hops membership: " + text);
    }
    List<InetSocketAddress> out = new ArrayList<>();
    for (int i = 1; i < lines.length; i++) {
      String[] f = lines[i].split("\t", -1);
      if (f.length >= 3 && !f[2].isBlank()) {
        out.add(NetUtils.createSocketAddr(f[2].trim()));
      }
    }
    return out;
  }
}
