package io.hops.namenode.tx;

import io.hops.dal.LockMode;
import io.hops.dal.PartitionFold;
import io.hops.dal.RowReads;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.resolve.SnapshotPaths;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operation may do in its lock phase: resolve paths and read rows, each at a lock mode, in
 * the global lock order of docs/architecture.md, "Lock order" (which the operation is responsible
 * for following).
 */
public final class LockPhase implements RowReads {
  private final Transaction tx;
  private final PathResolver resolver;
  private String closedBy;
  private long ownMark = PathResolver.NO_MARK;
  private long ownMarkOwner;

  private final int maxRows;
  private final CopyOnWrite versions;

  LockPhase(Transaction tx, PathResolver resolver, int maxRows, CopyOnWrite versions) {
    this.tx = tx;
    this.resolver = resolver;
    this.maxRows = maxRows;
    this.versions = versions;
  }

  /**
   * Most rows this transaction should read and write ({@code hops.namenode.transaction.max-rows}):
   * an operation whose rows grow with the data (a delete's blocks, a concat's) splits its work or
   * refuses by it.
   */
  public int maxRows() {
    return maxRows;
  }

  /**
   * Whether writers lock the snapshottable directories above what they change, shared (snapshots
   * enabled; see {@link PathResolver#lockSnapshotRoots}): for a caller that locks rows itself.
   */
  public boolean locksSnapshotRoots() {
    return resolver.locksSnapshotRoots();
  }

  /** Ends the lock phase: from now on every read throws, naming the operation. */
  void close(String operation) {
    closedBy = operation;
  }

  private void checkOpen() {
    if (closedBy != null) {
      throw new IllegalStateException(
          "database read in the execute phase of " + closedBy + ": read it in lock()");
    }
  }

  /** Resolves a path: ancestors read-committed, the parent and target at the given modes. */
  public ResolvedPath resolve(String path, LockMode parentMode, LockMode targetMode)
      throws IOException {
    checkOpen();
    ResolvedPath p = resolver.resolve(tx, path, parentMode, targetMode, ownMark);
    if (ownMark != PathResolver.NO_MARK) {
      for (InodeRow r : p.inodes()) {
        if (r != null
            && r.id() == ownMark
            && r.subtreeLocked()
            && r.subtreeLockOwner() != ownMarkOwner) {
          throw new io.hops.namenode.resolve.SubtreeMarkedException(
              "inode " + r.id() + " (" + r.name() + "), whose mark was taken over,",
              r.id(),
              r.subtreeLockOwner());
        }
      }
    }
    io.hops.namenode.resolve.ReservedPaths.check(p);
    if (parentMode == LockMode.EXCLUSIVE || targetMode == LockMode.EXCLUSIVE) {
      writes(p);
    }
    loadAcls(p.inodes());
    return p;
  }

  /**
   * Resolves a path with every directory above the target locked shared and the target locked
   * exclusively, for a write whose checks read the ancestors ({@code allowSnapshot}'s nesting
   * check): no rename moves them until the transaction ends.
   */
  public ResolvedPath resolveUnderLockedAncestors(String path) throws IOException {
    checkOpen();
    ResolvedPath p = resolver.resolveUnderLockedAncestors(tx, path, LockMode.EXCLUSIVE);
    io.hops.namenode.resolve.ReservedPaths.check(p);
    writes(p);
    loadAcls(p.inodes());
    return p;
  }

  /**
   * What every write of {@code p} goes through when snapshots are enabled: HDFS's refusal of a path
   * into a snapshot, and the copy-on-write of the entries it may change ({@link CopyOnWrite}).
   */
  private void writes(ResolvedPath p) throws IOException {
    if (resolver.locksSnapshotRoots()) {
      SnapshotPaths.refuseWrite(p);
      versions.cover(tx, p);
    }
  }

  /**
   * Registers the entries a writer of {@code p} may change for copy-on-write, for a caller that
   * locked them itself (a rename); {@code p}'s snapshottable directories must have been locked.
   */
  public void cover(ResolvedPath p) throws IOException {
    writes(p);
  }

  /**
   * Registers a change of the xattrs or ACL of {@code target} itself: a snapshottable directory
   * keeps its own at its latest snapshot ({@link CopyOnWrite#coverOwnAttributes}).
   */
  public void coverOwnAttributes(InodeRow target) throws StorageException {
    if (resolver.locksSnapshotRoots()) {
      versions.coverOwnAttributes(tx, target);
    }
  }

  /** Registers rows below {@code p}'s target a writer also changes (a delete's subtree). */
  public void coverBelow(ResolvedPath p, List<InodeRow> rows) throws StorageException {
    versions.coverBelow(tx, p, rows);
  }

