package io.hops.namenode.ops.snapshot;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockOffsets;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;

/**
 * HDFS's copy-on-truncate over the database (docs/architecture.md, "Snapshots", "Truncate and
 * append"). A truncate below the length an existing snapshot has of a file keeps, for the
 * snapshots, every live block one of them still reads from the live file: the blocks wholly past
 * the new length move to the file's <em>tail</em> at the latest snapshot (its {@code
 * snapshot_file_tails} row names an inode id no inode has, under which their block rows and
 * replicas are kept, and a {@code snapshot_kept_files} row releases it with the snapshots); the
 * block the new length cuts is copied by the datanodes into a new block (a new id) by the
 * truncate's block recovery, and moves to the tail when the recovery commits ({@link #commitCopy}),
 * so that the snapshots read it whole meanwhile. A snapshot {@code s} reads a block index from the
 * first tail at {@code s} or later that has it, else from the live file ({@link SnapshotBlocks}).
 */
public final class CopyOnTruncate {
  private final InodeRow file;
  private final SnapshotKeptFileRow keeper;

  /** The existing snapshots that have the file, and their lengths of it. */
  private final NavigableMap<Long, Long> lengths;

  /** The file's tails by snapshot id, and the block indexes each holds. */
  private final NavigableMap<Long, SnapshotFileTailRow> tails = new TreeMap<>();

  private final Map<Long, Set<Integer>> indexes = new java.util.HashMap<>();
  private SnapshotFileTailRow tail;

  /** The quota directories above the file, and the usage rows its tail at the keeper has. */
  private List<Long> quotaIds = List.of();

  private final Map<Long, SnapshotKeptUsageRow> usage = new java.util.HashMap<>();

  /** The bytes this truncate moves into the tail (whole blocks, and the cut block copied). */
  private long keptBytes;

  /**
   * The other directories whose snapshots have the file (a file marked by several), each holding a
   * new tail by a kept row of its own (docs/architecture.md, "Snapshots", several holders).
   */
  private final List<SnapshotKeptFileRow> otherHolders;

  private CopyOnTruncate(
      InodeRow file,
      SnapshotKeptFileRow keeper,
      List<SnapshotKeptFileRow> otherHolders,
      NavigableMap<Long, Long> lengths) {
    this.file = file;
    this.keeper = keeper;
    this.otherHolders = otherHolders;
    this.lengths = lengths;
  }

