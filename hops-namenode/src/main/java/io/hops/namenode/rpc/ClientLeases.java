package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.IsFileClosed;
import io.hops.namenode.ops.RecoverLease;
import io.hops.namenode.ops.RenewLease;
import io.hops.namenode.security.LongNames;
import java.io.IOException;
import java.util.List;

/** The {@code ClientProtocol} calls about a writer's lease: renew, recover, and is it closed. */
final class ClientLeases {
  private final Namesystem ns;

  ClientLeases(Namesystem ns) {
    this.ns = ns;
  }

  void renewLease(String clientName, List<String> namespaces) throws IOException {
    if (namespaces != null && !namespaces.isEmpty()) {
      throw new IOException("namespaces(" + namespaces + ") should be null or empty");
    }
    ns.run(() -> new RenewLease(LongNames.key(clientName), ns.blocks().now()));
  }

  boolean recoverLease(String src, String clientName) throws IOException {
    var pc = ns.checker();
    var leases = ns.leases();
    return ns.run(() -> new RecoverLease(pc, leases, src, LongNames.key(clientName)));
  }

  boolean isFileClosed(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new IsFileClosed(pc, src));
  }
}
