package io.hops.namenode.ops;

import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.Set;

/**
 * {@code renewLease}: the holder's lease row, locked exclusively, gets a new last update: PK + W. A
 * holder without a lease (no open files) is not an error, as in HDFS.
 */
public final class RenewLease extends Operation<Void> {
  private final String holder;
  private final long now;
  private LeaseChanges leases;

  /** {@code now} is the cluster's time, which every namenode's lease checks use. */
  public RenewLease(String holder, long now) {
    this.holder = holder;
    this.now = now;
  }

  @Override
  public String name() {
    return "renewLease";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    leases = LeaseChanges.lock(tx, Set.of(holder));
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    leases.renew(holder, now);
    leases.flush(tx);
    return null;
  }
}
