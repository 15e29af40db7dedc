package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.LeasePathTail;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The lease rows one transaction reads and changes. They are read in the lock phase after the
 * inodes, in holder order (docs/architecture.md, "Lock order"); the execute phase adds and removes
 * files and renews; {@link #flush} writes each lease row once.
 *
 * <p>The {@code lease_paths} rows (one per open file, keyed by holder and inode id, and partitioned
 * by holder; the file's inode names its holder, so a file's row is found by key and a holder's rows
 * by one partition scan, and no index is kept) are the truth about which files a holder writes; the
 * lease row only says when its holder last checked in. Its {@code count} column is no longer kept
 * (always written 0, ignored when read; the column stays so the store format does not change). So
 * closing or deleting a file deletes its lease path only, protected by the exclusive lock on the
 * file's inode, and does not touch the lease row: the creates and closes of one client do not queue
 * on one row. A lease left without files is dropped by the leader once it expires ({@link
 * ReleaseLease}): with the row locked exclusively it looks up the holder's paths and deletes the
 * lease if there are none.
 *
 * <p>Adding a file ({@link #lockToAdd}) locks the holder's lease row shared when a read-committed
 * read found it renewed within {@link #FRESH_MILLIS}, and does not rewrite it: concurrent creates
 * of one client then proceed together. Otherwise the row is locked exclusively and inserted or
 * renewed. The leader's exclusive lock on an expired lease waits for every create holding it
 * shared, so a lease is never dropped under a file being added to it.
 */
public final class LeaseChanges {

  /**
   * How recently a lease must have been renewed for a new file to join it without renewing it again
   * (and so with only a shared lock on it). HDFS renews on every create; skipping that for a lease
   * renewed at most this long ago leaves it at most this much older than HDFS would. The soft limit
   * is 60 s and HDFS's own lease monitor looks only every 2 s, so who may take a file over does not
   * change in practice.
   */
  public static final long FRESH_MILLIS = 1_000;

  private static final class Lease {
    final LeaseRow read;
    final LockMode mode;
    long lastUpdate;
    boolean changed;

    Lease(LeaseRow read, LockMode mode) {
      this.read = read;
      this.mode = mode;
      this.lastUpdate = read == null ? 0 : read.lastUpdate();
    }
  }

  private final Map<String, Lease> byHolder;

  /** Open files counted in the lock phase ({@link #countFiles}), by holder. */
  private final Map<String, Integer> openFiles = new TreeMap<>();

  private LeaseChanges(Map<String, Lease> byHolder) {
    this.byHolder = byHolder;
  }

  /**
   * Lock phase: reads no lease row, for an operation that only checks a writer or removes lease
   * paths (closing a file, deleting it): those need the file's inode lock only.
   */
  public static LeaseChanges withoutRows() {
    return new LeaseChanges(new TreeMap<>());
  }

  /**
   * Lock phase: reads the lease rows of {@code holders} (nulls ignored) exclusively, in holder
   * order: one PK read for one holder, one batch for more.
   */
  public static LeaseChanges lock(LockPhase tx, Collection<String> holders)
      throws StorageException {
    TreeSet<String> sorted = new TreeSet<>();
    holders.stream().filter(Objects::nonNull).forEach(sorted::add);
    List<Key> keys = new ArrayList<>(sorted.size());
    sorted.forEach(h -> keys.add(LeaseRow.TABLE.key(h)));
    List<LeaseRow> rows;
    if (keys.isEmpty()) {
      rows = List.of();
    } else if (keys.size() == 1) {
      rows = Collections.singletonList(tx.find(LeaseRow.TABLE, keys.get(0), LockMode.EXCLUSIVE));
    } else {
      rows = tx.findBatch(LeaseRow.TABLE, keys, LockMode.EXCLUSIVE);
    }
    Map<String, Lease> byHolder = new TreeMap<>();
    int i = 0;
    for (String holder : sorted) {
      byHolder.put(holder, new Lease(rows.get(i++), LockMode.EXCLUSIVE));
    }
    return new LeaseChanges(byHolder);
  }

  /**
   * Lock phase, for an operation that gives {@code holder} a file (its only lease row): a
   * read-committed read first, as a hint; a lease renewed within {@link #FRESH_MILLIS} of {@code
   * now} is then locked shared and left as it is, any other exclusively, to be inserted or renewed.
   * If the shared read no longer finds it fresh (the leader dropped it meanwhile), the operation is
   * retried: a lock is never upgraded.
   */
  public static LeaseChanges lockToAdd(LockPhase tx, String holder, long now)
      throws StorageException {
    Key key = LeaseRow.TABLE.key(holder);
    LeaseRow hint = tx.find(LeaseRow.TABLE, key, LockMode.READ_COMMITTED);
    LockMode mode = fresh(hint, now) ? LockMode.SHARED : LockMode.EXCLUSIVE;
    LeaseRow read = tx.find(LeaseRow.TABLE, key, mode);
    if (mode == LockMode.SHARED && !fresh(read, now)) {
      throw new TransientStorageException("the lease of " + holder + " changed while being locked");
    }
    Map<String, Lease> byHolder = new TreeMap<>();
    byHolder.put(holder, new Lease(read, mode));
    return new LeaseChanges(byHolder);
  }

  /**
   * Lock phase, for an operation that gives {@code holder} a file that {@code writer} may be
   * writing (null if nobody): {@link #lockToAdd} when the caller's lease is the only one; both
   * leases exclusively, in holder order, when another client writes the file, since it may be taken
   * over.
   */
  public static LeaseChanges lockToAdd(LockPhase tx, String holder, String writer, long now)
      throws StorageException {
    if (writer == null || writer.equals(holder)) {
      return lockToAdd(tx, holder, now);
    }
    return lock(tx, List.of(holder, writer));
  }

  private static boolean fresh(LeaseRow lease, long now) {
    return lease != null && now - lease.lastUpdate() <= FRESH_MILLIS;
  }

  /**
   * Lock phase: counts the files {@code holder} writes (its partition of lease paths, read
   * committed) for an error message that names them, HDFS's "pending creates". Only on error paths.
   */
  public void countFiles(LockPhase tx, String holder) throws StorageException {
    if (holder != null && !openFiles.containsKey(holder)) {
      openFiles.put(
          holder, tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED).size());
    }
  }

  /** The number of files {@link #countFiles} found for {@code holder}. */
  public int openFiles(String holder) {
    Integer n = openFiles.get(holder);
    if (n == null) {
      throw new IllegalStateException("the files of " + holder + " were not counted");
    }
    return n;
  }

  /** The lease row of {@code holder} as the lock phase read it, or null if it has none. */
  public LeaseRow read(String holder) {
    return lease(holder).read;
  }

  /**
   * {@code holder} now writes {@code inodeId} (at {@code path}), an existing file whose tail the
   * caller does not name: a new lease path; renews.
   */
  public void addFile(ExecutePhase tx, String holder, long inodeId, String path, long now)
      throws StorageException {
    addFile(
        tx, holder, inodeId, path, now, LeasePathTail.UNKNOWN_BLOCK, LeasePathTail.UNKNOWN_BLOCK);
  }

  /**
   * {@code holder} now writes {@code inodeId} (at {@code path}), whose last and penultimate blocks
   * are these ({@link LeasePathTail#NO_BLOCK} for a new file): a new lease path; renews.
   */
  public void addFile(
      ExecutePhase tx,
      String holder,
      long inodeId,
      String path,
      long now,
      long lastBlockId,
      long penultimateBlockId)
      throws StorageException {
    Lease l = lease(holder);
    if (l.mode == LockMode.EXCLUSIVE) {
      l.lastUpdate = now;
      l.changed = true;
    }
    tx.insert(
        LeasePathRow.TABLE,
        new LeasePathRow(holder, inodeId, path, lastBlockId, penultimateBlockId));
  }

  /**
   * {@code holder} no longer writes {@code inodeId}: its lease path goes; the lease row stays (the
   * leader drops it once it expires without files).
   */
  public void removeFile(ExecutePhase tx, String holder, long inodeId) throws StorageException {
    tx.delete(LeasePathRow.TABLE, LeasePathRow.key(holder, inodeId));
  }

  /**
   * The file {@code inodeId} passes from {@code from}, a holder of this set, to {@code to}, a
   * holder of {@code target} (which may be this set), locked exclusively: the new holder is
   * renewed, and the lease path names the new holder ({@code path} is its old row, or null if it
   * had none).
   */
  public void reassign(
      ExecutePhase tx,
      LeaseChanges target,
      String from,
      String to,
      long inodeId,
      LeasePathRow path,
      String fallbackPath,
      long now)
      throws StorageException {
    Lease next = target.lease(to);
    requireExclusive(to, next);
    next.lastUpdate = now;
    next.changed = true;
    if (path == null) {
      tx.insert(
          LeasePathRow.TABLE,
          new LeasePathRow(
              to, inodeId, fallbackPath, LeasePathTail.UNKNOWN_BLOCK, LeasePathTail.UNKNOWN_BLOCK));
    } else {
      // The row is keyed by its holder: a new holder's row is a new row.
      LeasePathRow moved =
          new LeasePathRow(to, inodeId, path.path(), path.lastBlockId(), path.penultimateBlockId());
      if (path.holder().equals(to)) {
        tx.update(LeasePathRow.TABLE, moved);
      } else {
        tx.delete(LeasePathRow.TABLE, path);
        tx.insert(LeasePathRow.TABLE, moved);
      }
    }
  }

  /** The holder checked in: its lease (if it has one) is fresh again. */
  public void renew(String holder, long now) {
    Lease l = lease(holder);
    if (l.read != null) {
      requireExclusive(holder, l);
      l.lastUpdate = now;
      l.changed = true;
    }
  }

  /** Buffers the writes of every changed lease row: insert or update. */
  public void flush(ExecutePhase tx) throws StorageException {
    for (Map.Entry<String, Lease> e : byHolder.entrySet()) {
      Lease l = e.getValue();
      if (!l.changed) {
        continue;
      }
      LeaseRow row = new LeaseRow(e.getKey(), l.lastUpdate, 0);
      if (l.read == null) {
        tx.insert(LeaseRow.TABLE, row);
      } else {
        tx.update(LeaseRow.TABLE, row);
      }
      l.changed = false;
    }
  }

  private static void requireExclusive(String holder, Lease l) {
    if (l.mode != LockMode.EXCLUSIVE) {
      throw new IllegalStateException("the lease of " + holder + " is not locked exclusively");
    }
  }

  private Lease lease(String holder) {
    Lease l = byHolder.get(holder);
    if (l == null) {
      throw new IllegalStateException("the lease of " + holder + " was not read in the lock phase");
    }
    return l;
  }
}
