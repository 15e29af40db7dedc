package io.hops.namenode.housekeeping;

import io.hops.dal.KeyRange;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Removes retry-cache entries past {@code dfs.namenode.retrycache.expirytime.millis}, in bounded
 * rounds, without an index on the expiration time, and a client's run of expired entries with one
 * range delete rather than a delete per entry.
 *
 * <p>A client's call ids only grow (Hadoop's {@code Client} numbers its calls), and its entries are
 * its partition of the table in call-id order: in the order they were made, so in the order they
 * expire. A round walks the table in primary-key order from where the last one stopped, deletes the
 * expired entries at the start of each client's partition, and at a client's first entry still live
 * skips the rest of that client with one seek. What a round reads is bounded: the first entry of
 * each client it passes, up to a housekeeping page of clients, and about twice what it deletes
 * (reads double while a client's entries keep expiring). The place is kept in memory only (a hint):
 * a new leader starts from the table's first key.
 *
 * <p>A round deletes each client's run of expired entries it read as one range of call ids: a
 * key-value store writes one range tombstone for it, which a later walk skips with one seek. The
 * delete first locks the entries it read and ends the range before any that is live by then (a call
 * id used again, after 2<sup>31</sup> calls); an entry inserted within the range between the read
 * and the delete (a call whose id is below that of an entry already expired: one that ran for
 * longer than the expiry time past a later call of its client) goes with the range.
 *
 * <p>Two orders can leave an expired entry behind for a while, never an unexpired one deleted:
 * concurrent calls of one client that committed out of call-id order straddling a minute (the later
 * id expires a minute earlier, and waits behind the earlier id), and a client whose call ids
 * wrapped around past 2<sup>31</sup> (its old high ids wait behind its new low ones until those
 * expire). A lookup checks the expiration itself, so an entry left over answers nothing.
 */
final class RetryCacheExpiry implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(RetryCacheExpiry.class);

  /**
   * The rows a round reads first of a client it comes to: its first entry tells whether any has
   * expired; while they have, the reads double.
   */
  static final int PROBE = 1;

  private final Storage storage;
  private final LeaderRunner leader;
  private final BlockManager blockManager;
  private final int page;
  private final int mostPerRound;

  /** Most clients a round passes at a live entry (a probe and a seek each): a housekeeping page. */
  private final int mostClients;

  /** Where the walk goes on: after this key (null: from the table's first). */
  private Key after;

  private long leadership = -1;

  RetryCacheExpiry(
      Storage storage, LeaderRunner leader, BlockManager blockManager, Configuration conf) {
    this.storage = storage;
    this.leader = leader;
    this.blockManager = blockManager;
    this.page = Math.min(500, QueueCursor.pageRows(conf));
    this.mostPerRound = 4 * QueueCursor.pageRows(conf);
    this.mostClients = QueueCursor.pageRows(conf);
  }

  @Override
  public String name() {
    return "retry cache expiry";
  }

  @Override
  public void runOnce() throws IOException {
    long now = blockManager.now();
    long epoch = blockManager.election() == null ? 0 : blockManager.election().epoch();
    if (epoch != leadership) {
      leadership = epoch;
      after = null;
    }
    int removed = 0;
    int clients = 0;
    int limit = PROBE;
    while (removed < mostPerRound && clients < mostClients) {
      int asked = Math.min(limit, mostPerRound - removed);
      List<RetryCacheRow> rows;
      try (Transaction tx = storage.begin()) {
        rows = tx.scanFrom(RetryCacheRow.TABLE, null, after, asked, LockMode.READ_COMMITTED);
      }
      // The expired entries read, a run of keys per client, in key order.
      List<List<Key>> runs = new ArrayList<>();
      byte[] runClient = null;
      Key lastExpired = null;
      boolean skipped = false;
      for (RetryCacheRow r : rows) {
        if (r.expirationTime() >= now) {
          // Live, and so is the rest of this client's: on to the next client.
          after = RetryCacheRow.TABLE.key(r.clientId(), Integer.MAX_VALUE);
          skipped = true;
          clients++;
          break;
        }
        if (!Arrays.equals(r.clientId(), runClient)) {
          runClient = r.clientId();
          runs.add(new ArrayList<>());
        }
        lastExpired = RetryCacheRow.TABLE.keyOf(r);
        runs.get(runs.size() - 1).add(lastExpired);
        removed++;
      }
      if (!runs.isEmpty()) {
        leader.run(() -> new DropExpired(runs, now));
        if (!skipped) {
          after = lastExpired;
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

  /**
   * Deletes each run of expired entries as one range, up to the first entry that is live by now (a
   * reused call id); the entries read are locked first.
   */
  private static final class DropExpired extends Operation<Void> {
    private final List<List<Key>> runs;
    private final long now;
    private final List<KeyRange> ranges = new ArrayList<>();

    DropExpired(List<List<Key>> runs, long now) {
      this.runs = runs;
      this.now = now;
    }

    @Override
    public String name() {
      return "retryCacheExpiry";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      List<Key> keys = new ArrayList<>();
      runs.forEach(keys::addAll);
      List<RetryCacheRow> found = tx.findBatch(RetryCacheRow.TABLE, keys, LockMode.EXCLUSIVE);
      ranges.clear();
      int i = 0;
      for (List<Key> run : runs) {
        int end = 0;
        while (end < run.size()) {
          RetryCacheRow r = found.get(i + end);
          if (r != null && r.expirationTime() >= now) {
            break;
          }
          end++;
        }
        if (end > 0) {
          ranges.add(new KeyRange(RetryCacheRow.TABLE, run.get(0), run.get(end - 1)));
        }
        i += run.size();
      }
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      for (KeyRange r : ranges) {
        tx.deleteRange(r.table(), r.first(), r.last());
      }
      return null;
    }
  }
}
