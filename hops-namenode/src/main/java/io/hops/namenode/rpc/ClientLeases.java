package io.hops.namenode.rpc;

import io.hops.election.ClusterClock;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.IsFileClosed;
import io.hops.namenode.ops.RecoverLease;
import io.hops.namenode.ops.RenewLease;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;

/** The {@code ClientProtocol} calls about a writer's lease: renew, recover, and is it closed. */
public final class ClientLeases {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final LeaseManager leases;
  private final ClusterClock clock;

  public ClientLeases(
      TransactionRunner runner,
      PermissionCheckers checkers,
      LeaseManager leases,
      ClusterClock clock) {
    this.runner = runner;
    this.checkers = checkers;
    this.leases = leases;
    this.clock = clock;
  }

  void renewLease(String clientName, List<String> namespaces) throws IOException {
    if (namespaces != null && !namespaces.isEmpty()) {
      throw new IOException("namespaces(" + namespaces + ") should be null or empty");
    }
    runner.run(() -> new RenewLease(LongNames.key(clientName), clock.now()));
  }

  boolean recoverLease(String src, String clientName) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new RecoverLease(pc, leases, src, LongNames.key(clientName)));
  }

  boolean isFileClosed(String src) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new IsFileClosed(pc, src));
  }
}
