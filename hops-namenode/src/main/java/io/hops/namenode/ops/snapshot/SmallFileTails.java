package io.hops.namenode.ops.snapshot;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * What snapshots keep of a file stored in the database (docs/architecture.md, "Snapshots", "Small
 * files"): its bytes are rows keyed by its inode id, which an append or a truncate in the database
 * rewrites and a move to datanodes deletes. Before such a change, while the latest snapshot that
 * covers the file has it ({@link LockPhase#snapshotKeeperOf}), the rows are copied under a tail id
 * (a {@code snapshot_file_tails} row at that snapshot, an inode id no inode has, and a {@code
 * snapshot_kept_files} row that releases it with the snapshots, as {@link CopyOnTruncate}'s tails
 * are): once per file and snapshot, however many changes follow it. A snapshot {@code s} reads the
 * file's bytes from the first of its tails at {@code s} or later, else from the live rows, at the
 * length its entry's version says ({@link #dataIdAt}): the first change after {@code s} is what
 * made that tail, so it holds the bytes as they were at {@code s}. A deleted file keeps its rows
 * under its inode id ({@code DeletedInodes}); the leader's release of a kept file deletes them
 * ({@code ReleaseBlocks}).
 *
 * <p>Cost: nothing where no snapshot has the file (the registration answers with no read); else a
 * primary-key read of the tail at the latest snapshot, and the first change after it writes the
 * tail and kept rows and the copy (one row, or one per 8 KB piece).
 */
public final class SmallFileTails {
  private final InodeRow file;
  private final SnapshotKeptFileRow keeper;

  /** The tail at the keeper's snapshot, if a change since that snapshot made it already. */
  private final SnapshotFileTailRow existing;

  /** The usage rows that tail keeps charged, by quota directory (a truncate's). */
  private final List<SnapshotKeptUsageRow> charged;

  /** The other directories whose snapshots have a file marked by several: each holds the tail. */
  private final List<SnapshotKeptFileRow> others;

  private SmallFileTails(
      InodeRow file,
      SnapshotKeptFileRow keeper,
      List<SnapshotKeptFileRow> others,
      SnapshotFileTailRow existing,
      List<SnapshotKeptUsageRow> charged) {
    this.file = file;
    this.keeper = keeper;
    this.others = others;
    this.existing = existing;
    this.charged = charged;
  }

  /**
   * Lock phase of a change that rewrites or removes the rows of database file {@code file} (locked
   * exclusively, its entry registered): null when no snapshot reads them. With {@code quotaIds} (a
   * truncate's, in id order), the usage rows an existing tail keeps charged are locked too, before
   * the caller's quota rows (docs/architecture.md, "Lock order").
   */
  public static SmallFileTails lock(LockPhase tx, InodeRow file, List<Long> quotaIds)
      throws StorageException {
    if (file == null || file.isDir() || !file.fileStoredInDb() || file.size() == 0) {
      return null;
    }
    List<SnapshotKeptFileRow> holders = tx.tailHoldersOf(file);
    SnapshotKeptFileRow keeper = holders.isEmpty() ? null : holders.get(0);
    if (keeper != null && keeper.snapshotId() <= 0) {
      // Kept for good (two directories' snapshots have it): tailed at its own entry's snapshot.
      SnapshotKeptFileRow own = tx.entryKeeperOf(file);
      keeper =
          own == null ? null : new SnapshotKeptFileRow(keeper.dirId(), own.snapshotId(), file.id());
    }
    if (keeper == null) {
      return null;
    }
    SnapshotFileTailRow existing =
        tx.find(
            SnapshotFileTailRow.TABLE,
            SnapshotFileTailRow.TABLE.key(file.id(), keeper.snapshotId()),
            LockMode.READ_COMMITTED);
    List<SnapshotKeptUsageRow> charged = new ArrayList<>();
    if (existing != null && !quotaIds.isEmpty()) {
      List<Key> keys = new ArrayList<>();
      for (long q : quotaIds) {
        keys.add(
            SnapshotKeptUsageRow.TABLE.key(
                keeper.dirId(), keeper.snapshotId(), existing.tailId(), q));
      }
      for (SnapshotKeptUsageRow u :
          tx.findBatch(SnapshotKeptUsageRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (u != null) {
          charged.add(u);
        }
      }
    }
    List<SnapshotKeptFileRow> others =
        holders.size() > 1 ? List.copyOf(holders.subList(1, holders.size())) : List.of();
    return new SmallFileTails(file, keeper, others, existing, charged);
  }

  /** Whether {@link #keep} copies the rows: no change since the latest snapshot made the tail. */
  public boolean copies() {
    return existing == null;
  }

  /**
   * Whether the live bytes are the ones the snapshots have, as HDFS's last block is until a
   * copy-on-truncate replaces it: no truncate since the latest snapshot charged the tail.
   */
  public boolean liveBytesInSnapshot() {
    return charged.stream().noneMatch(u -> u.ds() > 0);
  }

  /**
   * Copies {@code data}, the file's bytes now, under a new tail at the latest snapshot (unless a
   * change since that snapshot did); answers the tail id.
   */
  public long keep(ExecutePhase tx, IdPool inodeIds, SmallFileStore store, byte[] data)
      throws StorageException {
    if (existing != null) {
      return existing.tailId();
    }
    long tailId = inodeIds.next();
    tx.insert(
        SnapshotFileTailRow.TABLE,
        new SnapshotFileTailRow(file.id(), keeper.snapshotId(), tailId, 0));
    tx.insert(
        SnapshotKeptFileRow.TABLE,
        new SnapshotKeptFileRow(keeper.dirId(), keeper.snapshotId(), tailId));
    for (SnapshotKeptFileRow o : others) {
      tx.insert(
          SnapshotKeptFileRow.TABLE, new SnapshotKeptFileRow(o.dirId(), o.snapshotId(), tailId));
    }
    store.write(tx, tailId, data);
    return tailId;
  }

  /**
   * Keeps {@code ds} bytes of storage space charged to each quota directory of {@code quotaIds}
   * until the tail {@code tailId} is released (a truncate's cut bytes, as HDFS charges the block
   * its copy-on-truncate keeps): one {@code snapshot_kept_usage} row per quota directory.
   */
  public void charge(ExecutePhase tx, long tailId, List<Long> quotaIds, long ds)
      throws StorageException {
    if (ds == 0) {
      return;
    }
    for (long q : quotaIds) {
      SnapshotKeptUsageRow u =
          charged.stream().filter(r -> r.quotaId() == q).findFirst().orElse(null);
      if (u == null) {
        tx.insert(
            SnapshotKeptUsageRow.TABLE,
            new SnapshotKeptUsageRow(keeper.dirId(), keeper.snapshotId(), tailId, q, 0, ds));
      } else {
        tx.update(
            SnapshotKeptUsageRow.TABLE,
            new SnapshotKeptUsageRow(
                u.dirId(), u.snapshotId(), u.inodeId(), q, u.ns(), u.ds() + ds));
      }
    }
  }

  /**
   * Where snapshot {@code snapshotId} reads the bytes of database file {@code file} (its row as of
   * that snapshot): the first of the file's tails at the snapshot or later, else its inode id (its
   * live rows, or those a delete kept). One pruned scan of the tails, read committed.
   */
  public static long dataIdAt(LockPhase tx, InodeRow file, long snapshotId)
      throws StorageException {
    return CopyOnTruncate.tails(tx, file.id()).stream()
        .filter(t -> t.snapshotId() >= snapshotId && !t.isReleased())
        .min(Comparator.comparingLong(SnapshotFileTailRow::snapshotId))
        .map(SnapshotFileTailRow::tailId)
        .orElse(file.id());
  }
}
