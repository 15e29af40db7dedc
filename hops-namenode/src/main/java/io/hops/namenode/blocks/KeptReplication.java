package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.RowReads;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptReplicationRow;
import java.util.List;

/**
 * The replication snapshots keep for the blocks of an inode id no live inode has (HDFS keeps such
 * blocks in its blocks map with the snapshot's INodeFile as their collection): a deleted file kept
 * for snapshots has its {@code snapshot_kept_replication} row; a copy-on-truncate tail, found by
 * the tails' index on {@code tail_id}, has its file's, live or kept (docs/architecture.md,
 * "Snapshots"). The one lookup of the block health census and the replication check; everything
 * read committed.
 *
 * @param replication 0: blocks of no file (or of a tail being released), which leave the queue
 * @param liveFile the tail's live file, whose storage policy applies; null: the default policy
 */
public record KeptReplication(short replication, InodeRow liveFile) {
  private static final KeptReplication NONE = new KeptReplication((short) 0, null);

  /** What snapshots keep for the blocks of {@code id}, an id no live inode has. */
  public static KeptReplication of(RowReads tx, long id) throws StorageException {
    KeptReplication deleted = ofDeleted(tx, id);
    if (deleted != null) {
      return deleted;
    }
    for (SnapshotFileTailRow t :
        tx.findByIndex(SnapshotFileTailRow.TABLE, "tail_id", id, LockMode.READ_COMMITTED)) {
      if (t.isReleased()) {
        return NONE; // its blocks are being released
      }
      List<InodeRow> file =
          tx.findByIndex(InodeRow.TABLE, "id", t.inodeId(), LockMode.READ_COMMITTED);
      if (!file.isEmpty()) {
        return new KeptReplication(file.get(0).replication(), file.get(0));
      }
      KeptReplication kept = ofDeleted(tx, t.inodeId());
      return kept == null ? NONE : kept;
    }
    return NONE;
  }

  /** The replication of {@code file} if it is a deleted file kept for snapshots, else null. */
  private static KeptReplication ofDeleted(RowReads tx, long file) throws StorageException {
    SnapshotKeptReplicationRow kept =
        tx.find(
            SnapshotKeptReplicationRow.TABLE,
            SnapshotKeptReplicationRow.TABLE.key(file),
            LockMode.READ_COMMITTED);
    return kept == null ? null : new KeptReplication(kept.replication(), null);
  }
}