  /**
   * The snapshot that keeps the blocks of {@code file} if this transaction deletes or overwrites it
   * ({@link CopyOnWrite#keeperOf}; for a file with a reference mark, {@link
   * CopyOnWrite#keeperOfMarked}), or null; only for a file whose entry this writer registered (its
   * path's target, or a row of {@link #coverBelow}).
   */
  public SnapshotKeptFileRow snapshotKeeperOf(InodeRow file) throws StorageException {
    SnapshotKeptFileRow own = versions.keeperOf(file);
    if (file.isDir() || file.snapshotId() == 0 || !resolver.locksSnapshotRoots()) {
      return own;
    }
    // Renamed after a snapshot had it: the directory its mark names decides (one read by id;
    // read committed, as a snapshot taken meanwhile cannot have the file there).
    InodeRow markDir = file.snapshotId() > 0 ? InodePaths.in(tx).byId(file.snapshotId()) : null;
    return CopyOnWrite.keeperOfMarked(file, own, markDir);
  }

  /**
   * As {@link #snapshotKeeperOf}, for a delete: every snapshot that keeps {@code file}, one row per
   * holder ({@link CopyOnWrite#keepersOfMarked}), given the entries a marked file left ({@code
   * earlier}, its {@code snapshot_earlier_entries} rows): for a file marked by several directories,
   * their directories, each read by id (read committed, as for one).
   */
  public List<SnapshotKeptFileRow> snapshotKeepersOf(
      InodeRow file, List<SnapshotEarlierEntryRow> earlier) throws StorageException {
    SnapshotKeptFileRow own = versions.keeperOf(file);
    if (file.isDir() || file.snapshotId() == 0 || !resolver.locksSnapshotRoots()) {
      return own == null ? List.of() : List.of(own);
    }
    java.util.Map<Long, InodeRow> markDirs = new java.util.TreeMap<>();
    if (file.snapshotId() > 0) {
      markDirs.put(file.snapshotId(), null);
    } else {
      earlier.forEach(e -> markDirs.put(e.dirId(), null));
    }
    for (java.util.Map.Entry<Long, InodeRow> d : markDirs.entrySet()) {
      d.setValue(InodePaths.in(tx).byId(d.getKey()));
    }
    return CopyOnWrite.keepersOfMarked(file, own, markDirs);
  }

  /**
   * The holders of the tail a truncate or a database file's change of {@code file} keeps ({@link
   * #snapshotKeepersOf}, the entries a file marked by several directories left read here: one
   * pruned scan, only for such a file): the latest first, under which the tail goes; empty when no
   * snapshot has the file.
   */
  public List<SnapshotKeptFileRow> tailHoldersOf(InodeRow file) throws StorageException {
    List<SnapshotEarlierEntryRow> earlier =
        file.snapshotId() < 0 && resolver.locksSnapshotRoots()
            ? tx.findByPartition(SnapshotEarlierEntryRow.TABLE, file.id(), LockMode.READ_COMMITTED)
            : List.of();
    List<SnapshotKeptFileRow> holders = new ArrayList<>(snapshotKeepersOf(file, earlier));
    holders.sort(java.util.Comparator.comparingLong(SnapshotKeptFileRow::snapshotId).reversed());
    return holders;
  }

  /**
   * Where a version of an entry of the last of {@code rows} (the path's directories from the root)
   * is logged and a file deleted there kept ({@link CopyOnWrite#keeperBelow}), for a caller outside
   * a transaction's phases (the schema upgrade's backfill of the version log), or null.
   */
  public static SnapshotKeptFileRow keeperOfPath(List<InodeRow> rows) {
    return CopyOnWrite.keeperBelow(rows);
  }

  /**
   * The snapshot that can read the entry of {@code row}, whatever the entry had then ({@link
   * CopyOnWrite#entryCoverOf}), or null; for a registered entry.
   */
  public SnapshotKeptFileRow entryCoverOf(InodeRow row) {
    return versions.entryCoverOf(row);
  }

  /**
   * As {@link #entryKeeperOf}, for a directory too: the snapshot that has {@code row} at its entry
   * ({@link CopyOnWrite#holderOf}), or null; for a registered entry.
   */
  public SnapshotKeptFileRow entryHolderOf(InodeRow row) {
    return versions.holderOf(row);
  }

  /**
   * The snapshot that has {@code file} at its entry as the copy-on-write registration reads it (the
   * entry's version at the directory's {@code snapshot_id}, {@link CopyOnWrite#keeperOf}), or null;
   * only for a registered entry.
   */
  public SnapshotKeptFileRow entryKeeperOf(InodeRow file) {
    return file.isDir() ? null : versions.keeperOf(file);
  }

  /**
   * The reference mark a file moved by a rename carries ({@link CopyOnWrite#referenceMarkOfMoved}),
   * given {@code keeper}, the snapshot that has it at its old entry (null: none).
   */
  public long referenceMarkOfMoved(InodeRow file, SnapshotKeptFileRow keeper) {
    return file.isDir() ? 0 : CopyOnWrite.referenceMarkOfMoved(file, keeper);
  }

