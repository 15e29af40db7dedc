package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.blocks.LeasePathTail;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.snapshot.SnapshotGuard;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code rename} (the old API: false instead of most errors, and a destination that is a directory
 * receives the source inside it) and {@code rename2} (POSIX-like, with OVERWRITE), with the checks,
 * exceptions and messages of HDFS's FSDirRenameOp, in its order.
 *
 * <p>Locks ({@link RenameLocks}): both paths are resolved read-committed, then the parents and
 * targets are locked exclusively in one batch, in the global top-down order. The moved inode's row
 * changes its primary key (new parent, name and partition): its old row is deleted and a new one
 * inserted with the same id. A directory's children reference it by id, so they do not change. An
 * overwritten destination (a file or an empty directory) is deleted with what goes with it.
 */
public final class Rename extends Operation<Boolean> {
  private final Limits limits;
  private final ClusterClock clock;
  private final SnapshotSettings snapshotSettings;
  private final PermissionChecker pc;
  private final String src;
  private final String dst;
  private final boolean oldApi;
  private final boolean overwrite;
  private final boolean toTrash;
  private RenameLocks locks;
  private LeasePathRow leasePath;
  private DeletedInodes overwritten;

  /**
   * The snapshot that has the source at its old entry: its charge's usage is counted now for a file
   * (a read of its blocks) and for a directory where a quota is on either path; a directory's is
   * otherwise a walk, left {@link SnapshotKeptUsageRow#UNCOUNTED} for the first quota that needs it
   * ({@link UncountedCharges}).
   */
  private SnapshotKeptFileRow keptAtSource;

  private boolean uncountedAtSource;

  /** What snapshots keep charged to a renamed quota directory, moved with it. */
  private CarriedKeptUsage carried;

  private SubtreeScan trashed;
  private long ownMark = PathResolver.NO_MARK;
  private long ownMarkOwner;
  private AncestorQuotas quotas = AncestorQuotas.none();
  private long[] moved;
  private long[] givenUsage;
  private boolean movedTooBig;
  private SnapshotGuard srcSnapshots;
  private SnapshotGuard dstSnapshots;

  private Rename(
      Limits limits,
      ClusterClock clock,
      SnapshotSettings snapshotSettings,
      PermissionChecker pc,
      String src,
      String dst,
      boolean oldApi,
      Options.Rename... options) {
    this.limits = limits;
    this.clock = clock;
    this.snapshotSettings = snapshotSettings;
    this.pc = pc;
    this.src = src;
    this.dst = dst;
    this.oldApi = oldApi;
    List<Options.Rename> opts = options == null ? List.of() : Arrays.asList(options);
    this.overwrite = opts.contains(Options.Rename.OVERWRITE);
    this.toTrash = opts.contains(Options.Rename.TO_TRASH);
  }

  /** The old {@code rename}: returns false where rename2 throws. */
  public static Rename oldApi(
      Limits limits,
      ClusterClock clock,
      SnapshotSettings snapshotSettings,
      PermissionChecker pc,
      String src,
      String dst) {
    return new Rename(limits, clock, snapshotSettings, pc, src, dst, true);
  }

  /** {@code rename2}. */
  public static Rename withOptions(
      Limits limits,
      ClusterClock clock,
      SnapshotSettings snapshotSettings,
      PermissionChecker pc,
      String src,
      String dst,
      Options.Rename... options) {
    return new Rename(limits, clock, snapshotSettings, pc, src, dst, false, options);
  }

  /**
   * The last transaction of a subtree rename: passes the mark this namenode set on the source
   * {@code rootId} (the subtree was checked while the mark quiesced it), clears it on the moved row
   * and removes the record of the subtree operation, all in the rename's own transaction.
   */
  public Rename underOwnMark(long rootId, long owner) {
    this.ownMark = rootId;
    this.ownMarkOwner = owner;
    return this;
  }

  /** The namespace and space of the source's subtree, counted under the caller's mark. */
  public Rename withMovedUsage(long ns, long ds) {
    this.givenUsage = new long[] {ns, ds};
    return this;
  }

