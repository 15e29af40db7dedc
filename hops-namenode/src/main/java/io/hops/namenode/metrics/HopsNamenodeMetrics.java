package io.hops.namenode.metrics;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.Storage;
import io.hops.election.LeaderElection;
import io.hops.election.Membership;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.RecentReceipts;
import io.hops.namenode.housekeeping.Housekeeping;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.OperationMetrics;
import io.hops.namenode.tx.RetryCause;
import io.hops.namenode.tx.TransactionRunner;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.metrics2.MetricsCollector;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.MetricsSource;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * What hops does that HDFS has no name for, as the metrics2 source {@code HopsNamenode}: per
 * operation (the transaction runner's names, capitalised) its count, failures, retries, database
 * round trips, mean time and time in the lock phase, and latency percentiles over the last interval
 * ({@code dfs.metrics.percentiles.intervals}, first value; 60 s by default); retries by cause; the
 * hint cache, the caches of user, group and long names and the replica receipts kept
 * (docs/operations.md, "Memory"); the leader election; the leader's housekeeping; database round
 * trips by access kind; how long ago the database last answered ({@link DatabaseHealth}). Counters
 * are since this namenode started.
 */
public final class HopsNamenodeMetrics implements MetricsSource, AutoCloseable {
  static final String NAME = "HopsNamenode";

  private final Storage storage;
  private final TransactionRunner runner;
  private final BlockManager blocks;
  private final UsersAndGroups users;
  private final Snapshots snapshots;
  private final DatabaseHealth database;
  private final Supplier<Housekeeping> housekeeping;
  private final int rpcPort;
  private final int percentileSeconds;
  private final Map<String, LatencyPercentiles> latency = new ConcurrentHashMap<>();
  private final OperationMetrics.Listener listener = this::finished;

  public HopsNamenodeMetrics(
      Storage storage,
      TransactionRunner runner,
      BlockManager blocks,
      UsersAndGroups users,
      Configuration conf,
      Snapshots snapshots,
      DatabaseHealth database,
      Supplier<Housekeeping> housekeeping,
      int rpcPort) {
    this.storage = storage;
    this.runner = runner;
    this.blocks = blocks;
    this.users = users;
    this.database = database;
    this.rpcPort = rpcPort;
    this.snapshots = snapshots;
    this.housekeeping = housekeeping;
    int[] intervals =
        conf.getInts(org.apache.hadoop.hdfs.DFSConfigKeys.DFS_METRICS_PERCENTILES_INTERVALS_KEY);
    this.percentileSeconds = intervals.length > 0 && intervals[0] > 0 ? intervals[0] : 60;
    runner.metrics().addListener(listener);
  }

  private void finished(String op, long nanos, boolean failed) {
    latency
        .computeIfAbsent(
            op,
            o ->
                new LatencyPercentiles(
                    metricName(o) + "Latency" + percentileSeconds + "s",
                    o + " latency",
                    percentileSeconds))
        .add(nanos / 1000);
  }

  /** {@code create.retried} becomes {@code CreateRetried}. */
  static String metricName(String op) {
    StringBuilder b = new StringBuilder();
    boolean upper = true;
    for (char c : op.toCharArray()) {
      if (!Character.isLetterOrDigit(c)) {
        upper = true;
      } else {
        b.append(upper ? Character.toUpperCase(c) : c);
        upper = false;
      }
    }
    return b.toString();
  }

  @Override
  public void getMetrics(MetricsCollector collector, boolean all) {
    MetricsRecordBuilder r =
        collector
            .addRecord(NAME)
            .setContext("hops")
            .tag(Interns.info("Engine", "metadata store"), engine())
            .tag(Interns.info("Port", "the namenode's RPC port"), Integer.toString(rpcPort));
    OperationMetrics ops = runner.metrics();
    long total = 0;
    long failures = 0;
    long retries = 0;
    for (Map.Entry<String, OperationMetrics.Stats> e : ops.all().entrySet()) {
      String m = metricName(e.getKey());
      OperationMetrics.Stats s = e.getValue();
      counter(r, m + "Ops", "operations run", s.count());
      counter(r, m + "Failures", "operations that failed", s.failures());
      counter(r, m + "Retries", "transaction restarts", s.retries());
      counter(r, m + "DbAccesses", "database round trips", s.accesses());
      counter(r, m + "DbRowsRead", "rows the database reads returned", s.rowsRead());
      counter(r, m + "DbRowsWritten", "rows the database writes changed", s.rowsWritten());
      counter(r, m + "LockPhaseMicros", "time in the lock phase", s.lockPhaseNanos() / 1000);
      r.addGauge(Interns.info(m + "AvgTimeMicros", "mean latency"), s.meanMicros());
      total += s.count();
      failures += s.failures();
      retries += s.retries();
    }
    counter(r, "Operations", "operations run, all kinds", total);
    counter(r, "FailedOperations", "operations that failed, all kinds", failures);
    counter(r, "TransactionRetries", "transaction restarts, all kinds", retries);
    for (RetryCause c : RetryCause.values()) {
      counter(
          r,
          "TransactionRetries" + metricName(c.name().toLowerCase(java.util.Locale.ROOT)),
          "transaction restarts for this cause",
          ops.retries(c));
    }
    for (LatencyPercentiles q : latency.values()) {
      q.snapshot(r);
    }
    InodeHintCache hints = runner.hints();
    counter(r, "HintCacheHits", "path components found in the hint cache", hints.hits());
    counter(r, "HintCacheMisses", "path components not in the hint cache", hints.misses());
    r.addGauge(Interns.info("HintCacheSize", "entries in the hint cache"), hints.size());
    r.addGauge(
        Interns.info("HintCacheBytes", "heap the hint cache takes, estimated"), hints.bytes());
    namesAndReceipts(r);
    AccessCounts db = storage.accessCounts();
    for (AccessKind k : AccessKind.values()) {
      counter(
          r,
          "DbAccesses" + metricName(k.name().toLowerCase(java.util.Locale.ROOT)),
          "database round trips of this kind (" + k.label() + ")",
          db.get(k));
    }
    counter(r, "DbAccesses", "database round trips, all kinds", db.total());
    LeaderElection e = blocks.election();
    Membership m = e == null ? Membership.EMPTY : e.membership();
    r.addGauge(
            Interns.info("IsLeader", "1 if this namenode leads"), e != null && e.isLeader() ? 1 : 0)
        .addGauge(
            Interns.info("ElectionId", "this namenode's election id"), e == null ? -1 : e.id())
        .addGauge(Interns.info("LeaderId", "the leader's election id"), m.leaderId())
        .addGauge(Interns.info("ElectionEpoch", "the leadership's epoch"), m.epoch())
        .addGauge(Interns.info("LiveNamenodes", "namenodes in the membership"), m.members().size());
    Housekeeping h = housekeeping.get();
    if (h != null) {
      counter(r, "HousekeepingRounds", "housekeeping rounds run", h.rounds());
      r.addGauge(
          Interns.info("HousekeepingLastRoundMillis", "time of the last housekeeping round"),
          h.lastRoundMillis());
    }
    ClusterSnapshot s = snapshots.get();
    r.addGauge(
            Interns.info("ReplicationQueue", "blocks with too few live replicas"),
            s.lowRedundancyBlocks())
        .addGauge(
            Interns.info("PendingReplicationQueue", "blocks being re-replicated"),
            s.pendingReplicationBlocks())
        .addGauge(
            Interns.info("InvalidationQueue", "replicas waiting to be deleted"),
            s.pendingDeletionBlocks());
    r.addGauge(
            Interns.info(
                "DatabaseLastRoundTripAgeMs",
                "milliseconds since the database last answered this namenode"),
            database.lastRoundTripAgeMillis())
        .addGauge(
            Interns.info("DatabaseProbeMicros", "time of the last answered one-row probe read"),
            database.lastProbeMicros());
    for (Map.Entry<String, Long> c : storage.engineCounters().entrySet()) {
      counter(r, "Db" + c.getKey(), "the metadata engine's own work", c.getValue());
    }
    for (Map.Entry<String, Long> g : storage.engineGauges().entrySet()) {
      r.addGauge(
          Interns.info("Db" + g.getKey(), "the metadata engine's caches and store"), g.getValue());
    }
    for (Map.Entry<String, Long> p : storage.poolUsage().entrySet()) {
      r.addGauge(Interns.info("DbPool" + metricName(p.getKey()), "connection pool"), p.getValue());
    }
  }

  /** The caches of user and group names, of long names, and of replica receipts. */
  private void namesAndReceipts(MetricsRecordBuilder r) {
    counter(r, "UserGroupNamesHits", "user and group names found in their cache", users.hits());
    counter(r, "UserGroupNamesMisses", "user and group names not in their cache", users.misses());
    r.addGauge(Interns.info("UserGroupNamesSize", "user and group names cached"), users.size());
    r.addGauge(
        Interns.info("UserGroupNamesBytes", "heap the user and group names take, estimated"),
        users.bytes());
    LongNames longNames = users.longNames();
    counter(r, "LongNamesHits", "long names found in their cache", longNames.hits());
    counter(r, "LongNamesMisses", "long names not in their cache", longNames.misses());
    r.addGauge(Interns.info("LongNamesSize", "long names cached"), longNames.size());
    r.addGauge(
        Interns.info("LongNamesBytes", "heap the long names take, estimated"), longNames.bytes());
    RecentReceipts receipts = blocks.receipts();
    r.addGauge(
        Interns.info("RecentReceiptsBlocks", "blocks with replica receipts kept"), receipts.size());
    r.addGauge(
        Interns.info("RecentReceiptsBytes", "heap the replica receipts take, estimated"),
        receipts.bytes());
  }

  private String engine() {
    return storage.engine();
  }

  private static void counter(MetricsRecordBuilder r, String name, String desc, long value) {
    r.addCounter(Interns.info(name, desc), value);
  }

  @Override
  public void close() {
    runner.metrics().removeListener(listener);
    latency.values().forEach(LatencyPercentiles::close);
  }
}
