package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.Namesystem;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes retry-cache entries past {@code dfs.namenode.retrycache.expirytime.millis}, in bounded
 * rounds, without an index on the expiration time (an index entry put with every at-most-once call
 * and deleted with it again was a third of the retry cache's writes).
 *
 * <p>A client's call ids only grow (Hadoop's {@code Client} numbers its calls), and its entries are
 * its partition of the table in call-id order: in the order they were made, so in the order they
 * expire. A round walks the table in primary-key order from where the last one stopped, deletes the
 * expired entries at the start of each client's partition, and at a client's first entry still live
 * skips the rest of that client with one seek. What a round reads is bounded: a probe of {@link
 * #PROBE} rows of each client it passes, up to {@link #MOST_CLIENTS_PER_ROUND}, and about twice
 * what it deletes (pages grow while a client's entries keep expiring). The place is kept in memory
 * only (a hint): a new leader starts from the table's first key.
 *
 * <p>Two orders can leave an expired entry behind for a while, never an unexpired one deleted:
 * concurrent calls of one client that committed out of call-id order straddling a minute (the later
 * id expires a minute earlier, and waits behind the earlier id), and a client whose call ids
 * wrapped around past 2<sup>31</sup> (its old high ids wait behind its new low ones until those
 * expire). A lookup checks the expiration itself, so an entry left over answers nothing.
 */
final class RetryCacheExpiry implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RetryCacheExpiry.class);

  /** The rows a round reads of a client it has not seen expire yet: most are live. */
  static final int PROBE = 16;

  /** Most clients a round passes (each with a probe), however few entries it deletes. */
  static final int MOST_CLIENTS_PER_ROUND = 256;

  private final Namesystem ns;
  private final int page;
  private final int mostPerRound;

  /** Where the walk goes on: after this key (null: from the table's first). */
  private Key after;

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
      after = null;
    }
    int removed = 0;
    int clients = 0;
    int limit = PROBE;
    while (removed < mostPerRound && clients < MOST_CLIENTS_PER_ROUND) {
      int asked = Math.min(limit, mostPerRound - removed);
      List<RetryCacheRow> rows;
      try (Transaction tx = ns.storage().begin()) {
        rows = tx.scanFrom(RetryCacheRow.TABLE, null, after, asked, LockMode.READ_COMMITTED);
      }
      List<Key> expired = new ArrayList<>();
      boolean skipped = false;
      for (RetryCacheRow r : rows) {
        if (r.expirationTime() >= now) {
          // Live, and so is the rest of this client's: on to the next client.
          after = RetryCacheRow.TABLE.key(r.clientId(), Integer.MAX_VALUE);
          skipped = true;
          clients++;
          break;
        }
        expired.add(RetryCacheRow.TABLE.keyOf(r));
      }
      if (!expired.isEmpty()) {
        ns.runAsLeader(() -> new DropExpired(expired, now));
        removed += expired.size();
        if (!skipped) {
          after = expired.get(expired.size() - 1);
        }
      }
      if (!skipped && rows.size() < asked) {
        after = null; // the end of the table: the next round starts over
        break;
      }
      // A client whose entries keep expiring gets pages twice as long, up to a full one: what is
      // read past its first live entry is never more than what was deleted before it.
      limit = skipped ? PROBE : Math.min(page, 2 * limit);
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
