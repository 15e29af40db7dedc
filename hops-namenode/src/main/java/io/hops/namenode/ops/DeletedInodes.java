package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What goes with inodes that are deleted, besides their own rows (HDFS's removeLeasesAndINodes and
 * block collection): the lease paths of files under construction, and a lease left with no file;
 * the blocks of files that have any, each replica becoming an invalidation for the datanode that
 * holds it; small-file data kept in the database; the quota rows of directories; the extended
 * attributes and ACLs of inodes whose flags say they have some.
 *
 * <p>Read in the lock phase after the inodes, in the table order of docs/architecture.md, "Lock
 * order". All of it is read-committed and protected by the exclusive locks on the inodes
 * (hierarchical locking), except the block rows, locked exclusively: datanode reports and the
 * leader's housekeeping change replica rows under the block row's lock without locking the inode,
 * so a replica reported while the file is deleted waits, then finds no block and is invalidated. A
 * file that is closed and empty has none of these rows, so deleting it reads nothing more.
 *
 * <p>A transaction is bounded by rows, not only by inodes: a file of more than {@link
 * #MAX_BLOCKS_IN_ONE_TX} blocks keeps its blocks when deleted; a {@code released_files} row names
 * it, and the leader frees its blocks afterwards, {@link #MAX_BLOCKS_IN_ONE_TX} per transaction
 * ({@link ReleaseBlocks}), as HopsFS does. Until then its block rows are orphans that no path
 * reaches; a datanode's report of one of their replicas is answered as for any block.
 */
final class DeletedInodes {
  private static final Comparator<InodeRow> BY_ID = Comparator.comparingLong(InodeRow::id);

  /** Most blocks one transaction frees. */
  static final int MAX_BLOCKS_IN_ONE_TX = 1000;

  /**
   * Rows of a file's table read per page when freeing a batch of its blocks: the last page of a
   * table reads at most this many rows past the batch's range.
   */
  private static final int PAGE = MAX_BLOCKS_IN_ONE_TX;

  /** Where a file's rows of one table come from: its partition, or a batch's range of blocks. */
  @FunctionalInterface
  private interface FileRows {
    <R extends Record> List<R> of(LockPhase tx, Table<R> table, long fileId)
        throws StorageException;
  }

  private static final FileRows WHOLE_PARTITION =
      new FileRows() {
        @Override
        public <R extends Record> List<R> of(LockPhase tx, Table<R> table, long fileId)
            throws StorageException {
          return tx.findByPartition(table, fileId, LockMode.READ_COMMITTED);
        }
      };

  private final List<Key> doomed = new ArrayList<>();

  /** Files under construction: inode id to the lease holder. */
  private final Map<Long, String> openFiles = new TreeMap<>();

  private LeaseChanges leases;
  private final List<InvalidatedBlockRow> invalidations = new ArrayList<>();
  private final Set<Long> pendingBlocks = new HashSet<>();

  /** Files whose blocks are left to {@link ReleaseBlocks}. */
  private final List<Long> released = new ArrayList<>();

  private boolean finished = true;

  private final Map<Long, BlockInfoRow> lastBlocks = new HashMap<>();

  private DeletedInodes() {}

  /**
   * The storage space {@code inodes} (those this was read for) count against quotas ({@link
   * io.hops.namenode.quota.FileSpace}).
   */
  long space(Collection<InodeRow> inodes) {
    long space = 0;
    for (InodeRow r : inodes) {
      space += io.hops.namenode.quota.FileSpace.of(r, lastBlocks.get(r.id()));
    }
    return space;
  }

  /** Reads what goes with {@code inodes} (files and directories), which the caller has locked. */
  static DeletedInodes read(LockPhase tx, Collection<InodeRow> inodes) throws StorageException {
    return read(tx, inodes, true);
  }

  /**
   * As {@link #read(LockPhase, Collection)}, but the caller has locked the writers' leases itself
   * and takes the files off them (create with overwrite).
   */
  static DeletedInodes readWithoutLeases(LockPhase tx, Collection<InodeRow> inodes)
      throws StorageException {
    return read(tx, inodes, false);
  }

  private static DeletedInodes read(LockPhase tx, Collection<InodeRow> inodes, boolean withLeases)
      throws StorageException {
    DeletedInodes d = new DeletedInodes();
    List<InodeRow> files = new ArrayList<>();
    List<InodeRow> quotaDirs = new ArrayList<>();
    for (InodeRow r : inodes) {
      if (!r.isDir()) {
        files.add(r);
      } else if (r.hasQuota()) {
        quotaDirs.add(r);
      }
    }
    files.sort(BY_ID);
    quotaDirs.sort(BY_ID);
    if (withLeases) {
      d.readLeases(tx, files);
    }
    d.readBlocks(tx, files);
    d.readAll(tx, QuotaRow.TABLE, ids(quotaDirs));
    List<Long> inDb = ids(files.stream().filter(InodeRow::fileStoredInDb).toList());
    d.readAll(tx, InMemoryFileDataRow.TABLE, inDb);
    d.readAll(tx, OnDiskSmallFileDataRow.TABLE, inDb);
    d.readAll(tx, OnDiskMediumFileDataRow.TABLE, inDb);
    d.scanAll(tx, OnDiskLargeFileDataRow.TABLE, inDb, WHOLE_PARTITION);
    List<InodeRow> attributed = new ArrayList<>();
    for (InodeRow r : inodes) {
      if (InodeFlags.hasAttributeRows(r.permission())) {
        attributed.add(r);
      }
    }
    attributed.sort(BY_ID);
    d.scanAll(tx, XAttrRow.TABLE, ids(attributed), WHOLE_PARTITION);
    return d;
  }

  /**
   * The open files among {@code files}, whose lease paths go. No lease row is read: the lease paths
   * are keyed by the file's inode id, deleted by key under the file's exclusive lock, and a lease
   * left without files is dropped by the leader ({@link LeaseChanges}).
   */
  private void readLeases(LockPhase tx, List<InodeRow> files) throws StorageException {
    for (InodeRow f : files) {
      if (f.underConstruction() && f.clientName() != null) {
        openFiles.put(f.id(), f.clientName());
      }
    }
    leases = openFiles.isEmpty() ? null : LeaseChanges.withoutRows();
  }

  /**
   * Blocks of files that may have some (a length, or still being written): one pruned scan per
   * table and file, and only the block table for a file that turns out to have none. (A closed file
   * of length 0 is taken to have none: one whose writer added a block and wrote nothing to it would
   * keep that empty block's rows.)
   */
  private void readBlocks(LockPhase tx, List<InodeRow> files) throws StorageException {
    List<Long> withBlocks = new ArrayList<>();
    Map<Long, BlockInfoRow> blocks = new HashMap<>();
    for (InodeRow f : files) {
      if (!f.fileStoredInDb() && (f.size() > 0 || f.underConstruction())) {
        // One page more than a transaction frees: a longer file is released afterwards.
        List<BlockInfoRow> rows =
            tx.scanFrom(
                BlockInfoRow.TABLE, f.id(), null, MAX_BLOCKS_IN_ONE_TX + 1, LockMode.EXCLUSIVE);
        if (rows.size() > MAX_BLOCKS_IN_ONE_TX) {
          released.add(f.id());
        } else if (!rows.isEmpty()) {
          withBlocks.add(f.id());
          for (BlockInfoRow b : rows) {
            BlockInfoRow l = lastBlocks.get(f.id());
            if (l == null || b.blockIndex() > l.blockIndex()) {
              lastBlocks.put(f.id(), b);
            }
            blocks.put(b.blockId(), b);
            doomed.add(BlockInfoRow.TABLE.keyOf(b));
            doomed.add(BlockOffsetRow.keyOf(b));
          }
        }
      }
    }
    readRelated(tx, withBlocks, blocks, WHOLE_PARTITION);
  }

  /**
   * Lock phase of {@link ReleaseBlocks}: the next {@link #MAX_BLOCKS_IN_ONE_TX} blocks of a deleted
   * file, locked exclusively, and their rows (bounded scans of the batch's block range); with the
   * last batch, the file's {@code released_files} row.
   */
  static DeletedInodes readReleaseBatch(LockPhase tx, long fileId) throws StorageException {
    DeletedInodes d = new DeletedInodes();
    List<BlockInfoRow> rows =
        tx.scanFrom(BlockInfoRow.TABLE, fileId, null, MAX_BLOCKS_IN_ONE_TX, LockMode.EXCLUSIVE);
    d.finished = rows.size() < MAX_BLOCKS_IN_ONE_TX;
    if (d.finished) {
      d.readAll(tx, ReleasedFileRow.TABLE, List.of(fileId));
    }
    if (rows.isEmpty()) {
      return d;
    }
    Map<Long, BlockInfoRow> blocks = new HashMap<>();
    for (BlockInfoRow b : rows) {
      blocks.put(b.blockId(), b);
      d.doomed.add(BlockInfoRow.TABLE.keyOf(b));
      d.doomed.add(BlockOffsetRow.keyOf(b));
    }
    long first = rows.get(0).blockId();
    long last = rows.get(rows.size() - 1).blockId();
    d.readRelated(tx, List.of(fileId), blocks, blockRange(first, last));
    return d;
  }

  /** Whether this batch freed the file's last blocks. */
  boolean finished() {
    return finished;
  }

  /**
   * The rows of blocks {@code first..last} of a file in a table keyed (inode id, block id, ...):
   * pages after a cursor just before the range, until past it.
   */
  private static FileRows blockRange(long first, long last) {
    return new FileRows() {
      @Override
      public <R extends Record> List<R> of(LockPhase tx, Table<R> table, long fileId)
          throws StorageException {
        int blockColumn = table.column("block_id").position();
        Key after = justBefore(table, fileId, first);
        List<R> out = new ArrayList<>();
        while (true) {
          List<R> page = tx.scanFrom(table, fileId, after, PAGE, LockMode.READ_COMMITTED);
          for (R r : page) {
            if ((Long) table.get(r, blockColumn) > last) {
              return out;
            }
            out.add(r);
          }
          if (page.size() < PAGE) {
            return out;
          }
          after = table.keyOf(page.get(page.size() - 1));
        }
      }
    };
  }

  /** The greatest key below every key of block {@code blockId} of a file. */
  private static Key justBefore(Table<?> table, long fileId, long blockId) {
    List<io.hops.dal.schema.Column> keys = table.keyColumns();
    Object[] values = new Object[keys.size()];
    values[0] = fileId;
    values[1] = blockId - 1;
    for (int i = 2; i < values.length; i++) {
      values[i] =
          switch (keys.get(i).type()) {
            case INT -> Integer.MAX_VALUE;
            case BIGINT -> Long.MAX_VALUE;
            default -> throw new IllegalArgumentException(table + " has an unexpected key");
          };
    }
    return table.key(values);
  }

  /** The rows that go with blocks of the files {@code withBlocks}, read through {@code rows}. */
  private void readRelated(
      LockPhase tx, List<Long> withBlocks, Map<Long, BlockInfoRow> blocks, FileRows source)
      throws StorageException {
    if (withBlocks.isEmpty()) {
      return;
    }
    readAll(tx, BlockLookupRow.TABLE, new ArrayList<>(new TreeMap<>(blocks).keySet()));
    List<ReplicaRow> replicas = scanAll(tx, ReplicaRow.TABLE, withBlocks, source);
    scanAll(tx, CorruptReplicaRow.TABLE, withBlocks, source);
    scanAll(tx, ExcessReplicaRow.TABLE, withBlocks, source);
    List<ReplicaUnderConstructionRow> writing =
        scanAll(tx, ReplicaUnderConstructionRow.TABLE, withBlocks, source);
    // Invalidations already pending stay: the datanodes still have to be told.
    Set<Key> pending = new HashSet<>();
    for (long id : withBlocks) {
      for (InvalidatedBlockRow r : source.of(tx, InvalidatedBlockRow.TABLE, id)) {
        pending.add(InvalidatedBlockRow.TABLE.keyOf(r));
        pendingBlocks.add(r.blockId());
      }
    }
    scanAll(tx, UnderReplicatedBlockRow.TABLE, withBlocks, source);
    scanAll(tx, PendingBlockRow.TABLE, withBlocks, source);
    for (ReplicaRow r : replicas) {
      BlockInfoRow b = blocks.get(r.blockId());
      long stamp = b == null ? 0 : b.generationStamp();
      invalidate(pending, r.inodeId(), r.blockId(), r.storageId(), b, stamp);
    }
    // A pipeline location may hold the block at the stamp of its pipeline, which a datanode needs
    // to match to delete it.
    for (ReplicaUnderConstructionRow r : writing) {
      BlockInfoRow b = blocks.get(r.blockId());
      invalidate(pending, r.inodeId(), r.blockId(), r.storageId(), b, r.generationStamp());
    }
  }

  private void invalidate(
      Set<Key> pending, long inodeId, long blockId, int storageId, BlockInfoRow b, long stamp) {
    InvalidatedBlockRow row =
        new InvalidatedBlockRow(inodeId, blockId, storageId, stamp, b == null ? 0 : b.numBytes());
    if (pending.add(InvalidatedBlockRow.TABLE.keyOf(row))) {
      invalidations.add(row);
    }
  }

  /** Batched primary-key read of the rows keyed by {@code ids}; those that exist are doomed. */
  private <R extends Record> List<R> readAll(LockPhase tx, Table<R> table, List<Long> ids)
      throws StorageException {
    if (ids.isEmpty()) {
      return List.of();
    }
    List<Key> keys = ids.stream().map(id -> table.key(id)).toList();
    List<R> rows =
        keys.size() == 1
            ? Collections.singletonList(tx.find(table, keys.get(0), LockMode.READ_COMMITTED))
            : tx.findBatch(table, keys, LockMode.READ_COMMITTED);
    List<R> found = rows.stream().filter(Objects::nonNull).toList();
    found.forEach(r -> doomed.add(table.keyOf(r)));
    return found;
  }

  /** The files' rows of a table (one pruned scan per file, or a batch's range); all doomed. */
  private <R extends Record> List<R> scanAll(
      LockPhase tx, Table<R> table, List<Long> fileIds, FileRows source) throws StorageException {
    List<R> found = new ArrayList<>();
    for (long id : fileIds) {
      found.addAll(source.of(tx, table, id));
    }
    found.forEach(r -> doomed.add(table.keyOf(r)));
    return found;
  }

  private static List<Long> ids(List<InodeRow> rows) {
    return rows.stream().map(InodeRow::id).toList();
  }

  /** Buffers the deletes, the lease updates and the invalidations. */
  void delete(ExecutePhase tx) throws StorageException {
    Set<Long> invalidatedBlocks = new HashSet<>();
    invalidations.forEach(r -> invalidatedBlocks.add(r.blockId()));
    pendingBlocks.forEach(invalidatedBlocks::add);
    for (Key k : doomed) {
      // A block's lookup row stays while its replicas are being deleted: the datanodes' deletion
      // reports find the invalidation rows through it (ReplicaChange).
      if (k.table() == BlockLookupRow.TABLE && invalidatedBlocks.contains((Long) k.value(0))) {
        continue;
      }
      tx.delete(k.table(), k);
    }
    if (leases != null) {
      for (Map.Entry<Long, String> f : openFiles.entrySet()) {
        leases.removeFile(tx, f.getValue(), f.getKey());
      }
      leases.flush(tx);
    }
    for (InvalidatedBlockRow r : invalidations) {
      tx.insert(InvalidatedBlockRow.TABLE, r);
    }
    for (long id : released) {
      tx.insert(ReleasedFileRow.TABLE, new ReleasedFileRow(id));
    }
  }
}
