package io.hops.namenode.housekeeping;

import io.hops.namenode.Namesystem;
import java.io.IOException;

/** Releases the files of leases past their hard limit (HDFS LeaseManager.Monitor). */
final class LeaseExpiry implements HousekeepingTask {
  private final Namesystem ns;

  LeaseExpiry(Namesystem ns) {
    this.ns = ns;
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
    ns.leases().releaseExpiredLeases();
  }
}
