package io.hops.namenode.housekeeping;

import io.hops.dal.AccessKind;
import io.hops.namenode.HopsTestCluster;
import java.util.concurrent.atomic.AtomicLong;

/** The transactions of one operation that commit from now on, and their pruned scans. */
record CountedTransactions(AtomicLong checks, AtomicLong scans) {
  static CountedTransactions of(HopsTestCluster cluster, String operation) {
    CountedTransactions c = new CountedTransactions(new AtomicLong(), new AtomicLong());
    cluster
        .namenode()
        .namesystem()
        .runner()
        .observe(
            (op, accesses) -> {
              if (op.equals(operation)) {
                c.checks.incrementAndGet();
                c.scans.addAndGet(accesses.get(AccessKind.PPIS));
              }
            });
    return c;
  }
}
