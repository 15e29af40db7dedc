package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.Namesystem;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.RetryCache;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes retry-cache entries past {@code dfs.namenode.retrycache.expirytime.millis}, in bounded
 * batches. Entries expire on whole minutes ({@link RetryCache#expiresAt}), so each expired minute
 * is one equality scan of the expiration index; a cursor remembers the next minute to clear. A new
 * leader finds where to start with one scan of the table.
 */
final class RetryCacheExpiry implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RetryCacheExpiry.class);
  private static final int BATCH = 500;
  private static final int MOST_PER_ROUND = 20_000;

  private final Namesystem ns;
  private long nextMinute = -1;
  private long leadership = -1;

  RetryCacheExpiry(Namesystem ns) {
    this.ns = ns;
  }

  @Override
  public String name() {
    return "retry cache expiry";
  }

  @Override
  public void runOnce() throws IOException {
    long now = ns.blocks().now();
    long epoch = ns.blocks().election() == null ? 0 : ns.blocks().election().epoch();
    if (epoch != leadership) {
      leadership = epoch;
      nextMinute = -1; // a new leadership does not know how far its predecessor got
    }
    if (nextMinute < 0) {
      long oldest = Long.MAX_VALUE;
      try (Transaction tx = ns.storage().begin()) {
        for (RetryCacheRow r : tx.scanAll(RetryCacheRow.TABLE, LockMode.READ_COMMITTED)) {
          oldest = Math.min(oldest, r.expirationTime());
        }
      }
      nextMinute = oldest == Long.MAX_VALUE ? RetryCache.ceilMinute(now) : oldest;
    }
    int removed = 0;
    while (nextMinute < now && removed < MOST_PER_ROUND) {
      List<RetryCacheRow> expired;
      try (Transaction tx = ns.storage().begin()) {
        expired =
            tx.findByIndex(
                RetryCacheRow.TABLE, "expiration_time", nextMinute, LockMode.READ_COMMITTED);
      }
      int upTo = Math.min(expired.size(), MOST_PER_ROUND - removed);
      for (int i = 0; i < upTo; i += BATCH) {
        List<Key> keys =
            expired.subList(i, Math.min(upTo, i + BATCH)).stream()
                .map(RetryCacheRow.TABLE::keyOf)
                .toList();
        ns.runAsLeader(() -> new DropExpired(keys, now));
      }
      removed += upTo;
      if (upTo < expired.size()) {
        break; // the rest of this minute next round
      }
      nextMinute += RetryCache.MINUTE;
    }
    if (removed > 0) {
      LOG.info("retry cache: {} expired entries removed", removed);
    }
  }

  /** Deletes the entries among {@code keys} that are still expired (a reused key may not be). */
  private static final class DropExpired extends Operation<Void> {
    private final List<Key> keys;
    private final long now;
    private List<RetryCacheRow> found;

    DropExpired(List<Key> keys, long now) {
      this.keys = keys;
      this.now = now;
    }

    @Override
    public String name() {
      return "retryCacheExpiry";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      found =
          tx.findBatch(RetryCacheRow.TABLE, keys, LockMode.EXCLUSIVE).stream()
              .filter(Objects::nonNull)
              .filter(r -> r.expirationTime() < now)
              .toList();
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      for (RetryCacheRow r : found) {
        tx.delete(RetryCacheRow.TABLE, r);
      }
      return null;
    }
  }
}
