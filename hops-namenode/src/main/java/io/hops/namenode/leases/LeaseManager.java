package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Write leases, kept in the {@code leases} and {@code lease_paths} tables so that any namenode can
 * serve any client. A lease is renewed by its holder (the client's {@code renewLease}); past the
 * soft limit another client may take its files over, past the hard limit {@link
 * #releaseExpiredLeases} releases them through the {@link LeaseRecovery} hook (by default {@link
 * BlockRecovery}). Times are the cluster's clock ({@link #now}: the database's), comparable across
 * namenodes, never one namenode's wall clock.
 *
 * <p>A file whose last block is being recovered belongs to the namenode's recovery holder ({@code
 * HDFS_NameNode-<start time>}, one per namenode, as HDFS names it). {@link #releaseExpiredLeases}
 * looks at every file of every recovery holder each pass over the leases (a page of leases a round,
 * {@code hops.namenode.housekeeping.page.rows}), so that the leader sends the recoveries other
 * namenodes started and starts again those that did not finish within {@link
 * #BLOCK_RECOVERY_TIMEOUT_MS}.
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
  public static final String SOFT_LIMIT_MS = NamenodeConfig.LEASE_SOFT_LIMIT_MS;

  /**
   * How long a block recovery may take before it is started again with a new recovery id and the
   * next primary. HDFS: 30 heartbeat intervals.
   */
  public static final String BLOCK_RECOVERY_TIMEOUT_MS = NamenodeConfig.BLOCK_RECOVERY_TIMEOUT_MS;

  private static final int BLOCK_RECOVERY_TIMEOUT_HEARTBEATS = 30;

  private final BlockManager blocks;
  private final TransactionRunner runner;
  private final LeaseRecovery recovery;
  private final long softLimitMillis;
  private final long hardLimitMillis;
  private final long recoveryTimeoutMillis;
  private final int leasePageRows;

  /**
   * The last lease of the last page {@link #releaseExpiredLeases} read (null: start over). The
   * leader's memory only: a round reads one page of leases, so a million leases cost a round a page
   * and a pass as many rounds as pages.
   */
  private Key leaseCursor;

  private final String recoveryHolder =
      HdfsServerConstants.NAMENODE_LEASE_HOLDER + "-" + Time.formatTime(Time.now());

  /**
   * Leases whose expired files are released by {@link BlockRecovery}: read with {@code conf}'s
   * limits, on {@code blocks}' clock, in transactions of {@code runner} (the leader's fenced by
   * {@link BlockManager#checkLeader}).
   */
  public LeaseManager(Configuration conf, BlockManager blocks, TransactionRunner runner) {
    this.blocks = blocks;
    this.runner = runner;
    this.recovery = new BlockRecovery(blocks, this);
    this.leasePageRows =
        Math.max(
            1,
            conf.getInt(
                NamenodeConfig.HOUSEKEEPING_PAGE_ROWS,
                NamenodeConfig.HOUSEKEEPING_PAGE_ROWS_DEFAULT));
    this.softLimitMillis = conf.getLong(SOFT_LIMIT_MS, HdfsConstants.LEASE_SOFTLIMIT_PERIOD);
    this.hardLimitMillis =
        conf.getLong(
                DFSConfigKeys.DFS_LEASE_HARDLIMIT_KEY, DFSConfigKeys.DFS_LEASE_HARDLIMIT_DEFAULT)
            * 1000;
    long heartbeat =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
            java.util.concurrent.TimeUnit.SECONDS);
    this.recoveryTimeoutMillis =
        conf.getLong(
            BLOCK_RECOVERY_TIMEOUT_MS, heartbeat * 1000 * BLOCK_RECOVERY_TIMEOUT_HEARTBEATS);
  }

  /** The cluster's time (the database's clock): lease limits compare it with lease rows. */
  public long now() {
    return blocks.now();
  }

  /** The holder of the files whose blocks this namenode recovers. */
  public String recoveryHolder() {
    return recoveryHolder;
  }

  /** Whether {@code holder} is a namenode's recovery holder (this one's or another's). */
  public static boolean isRecoveryHolder(String holder) {
    return holder != null && holder.startsWith(HdfsServerConstants.NAMENODE_LEASE_HOLDER);
  }

  public long recoveryTimeoutMillis() {
    return recoveryTimeoutMillis;
  }

  /**
   * Whether {@link #releaseExpiredLeases} looks at the lease's files: it is past its hard limit, or
   * it is a recovery holder's.
   */
  boolean needsRelease(LeaseRow lease, long now) {
    return isRecoveryHolder(lease.holder()) || expiredHardLimit(lease, now);
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
   * leases left without files; looks at the files of recovery holders the same way (their
   * recoveries are sent or started again when due). Housekeeping: finding the leases is a full
   * table scan and finding their files a scan of the holder's partition, both read committed; each
   * release then locks and checks again. Returns the number of files closed.
   */
  public synchronized int releaseExpiredLeases() throws IOException {
    long now = now();
    List<LeaseRow> expired = new ArrayList<>();
    List<List<LeasePathRow>> files = new ArrayList<>();
    try (Transaction tx = runner.storage().begin()) {
      List<LeaseRow> page =
          tx.scanFrom(LeaseRow.TABLE, null, leaseCursor, leasePageRows, LockMode.READ_COMMITTED);
      leaseCursor =
          page.size() < leasePageRows ? null : LeaseRow.TABLE.keyOf(page.get(page.size() - 1));
      for (LeaseRow lease : page) {
        if (needsRelease(lease, now)) {
          expired.add(lease);
          files.add(
              tx.findByPartition(LeasePathRow.TABLE, lease.holder(), LockMode.READ_COMMITTED));
        }
      }
    }
    int closed = 0;
    for (int i = 0; i < expired.size(); i++) {
      String holder = expired.get(i).holder();
      if (isRecoveryHolder(holder)) {
        LOG.debug("recovery holder {} has {} file(s) under recovery", holder, files.get(i).size());
      } else {
        LOG.info(
            "lease of {} has expired its hard limit: releasing {} file(s)",
            holder,
            files.get(i).size());
      }
      if (files.get(i).isEmpty()) {
        runner.run(
            () -> new ReleaseLease(this, holder, ReleaseLease.NO_FILE), blocks.leaderFence());
      }
      for (LeasePathRow file : files.get(i)) {
        try {
          if (runner.run(
              () -> new ReleaseLease(this, holder, file.inodeId()), blocks.leaderFence())) {
            closed++;
          }
        } catch (IOException e) {
          // As HDFS: this file is tried again next round; the others go on.
          LOG.warn("cannot release inode {} of lease {}; retried later", file.inodeId(), holder, e);
        }
      }
    }
    return closed;
  }
}