  /**
   * Lock phase of a truncate of {@code file} (locked exclusively) that the existing snapshots in
   * {@code lengths} have (by id, at their lengths), the latest registered one being {@code keeper}
   * (the directory and snapshot the tail is kept under; {@code otherHolders} the other directories
   * whose snapshots have it, for a file marked by several): reads the file's tails and their
   * blocks' indexes, read committed (a pruned scan, and one per tail).
   */
  public static CopyOnTruncate lock(
      LockPhase tx,
      InodeRow file,
      SnapshotKeptFileRow keeper,
      List<SnapshotKeptFileRow> otherHolders,
      NavigableMap<Long, Long> lengths,
      List<Long> quotaIds)
      throws StorageException {
    NavigableMap<Long, Long> having = new TreeMap<>();
    lengths.forEach(
        (s, length) -> {
          if (length > 0) {
            having.put(s, length);
          }
        });
    CopyOnTruncate c = new CopyOnTruncate(file, keeper, List.copyOf(otherHolders), having);
    for (SnapshotFileTailRow t : tails(tx, file.id())) {
      c.tails.put(t.snapshotId(), t);
      Set<Integer> held = new HashSet<>();
      for (BlockInfoRow b :
          FileBlocks.blocksOnly(tx, t.tailId(), LockMode.READ_COMMITTED).blocks()) {
        if (b.blockId() != t.copyId()) {
          held.add(b.blockIndex());
        }
      }
      c.indexes.put(t.tailId(), held);
    }
    c.tail = c.tails.get(keeper.snapshotId());
    c.quotaIds = quotaIds;
    if (c.tail != null && !quotaIds.isEmpty()) {
      // The usage the tail keeps charged, before the quota rows: the order of "Lock order".
      List<Key> keys = new ArrayList<>();
      for (long q : quotaIds) {
        keys.add(
            SnapshotKeptUsageRow.TABLE.key(
                keeper.dirId(), keeper.snapshotId(), c.tail.tailId(), q));
      }
      for (SnapshotKeptUsageRow u :
          tx.findBatch(SnapshotKeptUsageRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (u != null) {
          c.usage.put(u.quotaId(), u);
        }
      }
    }
    return c;
  }

  /**
   * Keeps the bytes this truncate moved to the tail (whole blocks, and the cut block copied)
   * charged to the quota directories above, times {@code replication}, as HDFS counts the blocks
   * its file diffs keep until the snapshots go: one {@code snapshot_kept_usage} row per quota
   * directory, released with the tail's kept row. Answers the storage space kept.
   */
  public long chargeKept(ExecutePhase tx, short replication) throws StorageException {
    long ds = keptBytes * replication;
    if (ds == 0 || tail == null) {
      return 0;
    }
    for (long q : quotaIds) {
      SnapshotKeptUsageRow u = usage.get(q);
      if (u == null) {
        tx.insert(
            SnapshotKeptUsageRow.TABLE,
            new SnapshotKeptUsageRow(keeper.dirId(), keeper.snapshotId(), tail.tailId(), q, 0, ds));
      } else {
        tx.update(
            SnapshotKeptUsageRow.TABLE,
            new SnapshotKeptUsageRow(
                u.dirId(), u.snapshotId(), u.inodeId(), q, u.ns(), u.ds() + ds));
      }
    }
    return ds;
  }

  /**
   * The storage space the tails of {@code files} (file id to its replication) keep, their blocks
   * times the file's replication: HDFS's {@code storagespaceConsumed} of a file counts the blocks
   * its diffs keep beside its own, so its content summary does. A tail released while its copy is
   * in progress is no snapshot's, and a copy in progress is not kept. Cost: one batched read of the
   * files' tails, read committed, and where some exist one of their blocks; nothing for no file.
   */
  public static long keptSpace(LockPhase tx, Map<Long, Short> files) throws StorageException {
    if (files.isEmpty()) {
      return 0;
    }
    Map<Long, SnapshotFileTailRow> byTail = new java.util.HashMap<>();
    for (SnapshotFileTailRow t :
        tx.findByPartitions(
            SnapshotFileTailRow.TABLE, List.copyOf(files.keySet()), LockMode.READ_COMMITTED)) {
      if (!t.isReleased()) {
        byTail.put(t.tailId(), t);
      }
    }
    if (byTail.isEmpty()) {
      return 0;
    }
    long space = 0;
    for (BlockInfoRow b :
        tx.findByPartitions(
            BlockInfoRow.TABLE, List.copyOf(byTail.keySet()), LockMode.READ_COMMITTED)) {
      SnapshotFileTailRow t = byTail.get(b.inodeId());
      if (t != null && b.blockId() != t.copyId()) {
        space += b.numBytes() * files.get(t.inodeId());
      }
    }
    return space;
  }

  /** The tails of file {@code inodeId} (a pruned scan, read committed). */
  static List<SnapshotFileTailRow> tails(LockPhase tx, long inodeId) throws StorageException {
    return tx.findByPartition(SnapshotFileTailRow.TABLE, inodeId, LockMode.READ_COMMITTED);
  }

  /**
   * Whether an existing snapshot reads live block {@code b} (HDFS isBlockInLatestSnapshot and the
   * blocks its diffs keep): one whose length goes past the block's start, with no tail at it or
   * later holding the block's index.
   */
  public boolean snapshotsRead(BlockInfoRow b) {
    for (Map.Entry<Long, Long> s : lengths.entrySet()) {
      if (s.getValue() > b.startOffset() && !shadowed(s.getKey(), b.blockIndex())) {
        return true;
      }
    }
    return false;
  }

  private boolean shadowed(long snapshotId, int index) {
    for (SnapshotFileTailRow t : tails.tailMap(snapshotId, true).values()) {
      if (indexes.getOrDefault(t.tailId(), Set.of()).contains(index)) {
        return true;
      }
    }
    return false;
  }

  /**
   * Moves live block {@code b} of {@code blocks} (read with its removal rows) to the tail, with its
   * replicas: the snapshots keep reading it, the live file no longer has it.
   */
  public void keep(ExecutePhase tx, IdPool inodeIds, FileBlocks blocks, BlockInfoRow b)
      throws StorageException {
    SnapshotFileTailRow t = tail(tx, inodeIds);
    move(tx, blocks, b, t.tailId());
    keptBytes += b.numBytes();
    indexes.computeIfAbsent(t.tailId(), k -> new HashSet<>()).add(b.blockIndex());
  }

  /**
   * Starts the copy of the live file's last block {@code last}, cut by the truncate to {@code
   * length} bytes: new block {@code copyId}, recorded on the tail, which the block recovery gives
   * the datanodes as the copy's id. Until the recovery commits, the copy's row waits in the tail
   * (under construction, no offset row; the snapshots skip it), so that the datanodes' receipts of
   * its replicas find it, as HDFS's blocks map has it from the truncate on.
   */
  public long copyLast(
      ExecutePhase tx, IdPool inodeIds, BlockInfoRow last, long length, long copyId)
      throws StorageException {
    SnapshotFileTailRow t = tail(tx, inodeIds).withCopy(copyId);
    tx.update(SnapshotFileTailRow.TABLE, t);
    tail = t;
    keptBytes += last.numBytes(); // the old block stays whole for the snapshots
    tx.insert(
        BlockInfoRow.TABLE,
        new BlockInfoRow(
            t.tailId(),
            copyId,
            last.blockIndex(),
            last.startOffset(),
            length,
            last.generationStamp(),
            BlockState.UNDER_CONSTRUCTION,
            0,
            -1,
            0));
    tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(copyId, t.tailId()));
    return copyId;
  }

