package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One file's blocks and where their replicas are, as a lock phase read them: after the file's inode
 * (docs/architecture.md, "Lock order"), one partition-pruned scan per table, all in the file's
 * partition. The block rows are locked when the operation changes blocks: the lock on a block row
 * protects its replica rows, which datanode reports change without locking the inode.
 *
 * <p>This class reads the view of every block ({@link #lock}); the two narrower views are read by
 * their own classes into the same holder: {@link FileBlockRange} (the blocks of a byte range, for
 * readers) and {@link FileBlockTail} (the last two blocks of a file being written).
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

  /** Null for a view of every block; for a tail view, the bytes of the blocks before the tail. */
  private Long baseLength;

  /**
   * For a range view ({@link FileBlockRange}), the blocks around the range in file order (the last
   * block may not be among them); null for a view of every block or of the tail.
   */
  private List<BlockInfoRow> window;

  /** The file's lease path as the lock phase read it (tail reads only), or null. */
  private LeasePathRow leasePath;

  FileBlocks(long inodeId, List<BlockInfoRow> blocks) {
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
    return f.withEveryReplica(tx, datanodes, false);
  }

  /**
   * Reads the replica rows of every block of the file, one PPIS per table. A view for a reader
   * ({@code forReader}) reads no re-replication entries, which only a change of the blocks asks
   * about, and the expected replicas only if a block is not complete: a complete block is located
   * by its reported replicas alone ({@link BlockManager#locatedBlock}).
   */
  FileBlocks withEveryReplica(LockPhase tx, DatanodeManager datanodes, boolean forReader)
      throws StorageException {
    FileBlocks f = this;
    for (ReplicaRow r : tx.findByPartition(ReplicaRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.replicas.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
      datanodes.storage(r.storageId());
    }
    if (!forReader || anyIncomplete(blocks)) {
      for (ReplicaUnderConstructionRow r :
          tx.findByPartition(ReplicaUnderConstructionRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
        f.expected.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
        datanodes.storage(r.storageId());
      }
    }
    for (CorruptReplicaRow r :
        tx.findByPartition(CorruptReplicaRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
      f.corrupt.computeIfAbsent(r.blockId(), b -> new ArrayList<>()).add(r);
    }
    if (!forReader) {
      for (UnderReplicatedBlockRow r :
          tx.findByPartition(UnderReplicatedBlockRow.TABLE, inodeId, LockMode.READ_COMMITTED)) {
        f.checked.add(r.blockId());
      }
    }
    return f;
  }

  /**
   * Whether a block of {@code rows} is not complete (under construction, committed, recovering).
   */
  private static boolean anyIncomplete(List<BlockInfoRow> rows) {
    for (BlockInfoRow b : rows) {
      if (b.underConstructionState() != BlockState.COMPLETE) {
        return true;
      }
    }
    return false;
  }

  /**
   * Reads one block's replicas, expected replicas ({@code withExpected}) and corrupt replicas, one
   * PPIS each bounded by the block: how the range and tail views read their few blocks.
   */
  void readReplicasOf(LockPhase tx, long b, DatanodeManager datanodes, boolean withExpected)
      throws StorageException {
    for (ReplicaRow r : BlockRowReads.perBlock(tx, ReplicaRow.TABLE, inodeId, b)) {
      replicas.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
      datanodes.storage(r.storageId());
    }
    if (withExpected) {
      for (ReplicaUnderConstructionRow r :
          BlockRowReads.perBlock(tx, ReplicaUnderConstructionRow.TABLE, inodeId, b)) {
        expected.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        datanodes.storage(r.storageId());
      }
    }
    for (CorruptReplicaRow r : BlockRowReads.perBlock(tx, CorruptReplicaRow.TABLE, inodeId, b)) {
      corrupt.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
    }
  }

  /** As {@link #withRemovalRows}, for blocks {@code ids} only: per block, and pending by key. */
  FileBlocks withRemovalRowsOf(LockPhase tx, List<Long> ids) throws StorageException {
    excess = new HashMap<>();
    pending = new HashMap<>();
    invalidated = new java.util.HashSet<>();
    for (long b : ids) {
      for (ExcessReplicaRow r : BlockRowReads.perBlock(tx, ExcessReplicaRow.TABLE, inodeId, b)) {
        excess.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
      }
      for (InvalidatedBlockRow r :
          BlockRowReads.perBlock(tx, InvalidatedBlockRow.TABLE, inodeId, b)) {
        invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
        invalidations.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
      }
    }
    for (PendingBlockRow r : BlockRowReads.byKeys(tx, PendingBlockRow.TABLE, inodeId, ids)) {
      pending.put(r.blockId(), r);
    }
    return this;
  }

  void setWindow(List<BlockInfoRow> window) {
    this.window = window;
  }

  void setLeasePath(LeasePathRow leasePath) {
    this.leasePath = leasePath;
  }

  void setBaseLength(long baseLength) {
    this.baseLength = baseLength;
  }

  /**
   * The ids of the blocks {@link BlockManager#locatedBlocks} answers for {@code [offset, offset +
   * length)}: those the range overlaps (at least one), and the last block.
   */
  List<Long> rangeBlockIds(long offset, long length) {
    java.util.LinkedHashSet<Long> ids = new java.util.LinkedHashSet<>();
    for (Placed p : inRange(offset, length)) {
      ids.add(p.block().blockId());
    }
    ids.add(last().blockId());
    return new ArrayList<>(ids);
  }

  /** A block and where it begins in its file. */
  public record Placed(BlockInfoRow block, long offset) {}

  /**
   * The blocks that {@code getBlockLocations} answers for {@code [offset, offset + length)}, as
   * HDFS's BlockManager.createLocatedBlockList picks them: from the block that holds {@code offset}
   * (none past the end of the file) while the next begins before {@code offset + length}, at least
   * one; from the first block whatever the offset if that one is empty. A range view ({@link
   * FileBlockRange}) holds these blocks and their neighbours, in file order.
   */
  public List<Placed> inRange(long offset, long length) {
    List<BlockInfoRow> seq = window == null ? blocks : window;
    List<Placed> out = new ArrayList<>();
    if (seq.isEmpty()) {
      return out;
    }
    long pos = window == null ? 0 : seq.get(0).startOffset();
    long end = offset + length;
    boolean fromFirst = seq.get(0).blockIndex() == 0;
    int count = fromFirst && seq.get(0).numBytes() == 0 ? 0 : seq.size();
    int i = 0;
    while (i < count && pos + seq.get(i).numBytes() <= offset) {
      pos += seq.get(i).numBytes();
      i++;
    }
    if (count == 0 || i < count) {
      do {
        out.add(new Placed(seq.get(i), pos));
        pos += seq.get(i).numBytes();
        i++;
      } while (pos < end && i < seq.size());
    }
    return out;
  }

  /**
   * Where the last block begins: the bytes of every block before it (a view of every block sums
   * them; a range view reads it from the block).
   */
  public long lastStart() {
    BlockInfoRow last = last();
    return window == null ? length() - last.numBytes() : last.startOffset();
  }

  /** Whether this view holds the tail only ({@link FileBlockTail}), not every block. */
  public boolean isTail() {
    return baseLength != null;
  }

  /** The index the next block of the file takes. */
  public int nextIndex() {
    BlockInfoRow last = last();
    return last == null ? 0 : last.blockIndex() + 1;
  }

  /**
   * Keeps the file's lease path naming its last and penultimate blocks as this view now has them
   * (after a block was added or removed); a penultimate this view cannot name is recorded as
   * unknown, and the next tail read reads every block once. A file without a lease path (closed)
   * has nothing to keep.
   */
  public void recordTail(ExecutePhase tx) throws StorageException {
    if (leasePath == null) {
      return;
    }
    BlockInfoRow last = last();
    long lastId = last == null ? LeasePathTail.NO_BLOCK : last.blockId();
    long penultimateId;
    if (last == null || last.blockIndex() == 0) {
      penultimateId = LeasePathTail.NO_BLOCK;
    } else {
      BlockInfoRow before = penultimate();
      penultimateId =
          before != null && before.blockIndex() == last.blockIndex() - 1
              ? before.blockId()
              : LeasePathTail.UNKNOWN_BLOCK;
    }
    if (lastId != leasePath.lastBlockId() || penultimateId != leasePath.penultimateBlockId()) {
      leasePath =
          new LeasePathRow(
              leasePath.holder(), leasePath.inodeId(), leasePath.path(), lastId, penultimateId);
      tx.update(LeasePathRow.TABLE, leasePath);
    }
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
    long tail = 0; // every located read asks: a loop, not a stream
    for (BlockInfoRow b : blocks) {
      tail += b.numBytes();
    }
    return baseLength == null ? tail : baseLength + tail;
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
