package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One file's blocks and where their replicas are, as a lock phase read them: after the file's inode
 * (DESIGN.md §6), one partition-pruned scan per table, all in the file's partition. The block rows
 * are locked when the operation changes blocks: the lock on a block row protects its replica rows,
 * which datanode reports change without locking the inode.
 */
public final class FileBlocks {
  private final long inodeId;
  private final List<BlockInfoRow> blocks;
  private final Map<Long, List<ReplicaRow>> replicas = new HashMap<>();
  private final Map<Long, List<ReplicaUnderConstructionRow>> expected = new HashMap<>();
  private final Map<Long, List<CorruptReplicaRow>> corrupt = new HashMap<>();
  private final java.util.Set<Long> checked = new java.util.HashSet<>();
  private Map<Long, List<ExcessReplicaRow>> excess;
  private Map<Long, PendingBlockRow> pending;
  private java.util.Set<io.hops.dal.schema.Key> invalidated;
  private final Map<Long, List<InvalidatedBlockRow>> invalidations = new HashMap<>();

  private FileBlocks(long inodeId, List<BlockInfoRow> blocks) {
    this.inodeId = inodeId;
    this.blocks = new ArrayList<>(blocks);
    this.blocks.sort(Comparator.comparingInt(BlockInfoRow::blockIndex));
  }

  /** Reads the blocks only (one PPIS), at {@code mode}. */
  public static FileBlocks blocksOnly(LockPhase tx, long inodeId, LockMode mode)
      throws StorageException {
    return new FileBlocks(inodeId, tx.findByPartition(BlockInfoRow.TABLE, inodeId, mode));
  }

  /**
   * Reads the blocks at {@code mode} and, if there are any, their replicas, expected replicas,
   * corrupt replicas and re-replication entries read committed (up to 5 PPIS), and the storages
   * they name.
   */
  public static FileBlocks lock(
      LockPhase tx, long inodeId, LockMode mode, DatanodeManager datanodes)
      throws StorageException {
    FileBlocks f = blocksOnly(tx, inodeId, mode);
    if (f.blocks.isEmpty()) {
      return f;
    }
    for (ReplicaRow r : tx.findByPartition(ReplicaRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.replicas.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
      datanodes.storage(r.storageId());
    }
    for (ReplicaUnderConstructionRow r :
        tx.findByPartition(ReplicaUnderConstructionRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.expected.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
      datanodes.storage(r.storageId());
    }
    for (CorruptReplicaRow r :
        tx.findByPartition(CorruptReplicaRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.corrupt.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
    }
    for (UnderReplicatedBlockRow r :
        tx.findByPartition(UnderReplicatedBlockRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.checked.add(r.blockId());
    }
    return f;
  }

  public long inodeId() {
    return inodeId;
  }

  /** The blocks in file order. */
  public List<BlockInfoRow> blocks() {
    return blocks;
  }

  public boolean isEmpty() {
    return blocks.isEmpty();
  }

  public BlockInfoRow last() {
    return blocks.isEmpty() ? null : blocks.get(blocks.size() - 1);
  }

  public BlockInfoRow penultimate() {
    return blocks.size() < 2 ? null : blocks.get(blocks.size() - 2);
  }

  public BlockInfoRow block(long blockId) {
    for (BlockInfoRow b : blocks) {
      if (b.blockId() == blockId) {
        return b;
      }
    }
    return null;
  }

  /** Finalized replicas that datanodes reported. */
  public List<ReplicaRow> replicas(long blockId) {
    return replicas.getOrDefault(blockId, List.of());
  }

  /** Where a block under construction is expected (its write pipeline). */
  public List<ReplicaUnderConstructionRow> expected(long blockId) {
    return expected.getOrDefault(blockId, List.of());
  }

  /** Whether the block is already queued for a replication check. */
  public boolean queuedForCheck(long blockId) {
    return checked.contains(blockId);
  }

  /** Notes that the execute phase queued the block for a replication check. */
  public void markQueued(long blockId) {
    checked.add(blockId);
  }

  public List<CorruptReplicaRow> corrupt(long blockId) {
    return corrupt.getOrDefault(blockId, List.of());
  }

  /** The file's length: the bytes of all blocks, the last one as far as known. */
  public long length() {
    return blocks.stream().mapToLong(BlockInfoRow::numBytes).sum();
  }

  /** Replaces a block row in this view after the execute phase changed it. */
  public void replace(BlockInfoRow changed) {
    for (int i = 0; i < blocks.size(); i++) {
      if (blocks.get(i).blockId() == changed.blockId()) {
        blocks.set(i, changed);
        return;
      }
    }
    blocks.add(changed);
  }

  public void remove(long blockId) {
    blocks.removeIf(b -> b.blockId() == blockId);
  }

  /**
   * Also reads, read committed, the rows that removing a complete block deletes or adds to: excess
   * replicas, pending re-replications and pending invalidations (3 PPIS).
   */
  public FileBlocks withRemovalRows(LockPhase tx) throws StorageException {
    excess = new HashMap<>();
    pending = new HashMap<>();
    invalidated = new java.util.HashSet<>();
    if (blocks.isEmpty()) {
      return this;
    }
    for (ExcessReplicaRow r :
        tx.findByPartition(ExcessReplicaRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      excess.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
    }
    for (PendingBlockRow r :
        tx.findByPartition(PendingBlockRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      pending.put(r.blockId(), r);
    }
    for (InvalidatedBlockRow r :
        tx.findByPartition(InvalidatedBlockRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
      invalidations.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
    }
    return this;
  }

  /** Excess replicas of a block ({@link #withRemovalRows} only). */
  public List<ExcessReplicaRow> excess(long blockId) {
    return excess == null ? List.of() : excess.getOrDefault(blockId, List.of());
  }

  /** The block's pending re-replication, or null ({@link #withRemovalRows} only). */
  public PendingBlockRow pending(long blockId) {
    return pending == null ? null : pending.get(blockId);
  }

  /** Invalidations pending for a block's replicas ({@link #withRemovalRows} only). */
  public List<InvalidatedBlockRow> invalidations(long blockId) {
    return invalidations.getOrDefault(blockId, List.of());
  }

  /**
   * Notes an invalidation about to be written; false if one for the same replica is already pending
   * (read by {@link #withRemovalRows} or noted before).
   */
  public boolean noteInvalidation(InvalidatedBlockRow r) {
    if (invalidated == null) {
      invalidated = new java.util.HashSet<>();
    }
    return invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
  }

  /** Replaces a block's finalized replicas in this view after the execute phase changed them. */
  public void setReplicas(long blockId, List<ReplicaRow> rows) {
    replicas.put(blockId, new ArrayList<>(rows));
  }

  /** Replaces a block's expected replicas in this view after the execute phase changed them. */
  public void setExpected(long blockId, List<ReplicaUnderConstructionRow> rows) {
    expected.put(blockId, new ArrayList<>(rows));
  }
}
