package io.hops.namenode.cli;

import io.hops.election.Member;
import io.hops.election.Membership;
import io.hops.election.MembershipText;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.Collection;
import java.util.concurrent.Callable;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RefreshResponse;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolClientSideTranslatorPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.net.NetUtils;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code hops namenodes}: the live namenodes and the leader, as any namenode answers them over its
 * RPC port (the membership extension call; docs/architecture.md, "Leader election").
 */
@Command(
    name = "namenodes",
    description =
        "List the live namenodes (id, RPC and web addresses, leader), asking any one of them.")
public final class NamenodesCommand implements Callable<Integer> {
  @Option(names = "--conf", paramLabel = "DIR", description = "Configuration directory.")
  String confDir = "conf";

  @Option(
      names = "--namenode",
      paramLabel = "hdfs://HOST:PORT",
      description = "The namenode to ask (default: fs.defaultFS of the configuration).")
  String namenode;

  @Override
  public Integer call() throws Exception {
    Configuration conf = Confs.clientConf(confDir);
    URI uri = URI.create(namenode != null ? namenode : FileSystem.getDefaultUri(conf).toString());
    InetSocketAddress address = NetUtils.createSocketAddr(uri.getAuthority(), 8020);
    Membership m = fetch(address, conf);
    System.out.printf("%-6s %-24s %-24s %-8s%n", "id", "rpc", "http", "role");
    for (Member n : m.members()) {
      System.out.printf(
          "%-6d %-24s %-24s %-8s%n",
          n.id(), n.rpcAddress(), n.httpAddress(), n.leader() ? "leader" : "-");
    }
    System.out.println(
        m.members().size()
            + " live namenode(s); leader "
            + (m.leaderId() < 0 ? "none yet" : "id " + m.leaderId())
            + ", epoch "
            + m.epoch());
    return 0;
  }

  /** Asks the namenode at {@code address} for the membership. */
  public static Membership fetch(InetSocketAddress address, Configuration conf) throws IOException {
    Configuration c = new Configuration(conf);
    RPC.setProtocolEngine(c, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    GenericRefreshProtocolPB proxy =
        RPC.getProxy(
            GenericRefreshProtocolPB.class,
            RPC.getProtocolVersion(GenericRefreshProtocolPB.class),
            address,
            c);
    try (GenericRefreshProtocolClientSideTranslatorPB client =
        new GenericRefreshProtocolClientSideTranslatorPB(proxy)) {
      Collection<RefreshResponse> answers =
          client.refresh(MembershipText.RPC_IDENTIFIER, new String[0]);
      RefreshResponse r = answers.iterator().next();
      if (r.getReturnCode() != 0) {
        throw new IOException("namenode " + address + " refused: " + r.getMessage());
      }
      return MembershipText.decode(r.getMessage());
    }
  }
}