  /**
   * The length the latest snapshot covering {@code file} has of it, or -1 when that snapshot does
   * not have it ({@link CopyOnWrite#snapshotLengthOf}); only for a registered entry.
   */
  public long snapshotLengthOf(InodeRow file) {
    return versions.snapshotLengthOf(file);
  }

  /** The latest snapshot covering {@code p}'s target when snapshots are enabled, or 0. */
  public long coveringSnapshot(ResolvedPath p) {
    return resolver.locksSnapshotRoots() ? CopyOnWrite.coveringSnapshot(p) : 0;
  }

  /**
   * The hold a directory moved below {@code from} to below {@code to} keeps in its row ({@link
   * CopyOnWrite#holdOfMoved}), or 0.
   */
  public long holdOfMoved(List<InodeRow> from, List<InodeRow> to) {
    return resolver.locksSnapshotRoots() ? CopyOnWrite.holdOfMoved(from, to) : 0;
  }

  /**
   * The row recording a moved directory's hold ({@link CopyOnWrite#holdRowOfMoved}), or null. A
   * directory held already is looked up by its holders' index (read committed: the mover has its
   * row locked, as a hold's clearing does).
   */
  public SnapshotKeptFileRow holdRowOfMoved(InodeRow dir, List<InodeRow> from, long hold)
      throws StorageException {
    boolean holdersUnknown =
        hold != 0
            && dir.snapshotId() > 0
            && tx.findByIndex(
                    SnapshotKeptFileRow.TABLE, "inode_id", -dir.id(), LockMode.READ_COMMITTED)
                .isEmpty();
    return CopyOnWrite.holdRowOfMoved(from, hold, dir, holdersUnknown);
  }

  /**
   * Where a file deleted below the last of {@code rows} would be kept now ({@link
   * CopyOnWrite#keeperBelow}): the keeping directory and the latest snapshot that can read it, or
   * null. Nothing is read.
   */
  public SnapshotKeptFileRow keeperBelow(List<InodeRow> rows) {
    return CopyOnWrite.keeperBelow(rows);
  }

  /** The snapshottable directory with snapshots covering the end of {@code rows}, or 0. */
  public long coveringDirectory(List<InodeRow> rows) {
    return resolver.locksSnapshotRoots() ? CopyOnWrite.coveringDirectory(rows) : 0;
  }

  /**
   * What a content summary reads snapshot data of the last of {@code rows} by: the covering
   * snapshottable directory's id, else minus the id of the nearest directory among them moved out
   * of its snapshots (held: docs/architecture.md, "Snapshots"), else 0; always 0 when snapshots are
   * off. Nothing is read.
   */
  public long summaryCover(List<InodeRow> rows) {
    long dir = coveringDirectory(rows);
    if (dir != 0 || !resolver.locksSnapshotRoots()) {
      return dir;
    }
    for (int i = rows.size() - 1; i >= 0; i--) {
      InodeRow r = rows.get(i);
      if (r != null && r.isDir() && !r.snapshottable() && r.snapshotId() > 0) {
        return -r.id();
      }
    }
    return 0;
  }

  /**
   * Resolves a path with no lock, reusing the ancestors of {@code base} when the path is beside it
   * (same parent directory): the second path of a rename ({@link PathResolver#resolveBeside}).
   */
  public ResolvedPath resolveBeside(ResolvedPath base, String path) throws IOException {
    checkOpen();
    ResolvedPath p = resolver.resolveBeside(tx, base, path);
    io.hops.namenode.resolve.ReservedPaths.check(p);
    if (resolver.locksSnapshotRoots()) {
      SnapshotPaths.refuseWrite(base); // its one caller is a rename
      SnapshotPaths.refuseWrite(p);
    }
    loadAcls(p.inodes());
    return p;
  }

  /**
   * The directories above {@code path}'s target ({@code components}: the path's, as {@link
   * io.hops.namenode.resolve.PathNames#components} cut them), read committed; the target is not
   * read: its caller locks it by its parent's id and completes the path with {@link #adopt}.
   */
  public ResolvedPath resolveAbove(String path, String[] components) throws StorageException {
    checkOpen();
    return resolver.resolveAbove(tx, path, components);
  }

  /** A path its caller completed with rows it locked itself, checked as {@link #resolve}'s. */
  public ResolvedPath adopt(ResolvedPath p) throws IOException {
    checkOpen();
    io.hops.namenode.resolve.ReservedPaths.check(p);
    writes(p); // its one caller is a rename, which locked the rows itself
    loadAcls(p.inodes());
    return p;
  }