  @Override
  public String name() {
    return oldApi ? "rename" : "rename2";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // As the RPC server: the destination's length is checked before anything is read.
    Checks.pathLength("rename", dst);
    Checks.notExactReserved(src, dst);
    tx.passOwnSubtreeMark(ownMark, ownMarkOwner);
    locks = RenameLocks.acquire(tx, src, dst, oldApi);
    InodeRow s = locks.src();
    InodeRow d = locks.dst();
    srcSnapshots = SnapshotGuard.read(snapshotSettings, tx, s);
    dstSnapshots = SnapshotGuard.read(snapshotSettings, tx, !oldApi && overwrite ? d : null);
    if (toTrash
        && s != null
        && s.isDir()
        && s.childrenCount() > 0
        && ownMark != s.id()
        && !pc.isSuperuser()) {
      // Moving to the trash is a delete: HDFS checks the whole subtree (not for the superuser,
      // whom every check lets through). Read-committed: the
      // source's exclusive lock keeps its entry in place, and locking deeper rows here would break
      // the top-down order against the destination's locks.
      String[] sc = locks.srcComponents();
      trashed =
          SubtreeScan.read(
              tx,
              s,
              PathNames.prefix(sc, sc.length),
              LockMode.READ_COMMITTED,
              limits.inodesInOneTx());
    }
    if (s != null && !s.isDir() && s.underConstruction()) {
      leasePath = LeasePathTail.pathOf(tx, s, LockMode.READ_COMMITTED);
    }
    if (!oldApi && overwrite && s != null && d != null && s.id() != d.id()) {
      if (d.isDir() == s.isDir() && (!d.isDir() || d.childrenCount() == 0)) {
        overwritten = DeletedInodes.read(tx, List.of(d));
      }
    }
    lockQuotas(tx, s);
  }

