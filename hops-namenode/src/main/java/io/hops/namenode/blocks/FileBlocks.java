package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
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
 * <p>A file being written may be read as its <em>tail</em> ({@link #lockTail}): only its last and
 * penultimate blocks, whose ids its lease path keeps (as HopsFS does), so that writing an N-block
 * file costs O(N) rows, not O(N²). Every block before the penultimate is complete: addBlock refuses
 * a new block while the penultimate is not, and nothing reopens a block of an open file but its
 * last. A tail view's {@link #length()} is the file's recorded size with the tail blocks' changes.
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
   * For a range view ({@link #lockRange}), the blocks around the range in file order (the last
   * block may not be among them); null for a view of every block or of the tail.
   */
  private List<BlockInfoRow> window;

  /** The file's lease path as the lock phase read it (tail reads only), or null. */
  private LeasePathRow leasePath;

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
    return f.withEveryReplica(tx, datanodes, false);
  }

  /**
   * Reads the replica rows of every block of the file, one PPIS per table. A view for a reader
   * ({@code forReader}) reads no re-replication entries, which only a change of the blocks asks
   * about, and the expected replicas only if a block is not complete: a complete block is located
   * by its reported replicas alone ({@link BlockManager#locatedBlock}).
   */
  private FileBlocks withEveryReplica(LockPhase tx, DatanodeManager datanodes, boolean forReader)
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
   * A file of at most this many blocks ({@link #lockRange}) is read whole: its blocks in one
   * bounded scan cost fewer accesses than finding the blocks of a range, and as few rows.
   */
  static final int SMALL_FILE_BLOCKS = 8;

  /**
   * For reading {@code [offset, offset + length)} of a file ({@code getBlockLocations}): the block
   * rows of only the blocks the range covers and of the last block (the located blocks' answer),
   * found by range scans of the file's {@link BlockOffsetRow}s ({@link BlockOffsets}: one PPIS, and
   * one more for the last block when the range does not reach it), read in one batch; then their
   * replicas and corrupt replicas, one PPIS each bounded by the block, and the expected replicas of
   * a block that is not complete (where a block being written is). Reading a block of an N-block
   * file so costs the same accesses and rows whatever N. A range that covers a third of the file or
   * more reads each replica table's partition once instead ({@link #lock}); a file that its
   * recorded size says is small and that has at most {@link #SMALL_FILE_BLOCKS} blocks is read
   * whole (one PPIS for its blocks, as before there were offset rows).
   */
  public static FileBlocks lockRange(
      LockPhase tx, InodeRow file, long offset, long length, DatanodeManager datanodes)
      throws StorageException {
    long id = file.id();
    long blockSize = Math.max(1, file.preferredBlockSize());
    if (file.size() <= SMALL_FILE_BLOCKS * blockSize) {
      // Likely a few blocks: all of them in one bounded scan, as many accesses as a stat's read.
      List<BlockInfoRow> all =
          tx.scanFrom(BlockInfoRow.TABLE, id, null, SMALL_FILE_BLOCKS + 1, LockMode.READ_COMMITTED);
      if (all.size() <= SMALL_FILE_BLOCKS) {
        FileBlocks f = new FileBlocks(id, all);
        return f.blocks.isEmpty()
            ? f
            : f.withReplicasOf(tx, f.rangeBlockIds(offset, length), all.size(), datanodes);
      }
    }
    long until = Math.max(offset, offset + length);
    int page = BlockOffsets.pageFor(length, blockSize);
    BlockOffsets.Scan range = BlockOffsets.scan(tx, id, offset - blockSize, until, page);
    if (offset - blockSize >= 0
        && !range.rows().isEmpty()
        && range.rows().get(0).startOffset() > offset) {
      // A block before the window is longer than the preferred size: read from the start.
      range = BlockOffsets.scan(tx, id, -1, until, BlockOffsets.MAX_PAGE);
    }
    BlockOffsetRow lastRow = null;
    if (range.reachedEnd() && !range.rows().isEmpty()) {
      lastRow = range.rows().get(range.rows().size() - 1);
    } else {
      lastRow = lastOf(tx, file, blockSize);
    }
    if (lastRow == null) {
      // Blocks without offset rows (written before there were any): read every block.
      return lockRangeOfEveryBlock(tx, id, offset, length, datanodes);
    }
    List<BlockOffsetRow> window = window(range.rows(), offset, until);
    java.util.LinkedHashSet<Long> wanted = new java.util.LinkedHashSet<>();
    window.forEach(r -> wanted.add(r.blockId()));
    wanted.add(lastRow.blockId());
    List<Long> ids = new ArrayList<>(wanted);
    List<BlockInfoRow> rows = byKeys(tx, BlockInfoRow.TABLE, id, ids, LockMode.READ_COMMITTED);
    if (rows.size() != ids.size()) {
      return lockRangeOfEveryBlock(tx, id, offset, length, datanodes);
    }
    FileBlocks f = new FileBlocks(id, rows);
    java.util.Set<Long> inWindow = new java.util.HashSet<>();
    window.forEach(r -> inWindow.add(r.blockId()));
    f.window = new ArrayList<>();
    for (BlockInfoRow b : f.blocks) {
      if (inWindow.contains(b.blockId()) || window.isEmpty()) {
        f.window.add(b);
      }
    }
    return f.withReplicasOf(
        tx, f.rangeBlockIds(offset, length), f.last().blockIndex() + 1, datanodes);
  }

  /**
   * The file's last offset row: a scan from where the last block begins if it is no longer than the
   * preferred size (the recorded size is a hint only), else from the file's start; null if the file
   * has none.
   */
  private static BlockOffsetRow lastOf(LockPhase tx, InodeRow file, long blockSize)
      throws StorageException {
    BlockOffsets.Scan tail =
        BlockOffsets.scan(tx, file.id(), file.size() - blockSize - 1, Long.MAX_VALUE, 4);
    if (tail.rows().isEmpty()) {
      tail = BlockOffsets.scan(tx, file.id(), -1, Long.MAX_VALUE, BlockOffsets.MAX_PAGE);
    }
    return tail.rows().isEmpty() ? null : tail.rows().get(tail.rows().size() - 1);
  }

  /**
   * The rows of a scan that the answer for {@code offset} may need: from the last that begins at or
   * before {@code offset} (the block that holds it, or the block before it when that one ends
   * exactly there) up to those beginning at {@code until}; from the file's first block if the scan
   * has it, since HDFS answers from an empty first block whatever the offset.
   */
  private static List<BlockOffsetRow> window(List<BlockOffsetRow> rows, long offset, long until) {
    int from = 0;
    if (!rows.isEmpty() && rows.get(0).blockIndex() != 0) {
      for (int i = 0; i < rows.size() && rows.get(i).startOffset() <= offset; i++) {
        from = i;
      }
    }
    int to = from;
    while (to < rows.size() && rows.get(to).startOffset() <= until) {
      to++;
    }
    return rows.subList(from, to);
  }

  /** As {@link #lockRange} without offset rows: every block row of the file (one PPIS). */
  private static FileBlocks lockRangeOfEveryBlock(
      LockPhase tx, long inodeId, long offset, long length, DatanodeManager datanodes)
      throws StorageException {
    FileBlocks f = blocksOnly(tx, inodeId, LockMode.READ_COMMITTED);
    if (f.blocks.isEmpty()) {
      return f;
    }
    return f.withReplicasOf(tx, f.rangeBlockIds(offset, length), f.blocks.size(), datanodes);
  }

  /**
   * Reads the replica rows of blocks {@code ids}, one PPIS per table bounded by the block; or, when
   * they are a third or more of the file's {@code fileBlocks} blocks, of every block (one PPIS per
   * table). For a reader: the expected replicas of incomplete blocks only, no re-replication
   * entries.
   */
  private FileBlocks withReplicasOf(
      LockPhase tx, List<Long> ids, int fileBlocks, DatanodeManager datanodes)
      throws StorageException {
    if (3L * ids.size() >= fileBlocks) {
      return withEveryReplica(tx, datanodes, true);
    }
    for (long b : ids) {
      for (ReplicaRow r : perBlock(tx, ReplicaRow.TABLE, inodeId, b)) {
        replicas.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        datanodes.storage(r.storageId());
      }
      BlockInfoRow row = block(b);
      if (row == null || row.underConstructionState() != BlockState.COMPLETE) {
        for (ReplicaUnderConstructionRow r :
            perBlock(tx, ReplicaUnderConstructionRow.TABLE, inodeId, b)) {
          expected.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
          datanodes.storage(r.storageId());
        }
      }
      for (CorruptReplicaRow r : perBlock(tx, CorruptReplicaRow.TABLE, inodeId, b)) {
        corrupt.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
      }
    }
    return this;
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
   * #lockRange}) holds these blocks and their neighbours, in file order.
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

  /**
   * Reads the tail of an open file (after its inode and lease rows, docs/architecture.md, "Lock
   * order"): its lease path (PK), its last and penultimate blocks at {@code mode} (one PK or B)
   * and, per tail block, its replicas, expected and corrupt replicas (one PPIS each, bounded by the
   * block) and its replication-check entries (one PK or B); with {@code removalRows} also what
   * {@link #withRemovalRows} reads, for the tail blocks only. Falls back to {@link #lock} (every
   * block) when the file has no lease path, when the lease path does not know the tail (a file
   * reopened by append or recovery, or after an abandoned block) or names a block that is gone, and
   * when {@code wantedBlockId} (or -1) is not in the tail. Without {@code datanodes}, the tail
   * blocks only.
   */
  public static FileBlocks lockTail(
      LockPhase tx,
      InodeRow file,
      LockMode mode,
      DatanodeManager datanodes,
      long wantedBlockId,
      boolean removalRows)
      throws StorageException {
    long id = file.id();
    LeasePathRow path = LeasePathTail.pathOf(tx, file, LockMode.READ_COMMITTED);
    List<Long> ids = new ArrayList<>(2);
    boolean known =
        path != null
            && path.lastBlockId() != LeasePathTail.UNKNOWN_BLOCK
            && path.penultimateBlockId() != LeasePathTail.UNKNOWN_BLOCK;
    if (known) {
      if (path.penultimateBlockId() != LeasePathTail.NO_BLOCK) {
        ids.add(path.penultimateBlockId());
      }
      if (path.lastBlockId() != LeasePathTail.NO_BLOCK) {
        ids.add(path.lastBlockId());
      }
      known = wantedBlockId < 0 || ids.contains(wantedBlockId);
    }
    List<BlockInfoRow> rows = known ? readBlocks(tx, id, ids, mode) : null;
    if (rows == null) {
      FileBlocks all = datanodes == null ? blocksOnly(tx, id, mode) : lock(tx, id, mode, datanodes);
      all.leasePath = path;
      return removalRows ? all.withRemovalRows(tx) : all;
    }
    FileBlocks f = new FileBlocks(id, rows);
    f.leasePath = path;
    f.baseLength = file.size() - f.blocks.stream().mapToLong(BlockInfoRow::numBytes).sum();
    if (datanodes == null) {
      return f;
    }
    for (long b : ids) {
      for (ReplicaRow r : perBlock(tx, ReplicaRow.TABLE, id, b)) {
        f.replicas.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        datanodes.storage(r.storageId());
      }
      for (ReplicaUnderConstructionRow r : perBlock(tx, ReplicaUnderConstructionRow.TABLE, id, b)) {
        f.expected.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        datanodes.storage(r.storageId());
      }
      for (CorruptReplicaRow r : perBlock(tx, CorruptReplicaRow.TABLE, id, b)) {
        f.corrupt.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
      }
    }
    for (UnderReplicatedBlockRow r : byKeys(tx, UnderReplicatedBlockRow.TABLE, id, ids)) {
      f.checked.add(r.blockId());
    }
    if (removalRows) {
      f.excess = new HashMap<>();
      f.pending = new HashMap<>();
      f.invalidated = new java.util.HashSet<>();
      for (long b : ids) {
        for (ExcessReplicaRow r : perBlock(tx, ExcessReplicaRow.TABLE, id, b)) {
          f.excess.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        }
        for (InvalidatedBlockRow r : perBlock(tx, InvalidatedBlockRow.TABLE, id, b)) {
          f.invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
          f.invalidations.computeIfAbsent(b, x -> new ArrayList<>()).add(r);
        }
      }
      for (PendingBlockRow r : byKeys(tx, PendingBlockRow.TABLE, id, ids)) {
        f.pending.put(r.blockId(), r);
      }
    }
    return f;
  }

  /** The tail blocks by key, or null if one is gone (the lease path is stale). */
  private static List<BlockInfoRow> readBlocks(
      LockPhase tx, long inodeId, List<Long> ids, LockMode mode) throws StorageException {
    List<BlockInfoRow> rows = byKeys(tx, BlockInfoRow.TABLE, inodeId, ids, mode);
    return rows.size() == ids.size() ? rows : null;
  }

  private static <R extends Record> List<R> byKeys(
      LockPhase tx, io.hops.dal.schema.Table<R> table, long inodeId, List<Long> ids)
      throws StorageException {
    return byKeys(tx, table, inodeId, ids, LockMode.READ_COMMITTED);
  }

  /**
   * The rows of {@code (inodeId, id)} keys that exist: one PK read for one key, one batch for more.
   */
  private static <R extends Record> List<R> byKeys(
      LockPhase tx, io.hops.dal.schema.Table<R> table, long inodeId, List<Long> ids, LockMode mode)
      throws StorageException {
    List<R> found = new ArrayList<>(ids.size());
    if (ids.size() == 1) {
      R r = tx.find(table, table.key(inodeId, ids.get(0)), mode);
      if (r != null) {
        found.add(r);
      }
    } else if (!ids.isEmpty()) {
      List<Key> keys = new ArrayList<>(ids.size());
      ids.forEach(b -> keys.add(table.key(inodeId, b)));
      for (R r : tx.findBatch(table, keys, mode)) {
        if (r != null) {
          found.add(r);
        }
      }
    }
    return found;
  }

  /** One block's rows of a table keyed (inode id, block id, ...): a scan bounded by the block. */
  private static <R extends Record> List<R> perBlock(
      LockPhase tx, io.hops.dal.schema.Table<R> table, long inodeId, long blockId)
      throws StorageException {
    return tx.findByPartition(table, inodeId, "block_id", blockId, LockMode.READ_COMMITTED);
  }

  /** Whether this view holds the tail only ({@link #lockTail}), not every block. */
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