  private SnapshotFileTailRow tail(ExecutePhase tx, IdPool inodeIds) throws StorageException {
    if (tail == null) {
      tail = new SnapshotFileTailRow(file.id(), keeper.snapshotId(), inodeIds.next(), 0);
      tx.insert(SnapshotFileTailRow.TABLE, tail);
      tx.insert(
          SnapshotKeptFileRow.TABLE,
          new SnapshotKeptFileRow(keeper.dirId(), keeper.snapshotId(), tail.tailId()));
      for (SnapshotKeptFileRow o : otherHolders) {
        tx.insert(
            SnapshotKeptFileRow.TABLE,
            new SnapshotKeptFileRow(o.dirId(), o.snapshotId(), tail.tailId()));
      }
      tails.put(tail.snapshotId(), tail);
    }
    return tail;
  }

  /** A copy in progress: the tail, and the copy's row and replicas waiting in it. */
  public record InProgress(
      SnapshotFileTailRow tail,
      BlockInfoRow block,
      List<ReplicaRow> replicas,
      List<ReplicaUnderConstructionRow> expected) {}

  /**
   * Lock phase of {@code commitBlockSynchronization} of a file being written: the copy of its last
   * block in progress, or null (a pruned scan of its tails, read committed under the file's lock;
   * the copy's rows locked exclusively).
   */
  public static InProgress copyInProgress(LockPhase tx, long inodeId) throws StorageException {
    for (SnapshotFileTailRow t : tails(tx, inodeId)) {
      if (t.copyId() != 0) {
        long g = t.tailId();
        long id = t.copyId();
        return new InProgress(
            t,
            tx.find(BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(g, id), LockMode.EXCLUSIVE),
            tx.findByPartition(ReplicaRow.TABLE, g, "block_id", id, LockMode.READ_COMMITTED),
            tx.findByPartition(
                ReplicaUnderConstructionRow.TABLE, g, "block_id", id, LockMode.READ_COMMITTED));
      }
    }
    return null;
  }

