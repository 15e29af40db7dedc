package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.rows.VariableRow;
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
 * is read page by page through the expiration index, a page being what the round then deletes. The
 * next minute to clear is kept in the database ({@link #CURSOR}, read every round), so a new leader
 * goes on where the last one stopped; a store without it (none is written before the first round)
 * is surveyed once, a page of the table a round, for its oldest entry. A round's reads are what it
 * removes and a page, whatever the backlog.
 */
final class RetryCacheExpiry implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RetryCacheExpiry.class);

  /** The {@code variables} row holding the first minute not yet cleared. */
  static final String CURSOR = "retry_cache_expiry_minute";

  /** Most expired minutes, empty ones included, a round looks at (after a long outage). */
  private static final int MOST_MINUTES_PER_ROUND = 600;

  private final Namesystem ns;
  private final int page;
  private final int mostPerRound;

  /** Within the minute being cleared: the last key deleted (a hint: null reads from its start). */
  private long pageMinute = -1;

  private Key pageAfter;

  /** The survey of a store without a cursor: where it is, and the oldest minute seen. */
  private QueueCursor<RetryCacheRow> survey;

  private long surveyOldest = Long.MAX_VALUE;
  private long leadership = -1;

  RetryCacheExpiry(Namesystem ns) {
    this.ns = ns;
    this.page = Math.min(500, QueueCursor.pageRows(ns.conf()));
    this.mostPerRound = 4 * QueueCursor.pageRows(ns.conf());
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
      pageAfter = null;
      survey = null;
      surveyOldest = Long.MAX_VALUE;
    }
    VariableRow cursor;
    try (Transaction tx = ns.storage().begin()) {
      cursor = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(CURSOR), LockMode.READ_COMMITTED);
    }
    long first = cursor != null ? cursor.longValue() : survey(now);
    if (first < 0) {
      return; // the survey goes on next round
    }
    long minute = first;
    if (minute != pageMinute) {
      pageMinute = minute;
      pageAfter = null;
    }
    int removed = 0;
    int minutes = 0;
    while (minute < now && removed < mostPerRound && minutes < MOST_MINUTES_PER_ROUND) {
      List<RetryCacheRow> expired;
      try (Transaction tx = ns.storage().begin()) {
        expired =
            tx.findByIndexFrom(
                RetryCacheRow.TABLE,
                "expiration_time",
                minute,
                pageAfter,
                page,
                LockMode.READ_COMMITTED);
      }
      if (!expired.isEmpty()) {
        List<Key> keys = expired.stream().map(RetryCacheRow.TABLE::keyOf).toList();
        ns.runAsLeader(() -> new DropExpired(keys, now));
        removed += keys.size();
        pageAfter = keys.get(keys.size() - 1);
      }
      if (expired.size() < page) {
        minute += RetryCache.MINUTE;
        minutes++;
        pageMinute = minute;
        pageAfter = null;
      }
    }
    if (cursor == null || minute != first) {
      long next = minute;
      ns.runAsLeader(() -> new SaveCursor(next));
    }
    if (removed > 0) {
      LOG.info("retry cache: {} expired entries removed", removed);
    }
  }

  /**
   * For a store without a cursor: reads a page of the table for its oldest expiration; returns the
   * minute to start from once the whole table was read, else -1.
   */
  private long survey(long now) throws IOException {
    if (survey == null) {
      survey = new QueueCursor<>(RetryCacheRow.TABLE, QueueCursor.pageRows(ns.conf()));
    }
    try (Transaction tx = ns.storage().begin()) {
      for (RetryCacheRow r : survey.next(tx)) {
        surveyOldest = Math.min(surveyOldest, r.expirationTime());
      }
    }
    if (!survey.wrapped()) {
      return -1;
    }
    long start = surveyOldest == Long.MAX_VALUE ? RetryCache.ceilMinute(now) : surveyOldest;
    survey = null;
    surveyOldest = Long.MAX_VALUE;
    return start;
  }

  /** Writes the first minute not yet cleared. */
  private static final class SaveCursor extends Operation<Void> {
    private final long minute;
    private VariableRow old;

    SaveCursor(long minute) {
      this.minute = minute;
    }

    @Override
    public String name() {
      return "retryCacheExpiry";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      old = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(CURSOR), LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      VariableRow row = new VariableRow(CURSOR, minute, null);
      if (old == null) {
        tx.insert(VariableRow.TABLE, row);
      } else if (old.longValue() < minute) {
        tx.update(VariableRow.TABLE, row);
      }
      return null;
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
