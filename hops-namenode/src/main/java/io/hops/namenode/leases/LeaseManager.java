package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.Namesystem;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Write leases, kept in the {@code leases} and {@code lease_paths} tables so that any namenode can
 * serve any client. A lease is renewed by its holder (the client's {@code renewLease}); past the
 * soft limit another client may take its files over, past the hard limit {@link
 * #releaseExpiredLeases} releases them through the {@link LeaseRecovery} hook. Times are wall-clock
 * milliseconds, comparable across namenodes.
 *
 * <p>It starts no thread: the leader's housekeeping calls {@link #releaseExpiredLeases}
 * periodically.
 */
public final class LeaseManager {
  private static final Logger LOG = LoggerFactory.getLogger(LeaseManager.class);

  /**
   * The soft limit in milliseconds. HDFS fixes it at {@link HdfsConstants#LEASE_SOFTLIMIT_PERIOD}
   * (60 s); hops lets tests shorten it.
   */
  public static final String SOFT_LIMIT_MS = "hops.namenode.lease.soft-limit.ms";

  private final Namesystem ns;
  private final LeaseRecovery recovery;
  private final long softLimitMillis;
  private final long hardLimitMillis;

  /** Leases whose expired files are released by {@link ZeroLengthFileRecovery}. */
  public LeaseManager(Namesystem ns) {
    this(ns, new ZeroLengthFileRecovery());
  }

  public LeaseManager(Namesystem ns, LeaseRecovery recovery) {
    this.ns = ns;
    this.recovery = recovery;
    this.softLimitMillis = ns.conf().getLong(SOFT_LIMIT_MS, HdfsConstants.LEASE_SOFTLIMIT_PERIOD);
    this.hardLimitMillis =
        ns.conf()
                .getLong(
                    DFSConfigKeys.DFS_LEASE_HARDLIMIT_KEY,
                    DFSConfigKeys.DFS_LEASE_HARDLIMIT_DEFAULT)
            * 1000;
  }

  public LeaseRecovery recovery() {
    return recovery;
  }

  /** Whether the holder has not renewed within the soft limit: another client may take over. */
  public boolean expiredSoftLimit(LeaseRow lease, long now) {
    return now - lease.lastUpdate() > softLimitMillis;
  }

  /** Whether the holder has not renewed within the hard limit: its files are released. */
  public boolean expiredHardLimit(LeaseRow lease, long now) {
    return now - lease.lastUpdate() > hardLimitMillis;
  }

  /**
   * Releases the files of every lease past its hard limit, one transaction per file, and drops
   * leases left without files. Housekeeping: finding the expired leases is a full table scan and
   * finding their files an index scan, both read committed; each release then locks and checks
   * again. Returns the number of files closed.
   */
  public int releaseExpiredLeases() throws IOException {
    long now = System.currentTimeMillis();
    List<LeaseRow> expired = new ArrayList<>();
    List<List<LeasePathRow>> files = new ArrayList<>();
    try (Transaction tx = ns.storage().begin()) {
      for (LeaseRow lease : tx.scanAll(LeaseRow.TABLE, LockMode.READ_COMMITTED)) {
        if (expiredHardLimit(lease, now)) {
          expired.add(lease);
          files.add(
              tx.findByIndex(
                  LeasePathRow.TABLE, "holder", lease.holder(), LockMode.READ_COMMITTED));
        }
      }
    }
    int closed = 0;
    for (int i = 0; i < expired.size(); i++) {
      String holder = expired.get(i).holder();
      LOG.info(
          "lease of {} has expired its hard limit: releasing {} file(s)",
          holder,
          files.get(i).size());
      if (files.get(i).isEmpty()) {
        ns.run(() -> new ReleaseLease(this, holder, ReleaseLease.NO_FILE));
      }
      for (LeasePathRow file : files.get(i)) {
        if (ns.run(() -> new ReleaseLease(this, holder, file.inodeId()))) {
          closed++;
        }
      }
    }
    return closed;
  }
}
