package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What snapshots keep charged below a directory being renamed, with a quota or not (the {@code
 * snapshot_kept_usage} rows naming it, {@link KeptUsageDirs}), carried with it to the destination's
 * directories, as HDFS's rename moves a directory's {@code computeQuotaUsage}, which counts the
 * snapshot data below it (docs/architecture.md, "Snapshots", quota usage of what snapshots keep).
 *
 * <p>A charge is one delete's (or truncate's, or rename's) rows, one per directory that was above
 * it (one per quota directory for a truncate's tail, and for charges made before every directory
 * was named), all with the same directory, snapshot and inode: the rename moves the directory's
 * whole usage, so each source directory (those not above the destination too) loses the charge with
 * its row, and each destination one gains it with a row of its own, released with the others by the
 * snapshots' deletion; only the quota directories' {@code quota} rows change. A source quota
 * directory with no row for a charge (one made before, whose quota was set after it) gets it back.
 *
 * <p>Locks, in the order of "Lock order" (the usage rows before the quota rows): the rows naming
 * the directory (an index read of {@code quota_id}), then each source and destination directory's
 * row of the same charges (one batched primary-key read), exclusively. Cost: a rename of a
 * directory on a namenode with snapshots on reads them (one index read); the rest only where
 * snapshots keep something below it: a batched read, and a row per charge and directory on one side
 * only.
 */
final class CarriedKeptUsage {
  private final List<SnapshotKeptUsageRow> carried;
  private final List<Long> sourceOnly;
  private final List<Long> destinationOnly;
  private final Map<Key, SnapshotKeptUsageRow> found;
  private UncountedCharges counts = UncountedCharges.NONE;

  private CarriedKeptUsage(
      List<SnapshotKeptUsageRow> carried,
      List<Long> sourceOnly,
      List<Long> destinationOnly,
      Map<Key, SnapshotKeptUsageRow> found) {
    this.carried = carried;
    this.sourceOnly = sourceOnly;
    this.destinationOnly = destinationOnly;
    this.found = found;
  }

  /**
   * Locks the rows naming quota directory {@code dirId}, moved from {@code src} (its first {@code
   * sn} inodes above it) to below {@code dst} (its first {@code tn}), and those of the same charges
   * naming the quota directories on one side only.
   */
  static CarriedKeptUsage lock(
      LockPhase tx, long dirId, ResolvedPath src, int sn, ResolvedPath dst, int tn)
      throws StorageException {
    List<SnapshotKeptUsageRow> carried =
        tx.findByIndex(SnapshotKeptUsageRow.TABLE, "quota_id", dirId, LockMode.EXCLUSIVE);
    List<Long> above = KeptUsageDirs.of(src, sn);
    List<Long> below = KeptUsageDirs.of(dst, tn);
    List<Long> sourceOnly = new ArrayList<>(above);
    sourceOnly.removeAll(below);
    List<Long> destinationOnly = new ArrayList<>(below);
    destinationOnly.removeAll(above);
    sourceOnly.remove(dirId);
    destinationOnly.remove(dirId);
    Map<Key, SnapshotKeptUsageRow> found = new HashMap<>();
    List<long[]> wanted = new ArrayList<>();
    for (SnapshotKeptUsageRow u : carried) {
      for (long q : sourceOnly) {
        wanted.add(new long[] {u.dirId(), u.snapshotId(), u.inodeId(), q});
      }
      for (long q : destinationOnly) {
        wanted.add(new long[] {u.dirId(), u.snapshotId(), u.inodeId(), q});
      }
    }
    if (!wanted.isEmpty()) {
      wanted.sort(Arrays::compare); // the primary key's order
      List<Key> keys = new ArrayList<>();
      for (long[] k : wanted) {
        keys.add(SnapshotKeptUsageRow.TABLE.key(k[0], k[1], k[2], k[3]));
      }
      for (SnapshotKeptUsageRow r :
          tx.findBatch(SnapshotKeptUsageRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (r != null) {
          found.put(SnapshotKeptUsageRow.TABLE.keyOf(r), r);
        }
      }
    }
    return new CarriedKeptUsage(carried, sourceOnly, destinationOnly, found);
  }

  /** Whether some charge it carries is still to count ({@link UncountedCharges}). */
  boolean anyUncounted() {
    return carried.stream().anyMatch(SnapshotKeptUsageRow::uncounted);
  }

  /**
   * Counts the charges it carries that were written uncounted, before the quota rows are locked:
   * false if they hold more than {@code bound} inodes.
   */
  boolean count(LockPhase tx, long bound) throws StorageException {
    counts = UncountedCharges.count(tx, carried, bound);
    return !counts.exceeded();
  }

  /**
   * Buffers the move of the charges: the source quota directories' rows deleted (one without a row
   * gets the charge back if the rename took the whole usage off it, {@code tookOffSource}; a
   * directory the latest snapshot has stays charged there by the rename's own rows instead), the
   * destination ones' written or added to.
   */
  void move(ExecutePhase tx, AncestorQuotas quotas, boolean tookOffSource) throws StorageException {
    Set<Key> rewritten = new HashSet<>();
    for (SnapshotKeptUsageRow c : carried) {
      SnapshotKeptUsageRow u = counts.filled(c);
      for (long q : sourceOnly) {
        SnapshotKeptUsageRow there = found.get(keyAt(u, q));
        if (there != null) {
          tx.delete(SnapshotKeptUsageRow.TABLE, there);
          rewritten.add(keyAt(u, q));
        } else if (tookOffSource && !u.uncounted()) {
          quotas.addTo(q, u.ns(), u.ds());
        }
      }
      for (long q : destinationOnly) {
        if (u.untilReclaim() && !u.carriesReclaimUsage() && !quotas.counts(q)) {
          continue; // written before the subtree's usage was: only quota directories are named
        }
        rewritten.add(keyAt(u, q));
        SnapshotKeptUsageRow there = counts.filled(found.get(keyAt(u, q)));
        SnapshotKeptUsageRow row =
            new SnapshotKeptUsageRow(
                u.dirId(),
                u.snapshotId(),
                u.inodeId(),
                q,
                u.ns() + (there == null ? 0 : there.ns()),
                u.ds() + (there == null ? 0 : there.ds()));
        if (there == null) {
          tx.insert(SnapshotKeptUsageRow.TABLE, row);
        } else {
          tx.update(SnapshotKeptUsageRow.TABLE, row);
        }
      }
    }
    counts.write(tx, rewritten);
  }

  /** What the snapshots keep below the directory: the sum of the charges naming it. */
  long[] usage() {
    long[] sum = new long[2];
    for (SnapshotKeptUsageRow c : carried) {
      SnapshotKeptUsageRow u = counts.filled(c);
      if (!u.uncounted()) {
        sum[0] += u.ns();
        sum[1] += u.ds();
      }
    }
    return sum;
  }

  private static Key keyAt(SnapshotKeptUsageRow u, long quotaId) {
    return SnapshotKeptUsageRow.TABLE.key(u.dirId(), u.snapshotId(), u.inodeId(), quotaId);
  }
}
