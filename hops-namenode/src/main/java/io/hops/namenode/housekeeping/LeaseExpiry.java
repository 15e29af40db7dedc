package io.hops.namenode.housekeeping;

import io.hops.namenode.leases.LeaseManager;
import java.io.IOException;

/** Releases the files of leases past their hard limit (HDFS LeaseManager.Monitor). */
final class LeaseExpiry implements HousekeepingTask {
  private final LeaseManager leases;

  LeaseExpiry(LeaseManager leases) {
    this.leases = leases;
  }

  @Override
  public boolean runsInSafeMode() {
    return false;
  }

  @Override
  public String name() {
    return "lease-expiry";
  }

  @Override
  public void runOnce() throws IOException {
    leases.releaseExpiredLeases();
  }
}