  /**
   * The recovery of a copy committed ({@code commitBlockSynchronization}): the cut block {@code
   * old} moves to the tail whole, and the copy leaves it: into the live file when the datanodes
   * made it ({@code made}, the row the caller writes with its replicas), or gone. A tail its
   * snapshots released meanwhile ({@link SnapshotFileTailRow#isReleased}) goes now, and its blocks,
   * the old one among them, are released as a deleted file's (HDFS removes the old block once no
   * snapshot has it).
   */
  public static void commitCopy(
      ExecutePhase tx, FileBlocks blocks, InProgress c, BlockInfoRow old, BlockInfoRow made)
      throws StorageException {
    move(tx, blocks, old, c.tail().tailId());
    if (c.tail().isReleased()) {
      tx.delete(SnapshotFileTailRow.TABLE, c.tail());
      tx.insert(ReleasedFileRow.TABLE, new ReleasedFileRow(c.tail().tailId()));
    } else {
      tx.update(SnapshotFileTailRow.TABLE, c.tail().withCopy(0));
    }
    if (c.block() != null) {
      tx.delete(BlockInfoRow.TABLE, c.block());
    }
    for (ReplicaRow r : c.replicas()) {
      tx.delete(ReplicaRow.TABLE, r);
    }
    for (ReplicaUnderConstructionRow r : c.expected()) {
      tx.delete(ReplicaUnderConstructionRow.TABLE, r);
    }
    long id = c.tail().copyId();
    if (made == null) {
      tx.delete(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(id));
      return;
    }
    tx.update(BlockLookupRow.TABLE, new BlockLookupRow(id, made.inodeId()));
    tx.insert(BlockOffsetRow.TABLE, BlockOffsetRow.of(made));
    blocks.replace(made);
    blocks.setReplicas(id, List.of());
    blocks.setExpected(id, List.of());
  }

  /**
   * Moves block {@code b} of {@code from} with its replica rows to inode id {@code to}, complete at
   * its own length and stamp; its expected replicas and re-replication entries go (kept blocks are
   * not re-replicated).
   */
  private static void move(ExecutePhase tx, FileBlocks from, BlockInfoRow b, long to)
      throws StorageException {
    long id = b.blockId();
    BlockOffsets.delete(tx, b);
    BlockOffsets.insert(
        tx,
        new BlockInfoRow(
            to,
            id,
            b.blockIndex(),
            b.startOffset(),
            b.numBytes(),
            b.generationStamp(),
            BlockState.COMPLETE,
            b.timestamp(),
            -1,
            0));
    tx.update(BlockLookupRow.TABLE, new BlockLookupRow(id, to));
    for (ReplicaRow r : from.replicas(id)) {
      tx.delete(ReplicaRow.TABLE, r);
      tx.insert(ReplicaRow.TABLE, new ReplicaRow(to, id, r.storageId(), r.replicaIndex()));
    }
    for (ReplicaUnderConstructionRow r : from.expected(id)) {
      tx.delete(ReplicaUnderConstructionRow.TABLE, r);
    }
    for (CorruptReplicaRow r : from.corrupt(id)) {
      tx.delete(CorruptReplicaRow.TABLE, r);
      tx.insert(
          CorruptReplicaRow.TABLE,
          new CorruptReplicaRow(to, id, r.storageId(), r.timestamp(), r.reason()));
    }
    for (ExcessReplicaRow r : from.excess(id)) {
      tx.delete(ExcessReplicaRow.TABLE, r);
      tx.insert(ExcessReplicaRow.TABLE, new ExcessReplicaRow(to, id, r.storageId(), r.timestamp()));
    }
    for (InvalidatedBlockRow r : new ArrayList<>(from.invalidations(id))) {
      tx.delete(InvalidatedBlockRow.TABLE, r);
      tx.insert(
          InvalidatedBlockRow.TABLE,
          new InvalidatedBlockRow(to, id, r.storageId(), r.generationStamp(), r.numBytes()));
    }
    PendingBlockRow pending = from.pending(id);
    if (pending != null) {
      tx.delete(PendingBlockRow.TABLE, pending);
    }
    if (from.queuedForCheck(id)) {
      tx.delete(UnderReplicatedBlockRow.TABLE, UnderReplicatedBlockRow.TABLE.key(b.inodeId(), id));
    }
    from.remove(id);
    from.setReplicas(id, List.of());
    from.setExpected(id, List.of());
  }
}