  /**
   * The quota rows on both sides, and what the source counts if they differ: a directory with a
   * quota says it in its row; any other directory's subtree is read (committed) within the bound.
   */
  private void lockQuotas(LockPhase tx, InodeRow s) throws IOException {
    int sn = locks.srcComponents().length;
    int tn = locks.targetComponents().length;
    if (s == null || sn == 0 || tn == 0) {
      return;
    }
    boolean quotaOnEitherPath =
        KeptUsageDirs.anyQuota(locks.srcPath(), sn) || KeptUsageDirs.anyQuota(locks.dstPath(), tn);
    if (s.isDir() && (s.hasQuota() || snapshotSettings.enabled())) {
      // What snapshots keep below it, with a quota or not (HDFS's computeQuotaUsage counts it).
      carried = CarriedKeptUsage.lock(tx, s.id(), locks.srcPath(), sn, locks.dstPath(), tn);
      if (quotaOnEitherPath
          && carried.anyUncounted()
          && !carried.count(tx, givenUsage != null ? Long.MAX_VALUE : limits.inodesInOneTx())) {
        movedTooBig = true; // counted under the subtree protocol's mark
      }
    }
    quotas =
        AncestorQuotas.lock(
            tx, new ResolvedPath[] {locks.srcPath(), locks.dstPath()}, new int[] {sn, tn});
    // HDFS's INodeReference.WithName, of a file or a directory: the latest snapshot has it at its
    // old entry, so it stays charged there while the destination gains it.
    keptAtSource = s.isDir() ? tx.entryHolderOf(s) : tx.entryKeeperOf(s);
    if (keptAtSource != null
        && chargedAtSourceAlready(tx, s, KeptUsageDirs.of(locks.srcPath(), sn))) {
      keptAtSource = null;
    }
    // A file's charge costs a read of its blocks; a directory's a walk, made only where a quota
    // counts it: elsewhere the charge is written uncounted.
    if (keptAtSource != null && (!s.isDir() || quotaOnEitherPath)) {
      if (!s.isDir()) {
        moved = OpenFilesSpace.usage(tx, List.of(s));
        return;
      }
    } else {
      uncountedAtSource = keptAtSource != null;
      if (!quotas.differ(0, sn, 1, tn)) {
        return;
      }
    }
    if (s.isDir() && s.hasQuota()) {
      // Its usage counts what the snapshots keep below it, as HDFS's computeQuotaUsage does: all
      // of it moves, and the charges with it (CarriedKeptUsage).
      QuotaRow q = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(s.id()), LockMode.READ_COMMITTED);
      moved = q == null ? new long[] {1, 0} : new long[] {q.nsCount(), q.dsCount()};
    } else if (givenUsage != null) {
      moved = withCarried(givenUsage);
    } else if (s.isDir()) {
      SubtreeScan scan =
          trashed != null
              ? trashed
              : SubtreeScan.read(
                  tx,
                  s,
                  PathNames.prefix(locks.srcComponents(), sn),
                  LockMode.READ_COMMITTED,
                  limits.inodesInOneTx());
      if (scan.exceeded()) {
        movedTooBig = true;
      } else {
        moved = withCarried(OpenFilesSpace.usage(tx, scan.rows()));
      }
    } else {
      moved = OpenFilesSpace.usage(tx, List.of(s));
    }
  }

  /**
   * A directory's live usage and what the snapshots keep below it, which HDFS's {@code
   * computeQuotaUsage} counts too.
   */
  private long[] withCarried(long[] live) {
    long[] kept = carried == null ? new long[2] : carried.usage();
    return new long[] {live[0] + kept[0], live[1] + kept[1]};
  }

  /**
   * Whether an earlier rename from the same entry (the file moved back since) left the source side
   * charged for this snapshot already: one primary-key read, only for a file the latest snapshot
   * has under a quota.
   */
  private boolean chargedAtSourceAlready(LockPhase tx, InodeRow s, List<Long> sourceQuotas)
      throws IOException {
    return !sourceQuotas.isEmpty()
        && tx.find(
                SnapshotKeptUsageRow.TABLE,
                SnapshotKeptUsageRow.TABLE.keyOf(renameCharge(s.id(), sourceQuotas.get(0))),
                LockMode.READ_COMMITTED)
            != null;
  }

  /**
   * The row keeping a renamed file charged to source quota directory {@code q}: under the negated
   * file id, apart from the rows of the file's later delete.
   */
  private SnapshotKeptUsageRow renameCharge(long fileId, long q) {
    long[] usage =
        uncountedAtSource || moved == null
            ? new long[] {SnapshotKeptUsageRow.UNCOUNTED, SnapshotKeptUsageRow.UNCOUNTED}
            : moved;
    return new SnapshotKeptUsageRow(
        keptAtSource.dirId(), keptAtSource.snapshotId(), -fileId, q, usage[0], usage[1]);
  }

  /**
   * HDFS FSDirRenameOp.verifyQuotaForRename, then the move of the usage: off the source's quota
   * directories, onto the target's, less an overwritten destination; the common ones unchanged.
   */
  private void moveUsage(ExecutePhase tx) throws IOException {
    int sn = locks.srcComponents().length;
    int tn = locks.targetComponents().length;
    long[] gone = {0, 0};
    InodeRow d = locks.dst();
    if (d != null && overwritten != null) {
      gone = overwritten.freed(List.of(d));
    }
    if (movedTooBig) {
      String[] sc = locks.srcComponents();
      throw new SubtreeTooBigException("rename", PathNames.prefix(sc, sn), locks.src(), null);
    }
    if (moved != null) {
      quotas.verify(1, tn, 0, moved[0] - gone[0], moved[1] - gone[1]);
      if (keptAtSource == null) {
        quotas.add(0, sn, -moved[0], -moved[1]);
      }
      quotas.add(1, tn, moved[0], moved[1]);
    }
    quotas.add(1, tn, -gone[0], -gone[1]);
    if (carried != null) {
      // The rows move even where no quota row changes: a quota set later counts them.
      carried.move(tx, quotas, moved != null && keptAtSource == null);
    }
    quotas.flush(tx);
    if (keptAtSource != null) {
      // HDFS's INodeReference.WithName: the latest snapshot has it (file or directory) at its old
      // entry, where it stays charged to every quota directory above, the common ones too, until
      // released.
      for (long q : KeptUsageDirs.of(locks.srcPath(), sn)) {
        tx.insert(SnapshotKeptUsageRow.TABLE, renameCharge(locks.src().id(), q));
      }
    }
    if (d != null && overwritten != null) {
      overwritten.charge(tx, d.id(), KeptUsageDirs.of(locks.dstPath(), tn), List.of(d));
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    ResolvedPath srcPath = locks.srcPath();
    Checks.traverseNotCreating(pc, srcPath);
    pc.checkTraverse(locks.dstPath());
    checkPermissions();
    return oldApi ? renameOld(tx) : renameNew(tx);
  }

  /** HDFS: the sticky bit and WRITE on the source's parent; WRITE on the destination's ancestor. */
  private void checkPermissions() throws IOException {
    InodeRow s = locks.src();
    InodeRow sp = locks.srcParent();
    String[] sc = locks.srcComponents();
    if (sp != null) {
      if (s != null) {
        pc.checkStickyBit(sp, s, sc, sc.length);
      }
      pc.check(sp, sc, sc.length - 1, FsAction.WRITE);
    }
    if (trashed != null) {
      // HDFS 3.x (FSDirRenameOp): a rename to the trash checks what a delete checks, or a user
      // could have the trash emptier, a superuser, delete other users' protected files.
      if (trashed.exceeded()) {
        pc.check(s, PathNames.prefix(sc, sc.length), FsAction.ALL);
        throw new SubtreeTooBigException("rename", PathNames.prefix(sc, sc.length), s, null);
      }
      trashed.checkDeleteAccess(pc);
    }
    String[] tc = locks.targetComponents();
    if (tc.length > 0) {
      int i = locks.deepestExistingAncestorOfTarget();
      pc.check(locks.targetAncestor(i), tc, i, FsAction.WRITE);
    }
  }

  private boolean renameOld(ExecutePhase tx) throws IOException {
    String[] from = locks.srcComponents();
    String[] to = locks.targetComponents();
    if (locks.src() == null || from.length == 0) {
      return false;
    }
    srcSnapshots.refuseSnapshotted();
    if (Arrays.equals(to, from)) {
      return true;
    }
    if (isUnder(to, from) || locks.dst() != null || locks.dstParent() == null) {
      return false;
    }
    if (!locks.dstParent().isDir()) {
      throw new ParentNotDirectoryException(
          PathNames.prefix(locks.targetComponents(), locks.targetComponents().length - 1)
              + " (is not a directory)");
    }
    refuseNested();
    checkLimits();
    moveUsage(tx);
    move(tx);
    return true;
  }

  private boolean renameNew(ExecutePhase tx) throws IOException {
    String from = PathNames.prefix(locks.srcComponents(), locks.srcComponents().length);
    String to = PathNames.prefix(locks.targetComponents(), locks.targetComponents().length);
    InodeRow s = locks.src();
    InodeRow d = locks.dst();
    if (s == null) {
      throw new FileNotFoundException("rename source " + from + " is not found.");
    }
    if (locks.srcComponents().length == 0) {
      throw new IOException("rename source cannot be the root");
    }
    srcSnapshots.refuseSnapshotted();
    if (to.equals(from)) {
      throw new FileAlreadyExistsException(
          "The source " + from + " and destination " + to + " are the same");
    }
    if (isUnder(to, from)) {
      throw new IOException(
          "Rename destination " + to + " is a directory or file under source " + from);
    }
    if (locks.targetComponents().length == 0) {
      throw new IOException("rename destination cannot be the root");
    }
    if (d != null) {
      if (d.isDir() != s.isDir()) {
        throw new IOException(
            "Source " + from + " and destination " + to + " must both be directories");
      }
      if (!overwrite) {
        throw new FileAlreadyExistsException("rename destination " + to + " already exists");
      }
      if (d.isDir() && d.childrenCount() > 0) {
        throw new IOException("rename destination directory is not empty: " + to);
      }
      dstSnapshots.refuseSnapshotted();
    }
    if (locks.dstParent() == null) {
      throw new FileNotFoundException("rename destination parent " + to + " not found.");
    }
    if (!locks.dstParent().isDir()) {
      throw new ParentNotDirectoryException("rename destination parent " + to + " is a file.");
    }
    refuseNested();
    checkLimits();
    moveUsage(tx);
    dstSnapshots.dropRemoved(tx);
    move(tx);
    return true;
  }

  /** HDFS FSDirRenameOp.validateNestSnapshot: snapshottable directories go below no other. */
  private void refuseNested() throws IOException {
    String[] tc = locks.targetComponents();
    List<InodeRow> ancestors = new java.util.ArrayList<>();
    for (int depth = 0; depth < tc.length; depth++) {
      ancestors.add(locks.targetAncestor(depth));
    }
    String[] sc = locks.srcComponents();
    srcSnapshots.refuseNested(
        PathNames.prefix(sc, sc.length), ancestors, PathNames.prefix(tc, tc.length - 1));
  }

  /** As HDFS: a path strictly below another, by the strings. */
  private static boolean isUnder(String path, String dir) {
    return path.startsWith(dir) && path.length() > dir.length() && path.charAt(dir.length()) == '/';
  }

  /** A path strictly below another, by their components (the same as by their strings). */
  private static boolean isUnder(String[] path, String[] dir) {
    return path.length > dir.length && Arrays.equals(path, 0, dir.length, dir, 0, dir.length);
  }

  /** The new name's length; the destination directory's size if the entry changes directory. */
  private void checkLimits() throws IOException {
    String[] tc = locks.targetComponents();
    Checks.componentLength(limits, tc, tc.length);
    if (locks.srcParent().id() != locks.dstParent().id()) {
      Checks.directoryItems(limits, MutableInode.of(locks.dstParent()), tc, tc.length - 1);
    }
  }

  private void move(ExecutePhase tx) throws StorageException {
    InodeRow s = locks.src();
    InodeRow d = locks.dst();
    InodeRow sp = locks.srcParent();
    InodeRow dp = locks.dstParent();
    String[] tc = locks.targetComponents();
    String newName = tc[tc.length - 1];
    long now = clock.now();
    if (d != null) {
      tx.delete(InodeRow.TABLE, d);
      overwritten.delete(tx);
    }
    // The row's key changes: delete the old one, insert the new (deletes are flushed first).
    MutableInode moved = MutableInode.of(s);
    tx.delete(InodeRow.TABLE, s);
    if (ownMark == s.id()) {
      moved.subtreeLocked = false;
      moved.subtreeLockOwner = 0;
      tx.delete(OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, ownMark));
    }
    moved.parentId = dp.id();
    moved.name = newName;
    // Moved away from snapshots that have it: they keep reading its subtree through versions.
    // A file a snapshot has under its old entry: the mark keeps its blocks if it is deleted.
    moved.snapshotId = s.isDir() ? Math.max(moved.snapshotId, locks.hold()) : locks.referenceMark();
    tx.insert(InodeRow.TABLE, moved.toRow());
    if (!s.isDir() && locks.earlierEntry() != null) {
      // Where its snapshots have it: a truncate or a concat of it reads their lengths there.
      tx.insertIfAbsent(SnapshotEarlierEntryRow.TABLE, locks.earlierEntry());
    }
    if (locks.renamedEntry() != null) {
      // HDFS's WithName reference: a diff report follows the inode from the entry it leaves.
      tx.insertIfAbsent(SnapshotRenamedEntryRow.TABLE, locks.renamedEntry());
    }
    if (locks.holdRow() != null) {
      tx.insertIfAbsent(SnapshotKeptFileRow.TABLE, locks.holdRow());
    }
    int gone = d == null ? 0 : 1;
    if (sp.id() == dp.id()) {
      MutableInode p = MutableInode.of(sp);
      p.childrenCount -= gone;
      p.modificationTime = now;
      tx.update(InodeRow.TABLE, p.toRow());
    } else {
      MutableInode from = MutableInode.of(sp);
      from.childrenCount--;
      from.modificationTime = now;
      tx.update(InodeRow.TABLE, from.toRow());
      MutableInode into = MutableInode.of(dp);
      into.childrenCount += 1 - gone;
      into.modificationTime = now;
      tx.update(InodeRow.TABLE, into.toRow());
    }
    if (leasePath != null) {
      tx.update(
          LeasePathRow.TABLE,
          new LeasePathRow(
              leasePath.holder(),
              leasePath.inodeId(),
              PathNames.prefix(tc, tc.length),
              leasePath.lastBlockId(),
              leasePath.penultimateBlockId()));
    }
    tx.hintRemoved(sp.id(), s.name());
    tx.hintAdded(dp.id(), newName, s.id());
  }
}
