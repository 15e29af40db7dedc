package io.hops.namenode.upgrade;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The upgrade of a store from before schema version 12 with snapshots on: its entry versions have
 * no {@code snapshot_version_log} row, so no {@code deleteSnapshot} would ever reclaim them
 * (docs/architecture.md, "Snapshots", "Reclaiming versions"). Run once, offline (no namenode of the
 * older release is live), by the upgrade, a page of versions per transaction in primary-key order
 * (an entry's versions are adjacent): a version at {@code v} whose previous one is at {@code u}
 * answers the snapshots in {@code (u, v]}; snapshot ids are one counter for every directory, so
 * when no snapshot of any directory is in that range nobody reads it and it goes, with its xattr
 * versions (the deletes the old release's {@code deleteSnapshot}s never made). Every other version
 * gets its log row under the directory whose snapshots (or hold) read it, found up its parent's
 * path as the copy-on-write rule finds it now ({@link LockPhase#keeperOfPath}), and is judged by
 * that directory's later {@code deleteSnapshot}s as any. A version whose parent is gone (below a
 * directory deleted since) has no path to find it by: it keeps no log row and stays, counted.
 */
public final class VersionLogBackfill {
  /** What the walk did: versions deleted, logged, and left without a log row. */
  public record Outcome(long deleted, long logged, long unlogged) {}

  private final Storage storage;
  private final int page;
  private long[] snapshots = new long[0];
  private final Map<Long, Long> keeperByDir = new HashMap<>();
  private long deleted;
  private long logged;
  private long unlogged;

  private VersionLogBackfill(Storage storage, int page) {
    this.storage = storage;
    this.page = page;
  }

  /** Walks every version of {@code storage}, {@code page} rows per transaction. */
  public static Outcome run(Storage storage, int page) throws StorageException {
    VersionLogBackfill b = new VersionLogBackfill(storage, Math.max(2, page));
    b.walk();
    return new Outcome(b.deleted, b.logged, b.unlogged);
  }

  private void walk() throws StorageException {
    try (Transaction tx = storage.begin()) {
      snapshots =
          tx.scanAll(SnapshotRow.TABLE, LockMode.READ_COMMITTED).stream()
              .mapToLong(SnapshotRow::snapshotId)
              .sorted()
              .toArray();
      tx.commit();
    }
    Key after = null;
    List<InodeVersionRow> entry = new ArrayList<>();
    while (true) {
      List<InodeVersionRow> rows;
      try (Transaction tx = storage.begin()) {
        rows = tx.scanFrom(InodeVersionRow.TABLE, null, after, page, LockMode.READ_COMMITTED);
        tx.commit();
      }
      // Each entry whole: the rows of the last one may go on in the next page.
      List<List<InodeVersionRow>> whole = new ArrayList<>();
      for (InodeVersionRow v : rows) {
        if (!entry.isEmpty() && !sameEntry(entry.get(0), v)) {
          whole.add(entry);
          entry = new ArrayList<>();
        }
        entry.add(v);
      }
      boolean end = rows.size() < page;
      if (end && !entry.isEmpty()) {
        whole.add(entry);
        entry = new ArrayList<>();
      }
      if (!whole.isEmpty()) {
        try (Transaction tx = storage.begin()) {
          for (List<InodeVersionRow> e : whole) {
            judge(tx, e);
          }
          tx.commit();
        }
      }
      if (end) {
        return;
      }
      after = InodeVersionRow.TABLE.keyOf(rows.get(rows.size() - 1));
    }
  }

  private static boolean sameEntry(InodeVersionRow a, InodeVersionRow b) {
    return a.parentId() == b.parentId() && a.name().equals(b.name());
  }

  /** One entry's versions, in snapshot order. */
  private void judge(Transaction tx, List<InodeVersionRow> versions) throws StorageException {
    long u = 0;
    Long keeper = null;
    for (InodeVersionRow v : versions) {
      if (!read(u, v.snapshotId())) {
        tx.delete(InodeVersionRow.TABLE, v);
        if (v.present() && InodeFlags.hasAttributeRows(v.permission())) {
          for (XAttrVersionRow a :
              tx.findByPartition(
                  XAttrVersionRow.TABLE,
                  v.parentId(),
                  "entry_name",
                  v.name(),
                  LockMode.READ_COMMITTED)) {
            if (a.snapshotId() == v.snapshotId()) {
              tx.delete(XAttrVersionRow.TABLE, a);
            }
          }
        }
        deleted++;
        continue; // the next version's range now starts at u
      }
      if (keeper == null) {
        keeper = keeperOf(tx, v.parentId());
      }
      if (keeper == 0) {
        unlogged++;
      } else {
        tx.insertIfAbsent(
            SnapshotVersionLogRow.TABLE,
            new SnapshotVersionLogRow(keeper, v.snapshotId(), v.parentId(), v.name()));
        logged++;
      }
      u = v.snapshotId();
    }
  }

  /** Whether a snapshot of any directory is in {@code (u, v]}. */
  private boolean read(long u, long v) {
    int i = Arrays.binarySearch(snapshots, u + 1);
    int at = i >= 0 ? i : -i - 1;
    return at < snapshots.length && snapshots[at] <= v;
  }

  /**
   * The directory whose snapshots read the versions of {@code parentId}'s entries, its path read by
   * id (read committed); 0 when the path is not known or nothing covers it.
   */
  private long keeperOf(Transaction tx, long parentId) throws StorageException {
    Long known = keeperByDir.get(parentId);
    if (known != null) {
      return known;
    }
    Deque<InodeRow> path = new ArrayDeque<>();
    long at = parentId;
    while (true) {
      List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", at, LockMode.READ_COMMITTED);
      if (found.isEmpty()) {
        keeperByDir.put(parentId, 0L);
        return 0;
      }
      InodeRow row = found.get(0);
      path.addFirst(row);
      if (row.id() == Inodes.ROOT_ID || row.parentId() == Inodes.DETACHED) {
        break;
      }
      at = row.parentId();
    }
    SnapshotKeptFileRow k = LockPhase.keeperOfPath(List.copyOf(path));
    long keeper = k == null ? 0 : k.dirId();
    keeperByDir.put(parentId, keeper);
    return keeper;
  }
}
