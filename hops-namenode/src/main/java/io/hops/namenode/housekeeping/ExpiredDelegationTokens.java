package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DelegationTokenRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.security.DelegationTokens;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes the delegation tokens nobody renewed in time (renewal date past, which the maximum date
 * bounds), as HDFS's ExpiredTokenRemover does, every {@code
 * hops.namenode.delegation-token.remover-scan-interval.ms}. The candidates are read without locks;
 * each batch is read again under lock and deleted fenced as leader, so a renewal on another
 * namenode meanwhile keeps its token.
 */
public final class ExpiredDelegationTokens implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(ExpiredDelegationTokens.class);
  private static final int BATCH = 100;

  private final Storage storage;
  private final LeaderRunner leader;
  private final DelegationTokens tokens;
  private final long scanIntervalMs;
  private long lastScan = Long.MIN_VALUE;

  ExpiredDelegationTokens(
      Storage storage, LeaderRunner leader, DelegationTokens tokens, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.tokens = tokens;
    this.scanIntervalMs = DelegationTokens.removerScanIntervalMs(conf);
  }

  @Override
  public String name() {
    return "expired delegation tokens";
  }

  @Override
  public void runOnce() throws IOException {
    long monotonic = Time.monotonicNow();
    if (lastScan != Long.MIN_VALUE && monotonic - lastScan < scanIntervalMs) {
      return;
    }
    lastScan = monotonic;
    long now = Time.now();
    List<Key> expired;
    try (Transaction tx = storage.begin()) {
      expired =
          tx
              .findByPartition(
                  DelegationTokenRow.TABLE, tokens.blockPoolId(), LockMode.READ_COMMITTED)
              .stream()
              .filter(r -> r.renewDate() < now)
              .map(DelegationTokenRow.TABLE::keyOf)
              .toList();
      tx.commit();
    }
    int removed = 0;
    for (int i = 0; i < expired.size(); i += BATCH) {
      List<Key> batch = expired.subList(i, Math.min(expired.size(), i + BATCH));
      removed += leader.run(() -> new Remove(batch, now));
    }
    if (removed > 0) {
      LOG.info("removed {} expired delegation tokens", removed);
    }
  }

  /** Deletes the tokens of {@code keys} still expired at {@code now}; answers how many. */
  static final class Remove extends Operation<Integer> {
    private final List<Key> keys;
    private final long now;
    private List<DelegationTokenRow> rows;

    Remove(List<Key> keys, long now) {
      this.keys = keys;
      this.now = now;
    }

    @Override
    public String name() {
      return "removeExpiredDelegationTokens";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      rows = tx.findBatch(DelegationTokenRow.TABLE, keys, LockMode.EXCLUSIVE);
    }

    @Override
    protected Integer execute(ExecutePhase tx) throws IOException {
      int n = 0;
      for (DelegationTokenRow r : rows) {
        if (r != null && r.renewDate() < now) {
          tx.delete(DelegationTokenRow.TABLE, r);
          n++;
        }
      }
      return n;
    }
  }
}
