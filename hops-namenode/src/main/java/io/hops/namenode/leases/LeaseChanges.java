package io.hops.namenode.leases;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.schema.Key;
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
 * inodes, exclusively and in holder order (DESIGN.md §6); the execute phase adds and removes files
 * and renews; {@link #flush} writes each lease row once.
 *
 * <p>A lease row counts its lease paths ({@code count}): closing a file drops the lease with its
 * last path without looking up the holder's paths, which would be an index scan over every shard
 * ({@code lease_paths} is partitioned by inode id). A lease path is written and deleted by key,
 * protected by the exclusive lock on its file's inode.
 */
public final class LeaseChanges {
  /** A lease path's block columns before the file has blocks. */
  public static final long NO_BLOCK = -1;

  /**
   * A lease path's block column when the tail of the file is not known (a file reopened for append
   * or recovery, or whose penultimate block was abandoned): the next tail read reads every block.
   */
  public static final long UNKNOWN_BLOCK = -2;

  private static final class Lease {
    final LeaseRow read;
    long lastUpdate;
    int count;
    boolean changed;

    Lease(LeaseRow read) {
      this.read = read;
      this.lastUpdate = read == null ? 0 : read.lastUpdate();
      this.count = read == null ? 0 : read.count();
    }
  }

  private final Map<String, Lease> byHolder;

  private LeaseChanges(Map<String, Lease> byHolder) {
    this.byHolder = byHolder;
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
      byHolder.put(holder, new Lease(rows.get(i++)));
    }
    return new LeaseChanges(byHolder);
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
    addFile(tx, holder, inodeId, path, now, UNKNOWN_BLOCK, UNKNOWN_BLOCK);
  }

  /**
   * {@code holder} now writes {@code inodeId} (at {@code path}), whose last and penultimate blocks
   * are these ({@link #NO_BLOCK} for a new file): a new lease path; renews.
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
    l.count++;
    l.lastUpdate = now;
    l.changed = true;
    tx.insert(
        LeasePathRow.TABLE,
        new LeasePathRow(inodeId, holder, path, lastBlockId, penultimateBlockId));
  }

  /** {@code holder} no longer writes {@code inodeId}; its lease goes with its last file. */
  public void removeFile(ExecutePhase tx, String holder, long inodeId) throws StorageException {
    Lease l = lease(holder);
    if (l.count > 0) {
      l.count--;
      l.changed = true;
    }
    tx.delete(LeasePathRow.TABLE, LeasePathRow.TABLE.key(inodeId));
  }

  /**
   * The file {@code inodeId} passes from {@code from}, a holder of this set, to {@code to}, a
   * holder of {@code target} (which may be this set): both counts change, the new holder is
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
    Lease old = lease(from);
    if (old.count > 0) {
      old.count--;
      old.changed = true;
    }
    Lease next = target.lease(to);
    next.count++;
    next.lastUpdate = now;
    next.changed = true;
    if (path == null) {
      tx.insert(
          LeasePathRow.TABLE,
          new LeasePathRow(inodeId, to, fallbackPath, UNKNOWN_BLOCK, UNKNOWN_BLOCK));
    } else {
      tx.update(
          LeasePathRow.TABLE,
          new LeasePathRow(
              inodeId, to, path.path(), path.lastBlockId(), path.penultimateBlockId()));
    }
  }

  /** The holder checked in: its lease (if it has one) is fresh again. */
  public void renew(String holder, long now) {
    Lease l = lease(holder);
    if (l.read != null) {
      l.lastUpdate = now;
      l.changed = true;
    }
  }

  /** Buffers the writes of every changed lease row: insert, update, or delete when empty. */
  public void flush(ExecutePhase tx) throws StorageException {
    for (Map.Entry<String, Lease> e : byHolder.entrySet()) {
      Lease l = e.getValue();
      if (!l.changed) {
        continue;
      }
      LeaseRow row = new LeaseRow(e.getKey(), l.lastUpdate, l.count);
      if (l.count <= 0) {
        if (l.read != null) {
          tx.delete(LeaseRow.TABLE, row);
        }
      } else if (l.read == null) {
        tx.insert(LeaseRow.TABLE, row);
      } else {
        tx.update(LeaseRow.TABLE, row);
      }
      l.changed = false;
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