  /**
   * Resolves a path with no lock at all, the target in the ancestors' batch: for a read that checks
   * the consistency of what it read itself ({@code ReadSmallFile}).
   */
  public ResolvedPath resolveCommitted(String path) throws StorageException {
    checkOpen();
    ResolvedPath p = resolver.resolveCommitted(tx, path);
    io.hops.namenode.resolve.ReservedPaths.check(p);
    loadAcls(p.inodes());
    return p;
  }

  /**
   * Reads the ACLs of those of {@code inodes} that have one (one batched read, none if no inode has
   * an ACL) for the permission checks of the execute phase ({@link LoadedAcls}).
   */
  public void loadAcls(List<InodeRow> inodes) throws StorageException {
    checkOpen();
    List<Long> ids = new ArrayList<>();
    for (InodeRow r : inodes) {
      if (InodeFlags.hasAcl(r.permission()) && !LoadedAcls.contains(r.id())) {
        ids.add(r.id());
      }
    }
    if (ids.isEmpty()) {
      return;
    }
    List<Key> keys = ids.stream().map(InodeAcl::key).toList();
    List<XAttrRow> rows =
        keys.size() == 1
            ? java.util.Collections.singletonList(
                tx.find(XAttrRow.TABLE, keys.get(0), LockMode.READ_COMMITTED))
            : tx.findBatch(XAttrRow.TABLE, keys, LockMode.READ_COMMITTED);
    for (int i = 0; i < ids.size(); i++) {
      XAttrRow row = rows.get(i);
      LoadedAcls.put(ids.get(i), row == null ? null : InodeAcl.of(row));
    }
  }

  /**
   * Lets this transaction pass the subtree mark on inode {@code id} as long as it is still {@code
   * owner}'s (the marking process's incarnation): the transactions of the subtree operation that
   * set it. A mark there of another owner (who took it over) is met like any other mark.
   */
  public void passOwnSubtreeMark(long id, long owner) {
    ownMark = id;
    ownMarkOwner = owner;
  }

  /** The mark {@link #passOwnSubtreeMark} allowed, or {@link PathResolver#NO_MARK}. */
  public long ownSubtreeMark() {
    return ownMark;
  }

  /** Where the inode {@code id} was last seen by this namenode (a hint to verify), or null. */
  public io.hops.namenode.resolve.InodeHintCache.Hint placeOf(long id) {
    return resolver.placeOf(id);
  }

  /** This transaction's further reads are read once ({@link Transaction#readOnce}). */
  public void readOnce() {
    tx.readOnce();
  }

  @Override
  public <R extends Record> R find(Table<R> table, Key key, LockMode mode) throws StorageException {
    checkOpen();
    return tx.find(table, key, mode);
  }

  public <R extends Record> List<R> findBatch(Table<R> table, List<Key> keys, LockMode mode)
      throws StorageException {
    checkOpen();
    return tx.findBatch(table, keys, mode);
  }

  public <R extends Record> List<R> findByPartition(Table<R> table, Object partition, LockMode mode)
      throws StorageException {
    checkOpen();
    return tx.findByPartition(table, partition, mode);
  }

  /** Several partitions' rows in one access ({@link Transaction#findByPartitions}). */
  public <R extends Record> List<R> findByPartitions(
      Table<R> table, List<?> partitions, LockMode mode) throws StorageException {
    checkOpen();
    return tx.findByPartitions(table, partitions, mode);
  }

  public <R extends Record> List<R> findByPartition(
      Table<R> table, Object partition, String column, Object value, LockMode mode)
      throws StorageException {
    checkOpen();
    return tx.findByPartition(table, partition, column, value, mode);
  }

  /** A partition's rows, read committed, summarized ({@link Transaction#foldPartition}). */
  public <R extends Record, A> A foldPartition(
      Table<R> table, Object partition, PartitionFold<R, A> fold) throws StorageException {
    checkOpen();
    return tx.foldPartition(table, partition, fold);
  }

  /** One page of a bounded range scan ({@link Transaction#scanFrom}). */
  public <R extends Record> List<R> scanFrom(
      Table<R> table, Object partition, Key after, int limit, LockMode mode)
      throws StorageException {
    checkOpen();
    return tx.scanFrom(table, partition, after, limit, mode);
  }

  @Override
  public <R extends Record> List<R> findByIndex(
      Table<R> table, String column, Object value, LockMode mode) throws StorageException {
    checkOpen();
    return tx.findByIndex(table, column, value, mode);
  }

  /** Full paths of inodes found by id, read in this lock phase. */
  public InodePaths inodePaths() {
    return InodePaths.over(id -> findByIndex(InodeRow.TABLE, "id", id, InodePaths.READ));
  }

  /** Every row of a small table ({@link Transaction#scanAll}): a full table scan. */
  public <R extends Record> List<R> scanAll(Table<R> table, LockMode mode) throws StorageException {
    checkOpen();
    return tx.scanAll(table, mode);
  }
}
