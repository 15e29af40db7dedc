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
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptReplicationRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.ops.snapshot.ChargesWhereHeld;
import io.hops.namenode.ops.snapshot.DeletedHeldDirectory;
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
 * <p>A transaction is bounded by rows, not only by inodes ({@link LockPhase#maxRows()}): files are
 * taken in id order while their rows, reckoned from their blocks and replication ({@link
 * #rowsPerBlock}), fit the budget; the others are {@link #deferred()} to a later transaction. The
 * first file is always taken: a file whose blocks alone would pass the bound keeps them when
 * deleted; a {@code released_files} row names it, and the leader frees its blocks afterwards, a
 * bounded batch per transaction ({@link ReleaseBlocks}), as HopsFS does. Until then its block rows
 * are orphans that no path reaches; a datanode's report of one of their replicas is answered as for
 * any block.
 *
 * <p>A file that a snapshot has ({@link LockPhase#snapshotKeeperOf}: by its entry's version, or by
 * the reference mark of a file renamed after the snapshot) keeps its block rows and replicas, or
 * its rows of small-file data (docs/architecture.md, "Snapshots", "Small files in the database"): a
 * {@code snapshot_kept_files} row names it, and deleting the last snapshot that may have it turns
 * that row into a {@code released_files} one (docs/architecture.md, "Snapshots").
 */
final class DeletedInodes {
  private static final Comparator<InodeRow> BY_ID = Comparator.comparingLong(InodeRow::id);

  /**
   * Rows a file costs besides its blocks: its inode read and deleted, its lease path, its rows of
   * small-file data, and one to spare.
   */
  private static final int FILE_ROWS = 6;

  /**
   * Rows one block of a file of replication {@code r} costs a delete, read and written: its block,
   * offset and lookup rows, and each replica read, deleted and turned into an invalidation.
   */
  static int rowsPerBlock(int replication) {
    return 5 + 3 * Math.max(1, replication);
  }

  /**
   * Rows per block a release batch reckons with, not knowing the deleted file's replication:
   * replication 3, and the page each table's range scan may read past the batch.
   */
  private static final int RELEASE_ROWS_PER_BLOCK = 16;

  /** Blocks one {@link ReleaseBlocks} transaction frees. */
  static int releaseBatch(LockPhase tx) {
    return Math.max(1, tx.maxRows() / RELEASE_ROWS_PER_BLOCK);
  }

  /** Most blocks of a file of replication {@code r} that one delete frees with its inode. */
  static int blocksInOneDelete(LockPhase tx, int replication) {
    return Math.max(1, (tx.maxRows() - FILE_ROWS) / rowsPerBlock(replication));
  }

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

  /** Files a snapshot has: their blocks stay until the snapshot goes (DeleteSnapshot). */
  private final List<SnapshotKeptFileRow> kept = new ArrayList<>();

  /** The replication the kept files' blocks keep (the replication check reads it). */
  private final List<SnapshotKeptReplicationRow> keptReplication = new ArrayList<>();

  /**
   * Inodes a snapshot has, by id, with the snapshot that has them: a delete leaves their usage
   * charged to the quotas above until that snapshot's release ({@link #charge}).
   */
  private final Map<Long, SnapshotKeptFileRow> held = new HashMap<>();

  /**
   * The hold rows a delete of held directories writes, so that their partitions go with their last
   * holder ({@link DeletedHeldDirectory}).
   */
  private List<SnapshotKeptFileRow> heldDirsEnded = List.of();

  /** The deleted directories, when held ones are among them ({@link #readChargesWhereHeld}). */
  private List<InodeRow> deletedDirs = List.of();

  /** The charges of files kept below the deleted held directories, which go with them. */
  private ChargesWhereHeld chargedWhereHeld = ChargesWhereHeld.none();

  /** Files whose blocks are left to {@link ReleaseBlocks}. */
  private final List<Long> released = new ArrayList<>();

  private boolean finished = true;

  /** Files left for a later transaction: their rows would have passed the budget. */
  private final List<InodeRow> deferred = new ArrayList<>();

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

  /**
   * The usage (inodes, storage space) that deleting {@code inodes} frees from the quotas above: all
   * of it but what a snapshot still has, which HDFS keeps charged until the last snapshot with it
   * goes (INodeFile.cleanSubtree adds no namespace and only the blocks no snapshot has;
   * docs/architecture.md, "Snapshots").
   */
  long[] freed(Collection<InodeRow> inodes) {
    long ns = 0;
    long ds = 0;
    for (InodeRow r : inodes) {
      if (!held.containsKey(r.id())) {
        ns++;
        ds += io.hops.namenode.quota.FileSpace.of(r, lastBlocks.get(r.id()));
      }
    }
    return new long[] {ns, ds};
  }

  /**
   * Buffers the rows that keep the usage of the inodes a snapshot has charged to the directories
   * {@code dirIds} (those above the deleted {@code inodeId}, {@link KeptUsageDirs}: the quota
   * directories' usage, and what a rename or a later quota of any of them counts), one per snapshot
   * that has some and directory, released with that snapshot's kept files ({@code KeptFiles}).
   */
  void charge(ExecutePhase tx, long inodeId, List<Long> dirIds, Collection<InodeRow> inodes)
      throws StorageException {
    if (held.isEmpty() || dirIds.isEmpty()) {
      return;
    }
    Map<List<Long>, long[]> bySnapshot = new TreeMap<>(BY_DIR_AND_SNAPSHOT);
    for (InodeRow r : inodes) {
      SnapshotKeptFileRow h = held.get(r.id());
      if (h != null) {
        long[] u = bySnapshot.computeIfAbsent(List.of(h.dirId(), h.snapshotId()), k -> new long[2]);
        u[0]++;
        u[1] += io.hops.namenode.quota.FileSpace.of(r, null);
      }
    }
    for (Map.Entry<List<Long>, long[]> e : bySnapshot.entrySet()) {
      for (long q : dirIds) {
        tx.insert(
            SnapshotKeptUsageRow.TABLE,
            new SnapshotKeptUsageRow(
                e.getKey().get(0),
                e.getKey().get(1),
                inodeId,
                q,
                e.getValue()[0],
                e.getValue()[1]));
      }
    }
  }

  /**
   * For a delete of held directories (docs/architecture.md, "Snapshots", a held directory's
   * delete): HDFS takes the whole destination side of a renamed directory off the directories
   * above, since the snapshots that had it count it through the charge its move wrote on their
   * side. So what is kept below them for their holds is freed from the quotas above ({@link
   * #freed}) and charged nowhere ({@link #charge}), and the charges earlier deletes below them
   * wrote are read, exclusively, to go with them ({@link #takeOffChargesWhereHeld}, {@link
   * ChargesWhereHeld}). Answers the directories those name, whose quota rows the caller locks with
   * its own.
   */
  List<Long> readChargesWhereHeld(LockPhase tx) throws StorageException {
    if (deletedDirs.isEmpty()) {
      return List.of();
    }
    Map<Long, Long> upTo = DeletedHeldDirectory.holdsUpTo(deletedDirs);
    held.values()
        .removeIf(h -> upTo.containsKey(h.dirId()) && h.snapshotId() <= upTo.get(h.dirId()));
    chargedWhereHeld = ChargesWhereHeld.read(tx, upTo);
    return chargedWhereHeld.quotaDirs();
  }

  /** Deletes the charges {@link #readChargesWhereHeld} read and takes them off {@code quotas}. */
  void takeOffChargesWhereHeld(ExecutePhase tx, io.hops.namenode.quota.AncestorQuotas quotas)
      throws StorageException {
    chargedWhereHeld.takeOff(tx, quotas);
  }

  private static final Comparator<List<Long>> BY_DIR_AND_SNAPSHOT =
      Comparator.<List<Long>>comparingLong(k -> k.get(0)).thenComparingLong(k -> k.get(1));

  /** Reads what goes with {@code inodes} (files and directories), which the caller has locked. */
  static DeletedInodes read(LockPhase tx, Collection<InodeRow> inodes) throws StorageException {
    return read(tx, inodes, true, tx.maxRows());
  }

  /**
   * As {@link #read(LockPhase, Collection)}, within {@code budget} rows: files whose rows would
   * pass it are {@link #deferred()} (never the first).
   */
  static DeletedInodes readWithin(LockPhase tx, Collection<InodeRow> inodes, int budget)
      throws StorageException {
    return read(tx, inodes, true, budget);
  }

  /** The files not read, to be deleted by a later transaction; none of their rows are doomed. */
  List<InodeRow> deferred() {
    return deferred;
  }

  /**
   * As {@link #read(LockPhase, Collection)}, but the caller has locked the writers' leases itself
   * and takes the files off them (create with overwrite).
   */
  static DeletedInodes readWithoutLeases(LockPhase tx, Collection<InodeRow> inodes)
      throws StorageException {
    return read(tx, inodes, false, tx.maxRows());
  }

  private static DeletedInodes read(
      LockPhase tx, Collection<InodeRow> inodes, boolean withLeases, int budget)
      throws StorageException {
    DeletedInodes d = new DeletedInodes();
    List<InodeRow> all = new ArrayList<>();
    List<InodeRow> quotaDirs = new ArrayList<>();
    int used = 0;
    for (InodeRow r : inodes) {
      if (r.isDir()) {
        // The directories of a delete batch are empty leaves: a few rows each, always taken.
        all.add(r);
        used += r.hasQuota() ? 4 : 2;
        if (r.hasQuota()) {
          quotaDirs.add(r);
        }
      }
    }
    List<InodeRow> candidates = new ArrayList<>();
    for (InodeRow r : inodes) {
      if (!r.isDir()) {
        candidates.add(r);
      }
    }
    candidates.sort(BY_ID);
    quotaDirs.sort(BY_ID);
    List<InodeRow> files = d.readBlocks(tx, candidates, budget - used);
    all.addAll(files);
    for (InodeRow r : all) {
      SnapshotKeptFileRow h = r.isDir() ? tx.entryHolderOf(r) : null;
      if (h != null) {
        d.held.put(r.id(), h);
      }
    }
    List<InodeRow> heldDirs = all.stream().filter(DeletedHeldDirectory::held).toList();
    d.heldDirsEnded = DeletedHeldDirectory.rows(tx, heldDirs);
    if (!heldDirs.isEmpty()) {
      d.deletedDirs = all.stream().filter(InodeRow::isDir).toList();
    }
    if (withLeases) {
      d.readLeases(tx, files);
    }
    d.readAll(tx, QuotaRow.TABLE, ids(quotaDirs));
    Set<Long> keptIds = new HashSet<>();
    d.kept.forEach(k -> keptIds.add(k.inodeId()));
    List<Long> inDb =
        ids(files.stream().filter(f -> f.fileStoredInDb() && !keptIds.contains(f.id())).toList());
    d.readDatabaseRows(tx, inDb);
    List<InodeRow> attributed = new ArrayList<>();
    for (InodeRow r : all) {
      if (InodeFlags.hasAttributeRows(r.permission())) {
        attributed.add(r);
      }
    }
    attributed.sort(BY_ID);
    d.scanAll(tx, XAttrRow.TABLE, ids(attributed), WHOLE_PARTITION);
    return d;
  }

  /**
   * The small-file data rows of {@code ids}, doomed: a batched read of each tier (the length that
   * names one may be gone with a released file's inode) and a pruned scan of the large one.
   */
  private void readDatabaseRows(LockPhase tx, List<Long> ids) throws StorageException {
    readAll(tx, InMemoryFileDataRow.TABLE, ids);
    readAll(tx, OnDiskSmallFileDataRow.TABLE, ids);
    readAll(tx, OnDiskMediumFileDataRow.TABLE, ids);
    scanAll(tx, OnDiskLargeFileDataRow.TABLE, ids, WHOLE_PARTITION);
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
   * keep that empty block's rows.) Takes {@code files} in order while their rows fit {@code
   * budget}, the first whatever its size; the others are deferred. Answers the files taken.
   */
  private List<InodeRow> readBlocks(LockPhase tx, List<InodeRow> files, int budget)
      throws StorageException {
    List<Long> withBlocks = new ArrayList<>();
    Map<Long, BlockInfoRow> blocks = new HashMap<>();
    List<InodeRow> taken = new ArrayList<>();
    int left = budget;
    for (int i = 0; i < files.size(); i++) {
      InodeRow f = files.get(i);
      int perBlock = rowsPerBlock(f.replication());
      int cap = blocksInOneDelete(tx, f.replication());
      // Past the first file, blocks are read only as far as they could still fit.
      int fit =
          taken.isEmpty()
              ? cap
              : left < FILE_ROWS ? -1 : Math.min(cap, (left - FILE_ROWS) / perBlock);
      if (fit < 0) {
        deferred.addAll(files.subList(i, files.size()));
        break;
      }
      List<SnapshotEarlierEntryRow> earlier = List.of();
      if (f.snapshotId() != 0) {
        // A file renamed after a snapshot had it: where the snapshots have it goes with it.
        earlier =
            tx.findByPartition(SnapshotEarlierEntryRow.TABLE, f.id(), LockMode.READ_COMMITTED);
        for (SnapshotEarlierEntryRow e : earlier) {
          doomed.add(SnapshotEarlierEntryRow.TABLE.keyOf(e));
        }
      }
      List<SnapshotKeptFileRow> keepers = tx.snapshotKeepersOf(f, earlier);
      if (!keepers.isEmpty()) {
        // A snapshot still has the file: its blocks (or its rows in the database) stay, keyed by
        // its inode id, until the last of its holders releases it.
        kept.addAll(keepers);
        keptReplication.add(new SnapshotKeptReplicationRow(f.id(), f.replication()));
        SnapshotKeptFileRow atEntry = tx.entryKeeperOf(f);
        if (atEntry != null) {
          // A file renamed since the snapshot stays charged where the snapshot has it (Rename).
          held.put(f.id(), atEntry);
        }
        taken.add(f);
        left -= FILE_ROWS;
        continue;
      }
      List<BlockInfoRow> rows = List.of();
      if (!f.fileStoredInDb() && (f.size() > 0 || f.underConstruction())) {
        // One row more than fits: a file that does not fit is deferred, or released afterwards.
        rows = tx.scanFrom(BlockInfoRow.TABLE, f.id(), null, fit + 1, LockMode.EXCLUSIVE);
      }
      if (rows.size() > fit && !taken.isEmpty()) {
        deferred.addAll(files.subList(i, files.size()));
        break;
      }
      taken.add(f);
      releaseTailOfCopy(tx, f, rows);
      if (rows.size() > cap) {
        released.add(f.id());
        left -= FILE_ROWS + rows.size();
      } else {
        left -= FILE_ROWS + rows.size() * perBlock;
        if (!rows.isEmpty()) {
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
    return taken;
  }

  /**
   * A file whose blocks are longer than it is waits for a truncate's block recovery; if that
   * recovery copies the cut block for snapshots that are gone since, the file's released tail
   * ({@link SnapshotFileTailRow#isReleased}) holds the copy and the blocks the truncate kept, which
   * only the recovery's commit would release: they are released with the file (a pruned scan of its
   * tails, only for such a file).
   */
  private void releaseTailOfCopy(LockPhase tx, InodeRow f, List<BlockInfoRow> rows)
      throws StorageException {
    if (!f.underConstruction()
        || rows.stream().mapToLong(BlockInfoRow::numBytes).sum() <= f.size()) {
      return;
    }
    for (SnapshotFileTailRow t :
        tx.findByPartition(SnapshotFileTailRow.TABLE, f.id(), LockMode.EXCLUSIVE)) {
      if (t.isReleased()) {
        doomed.add(SnapshotFileTailRow.TABLE.keyOf(t));
        released.add(t.tailId());
      }
    }
  }

  /**
   * Lock phase of {@link ReleaseBlocks}: the next {@link #releaseBatch} blocks of a deleted file,
   * locked exclusively, and their rows (bounded scans of the batch's block range); with the last
   * batch, the file's {@code released_files} row and any small-file data rows kept under its id for
   * snapshots.
   */
  static DeletedInodes readReleaseBatch(LockPhase tx, long fileId) throws StorageException {
    DeletedInodes d = new DeletedInodes();
    int batch = releaseBatch(tx);
    List<BlockInfoRow> rows =
        tx.scanFrom(BlockInfoRow.TABLE, fileId, null, batch, LockMode.EXCLUSIVE);
    d.finished = rows.size() < batch;
    if (d.finished) {
      d.readAll(tx, ReleasedFileRow.TABLE, List.of(fileId));
      d.readDatabaseRows(tx, List.of(fileId));
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
    d.readRelated(tx, List.of(fileId), blocks, blockRange(first, last, batch));
    return d;
  }

  /** Whether this batch freed the file's last blocks. */
  boolean finished() {
    return finished;
  }

  /**
   * The rows of blocks {@code first..last} of a file in a table keyed (inode id, block id, ...):
   * pages of {@code page} rows after a cursor just before the range, until past it (the last page
   * reads at most {@code page} rows past the range).
   */
  private static FileRows blockRange(long first, long last, int page) {
    return new FileRows() {
      @Override
      public <R extends Record> List<R> of(LockPhase tx, Table<R> table, long fileId)
          throws StorageException {
        int blockColumn = table.column("block_id").position();
        Key after = justBefore(table, fileId, first);
        List<R> out = new ArrayList<>();
        while (true) {
          List<R> rows = tx.scanFrom(table, fileId, after, page, LockMode.READ_COMMITTED);
          for (R r : rows) {
            if ((Long) table.get(r, blockColumn) > last) {
              return out;
            }
            out.add(r);
          }
          if (rows.size() < page) {
            return out;
          }
          after = table.keyOf(rows.get(rows.size() - 1));
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
    for (SnapshotKeptFileRow k : kept) {
      tx.insert(SnapshotKeptFileRow.TABLE, k);
    }
    for (SnapshotKeptReplicationRow r : keptReplication) {
      tx.insert(SnapshotKeptReplicationRow.TABLE, r);
    }
    for (SnapshotKeptFileRow h : heldDirsEnded) {
      tx.insertIfAbsent(SnapshotKeptFileRow.TABLE, h);
    }
  }
}
