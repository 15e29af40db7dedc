package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.snapshot.ChargesWhereHeld;
import io.hops.namenode.ops.snapshot.DeletedHeldDirectory;
import io.hops.namenode.ops.snapshot.SnapshotGuard;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code delete}: a file, an empty directory, or a directory and everything below it, in one
 * transaction. The parent and the target are locked exclusively (B + 2 PK(EXCLUSIVE) + W for a
 * closed empty file); a directory's subtree is then read level by level with exclusive locks, one
 * pruned scan per non-empty directory, up to {@link Limits#inodesInOneTx}; past it, or when its
 * files' rows would pass {@code hops.namenode.transaction.max-rows}, nothing is written and a
 * {@link SubtreeTooBigException} sends the delete to the subtree protocol, which deletes the
 * subtree in many transactions and then runs this operation again under its own mark ({@link
 * #underOwnMark}) for the emptied root. Then the leases, blocks and other rows that go with the
 * deleted files ({@link DeletedInodes}).
 *
 * <p>HDFS semantics (FSDirDeleteOp): the root is never deleted (false); a missing path gives false;
 * a non-empty directory without {@code recursive} is a {@link PathIsNotEmptyDirectoryException}.
 * Permissions: traverse, the sticky bit and WRITE on the parent, and ALL on every non-empty
 * directory of the subtree (with the sticky bit on their children).
 */
public final class Delete extends Operation<Boolean> {
  private final SnapshotSettings snapshotSettings;
  private final PermissionChecker pc;
  private final String src;
  private final boolean recursive;
  private final int bound;
  private ResolvedPath resolved;
  private SubtreeScan subtree;
  private DeletedInodes related;
  private boolean tooManyRows;
  private long ownMark = PathResolver.NO_MARK;
  private long ownMarkOwner;
  private boolean detach;
  private AncestorQuotas quotas = AncestorQuotas.none();
  private SnapshotGuard snapshots;
  private boolean covered;
  private boolean detachOnlyIfCovered;
  private long hold;
  private SnapshotKeptFileRow holdRow;
  private Map<Long, Long> heldBelow = Map.of();
  private ChargesWhereHeld chargedWhereHeld = ChargesWhereHeld.none();
  private long[] detachedUsage;

  public Delete(
      Limits limits,
      SnapshotSettings snapshotSettings,
      PermissionChecker pc,
      String src,
      boolean recursive) {
    this.snapshotSettings = snapshotSettings;
    this.pc = pc;
    this.src = src;
    this.recursive = recursive;
    this.bound = limits.inodesInOneTx();
  }

  /**
   * The last transaction of a subtree delete: passes the mark this namenode set on {@code rootId}
   * and removes its record of the subtree operation.
   */
  public Delete underOwnMark(long rootId, long owner) {
    this.ownMark = rootId;
    this.ownMarkOwner = owner;
    return this;
  }

  /**
   * The one transaction of a big delete that answers the client (with {@link #underOwnMark}): the
   * marked, non-empty directory is unlinked from the namespace at once, moved with its mark to
   * {@link Inodes#DETACHED} under its own id, and its rows are reclaimed afterwards by the marking
   * namenode (or, if it dies, by the leader). Where no snapshot covers it, only where no directory
   * above it has a quota, whose usage would have to drop now: there a {@link
   * SubtreeTooBigException} sends the caller to the delete in place. HDFS's sub-access check must
   * have been done by the quiesce.
   *
   * <p>Below a snapshot (or a moved directory's hold) the subtree is the snapshots' too: the unlink
   * writes its root's entry version like any delete, and the detached root keeps a hold, as a
   * directory moved away from its snapshots does (docs/architecture.md, "Snapshots", a big delete
   * below a snapshot): its rows stay, unmarked, until the hold ends, and are reclaimed then. Its
   * usage stays charged to every directory above, as HDFS keeps what its snapshots have in the
   * usage of each ({@code computeQuotaUsage}): a {@link SnapshotKeptUsageRow#untilReclaimed} row
   * names each, with the subtree's usage ({@link #withDetachedUsage}, counted under the mark; a
   * {@link UncountedSubtreeException} asks for it), so that a quota set later above it, or a rename
   * of a directory above it, counts it; the reclaim's batches take off what they free.
   */
  public Delete detaching() {
    this.detach = true;
    return this;
  }

  /**
   * {@link #detaching} only below a snapshot, which keeps the subtree's rows: elsewhere a {@link
   * SubtreeTooBigException} sends the caller to the delete in place (a namenode configured not to
   * delete in the background).
   */
  public Delete detachingIfCovered() {
    this.detachOnlyIfCovered = true;
    return detaching();
  }

  /**
   * The usage of the marked subtree (namespace and storage space, its root included), counted under
   * the mark: what a subtree detached below a snapshot stays charged with; and the holds of the
   * held directories in it ({@code heldBelow}, by id), whose charges a held root's own delete takes
   * off.
   */
  public Delete withDetachedUsage(long[] usage, Map<Long, Long> heldBelow) {
    this.detachedUsage = usage;
    this.heldBelow = Map.copyOf(heldBelow);
    return this;
  }

  /**
   * A subtree to detach below a snapshot whose usage the caller has not counted: nothing was
   * written; count it under the mark ({@link #withDetachedUsage}) and delete again.
   */
  public static final class UncountedSubtreeException extends IOException {
    private static final long serialVersionUID = 1L;

    UncountedSubtreeException(String path) {
      super("the usage of " + path + " is to count before it is detached below a snapshot");
    }
  }

  @Override
  public String name() {
    return "delete";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    tx.passOwnSubtreeMark(ownMark, ownMarkOwner);
    if (PathNames.components(src).length == 0) {
      // The root is never deleted: nothing to lock.
      resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
      return;
    }
    resolved = tx.resolve(src, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target == null) {
      return;
    }
    snapshots = SnapshotGuard.read(snapshotSettings, tx, target);
    if (!target.isDir() || target.childrenCount() == 0) {
      related = DeletedInodes.read(tx, List.of(target));
    } else if (detach && recursive && target.id() == ownMark) {
      covered = tx.coveringSnapshot(resolved) != 0;
      if (covered) {
        // Held as a directory moved out of its snapshots' reach is: from below the rows above it
        // to nowhere.
        List<InodeRow> above = resolved.inodes().subList(0, resolved.depth());
        hold = tx.holdOfMoved(above, List.of());
        holdRow = tx.holdRowOfMoved(target, above, hold);
        if (hold == 0 && DeletedHeldDirectory.held(target)) {
          // Covered by its own hold alone: HDFS's delete of a renamed directory's destination side
          // (ChargesWhereHeld), the usage rows before the quota rows they name.
          chargedWhereHeld =
              ChargesWhereHeld.read(
                  tx, ChargesWhereHeld.upTo(target.id(), target.snapshotId(), heldBelow));
        }
      }
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth(), chargedWhereHeld.quotaDirs());
      return;
    } else if (recursive) {
      subtree = SubtreeScan.read(tx, target, path(), LockMode.EXCLUSIVE, bound);
      if (!subtree.exceeded()) {
        tx.coverBelow(resolved, subtree.rows());
        related =
            DeletedInodes.readWithin(tx, subtree.rows(), tx.maxRows() - subtree.rows().size());
        if (!related.deferred().isEmpty()) {
          // Its files' rows do not fit one transaction: the subtree protocol splits them.
          tooManyRows = true;
          related = null;
        }
      }
    }
    if (related != null) {
      List<Long> chargedWhereHeld = related.readChargesWhereHeld(tx);
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth(), chargedWhereHeld);
    }
  }

  private String path() {
    return PathNames.prefix(resolved.components(), resolved.depth());
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (resolved.depth() == 0) {
      return deleteRoot(target);
    }
    InodeRow parent = resolved.parent();
    if (target != null && parent != null) {
      pc.checkStickyBit(parent, target, resolved.components(), resolved.depth());
    }
    if (parent != null) {
      pc.check(parent, resolved.components(), resolved.depth() - 1, FsAction.WRITE);
    }
    if (target == null) {
      return false;
    }
    boolean nonEmpty = target.isDir() && target.childrenCount() > 0;
    if (nonEmpty && detach && recursive && target.id() == ownMark) {
      return detach(tx, target, parent, path());
    }
    if (nonEmpty) {
      String path = path();
      if (subtree == null || subtree.exceeded() || tooManyRows) {
        // Not read (non-recursive) or not fully: only the top of HDFS's subtree check is possible.
        pc.check(target, path, FsAction.ALL);
        if (subtree == null) {
          throw new PathIsNotEmptyDirectoryException(path + " is non empty");
        }
        throw new SubtreeTooBigException("delete", path, target, null);
      }
      subtree.checkDeleteAccess(pc);
    }
    snapshots.refuseSnapshotted();
    List<InodeRow> doomed = subtree == null ? List.of(target) : subtree.rows();
    for (InodeRow r : doomed) {
      tx.delete(InodeRow.TABLE, r);
      tx.hintRemoved(r.parentId(), r.name());
    }
    MutableInode p = MutableInode.of(parent);
    p.childrenCount--;
    p.modificationTime = System.currentTimeMillis();
    tx.update(InodeRow.TABLE, p.toRow());
    related.delete(tx);
    snapshots.dropRemoved(tx);
    long[] freed = related.freed(doomed);
    quotas.add(-freed[0], -freed[1]);
    related.takeOffChargesWhereHeld(tx, quotas);
    quotas.flush(tx);
    related.charge(tx, target.id(), KeptUsageDirs.of(resolved, resolved.depth()), doomed);
    if (ownMark != PathResolver.NO_MARK) {
      tx.delete(OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, ownMark));
    }
    return true;
  }

  private boolean detach(ExecutePhase tx, InodeRow target, InodeRow parent, String path)
      throws IOException {
    pc.check(target, path, FsAction.ALL);
    if ((quotas.any(0, resolved.depth()) || detachOnlyIfCovered) && !covered) {
      throw new SubtreeTooBigException("delete", path, target, null);
    }
    snapshots.refuseSnapshotted();
    if (covered && detachedUsage == null) {
      throw new UncountedSubtreeException(path);
    }
    snapshots.dropRemoved(tx);
    // The row's key changes (deletes are flushed first; the entry's version goes with the
    // delete); the mark stays: it says who reclaims. A held subtree is the snapshots' until its
    // hold ends: unmarked, it is reclaimed then by whichever namenode leads.
    tx.delete(InodeRow.TABLE, target);
    tx.hintRemoved(target.parentId(), target.name());
    MutableInode moved = MutableInode.of(target);
    moved.parentId = Inodes.DETACHED;
    moved.name = Long.toString(target.id());
    moved.snapshotId = Math.max(moved.snapshotId, hold);
    if (covered && moved.snapshotId > 0) {
      moved.subtreeLocked = false;
      moved.subtreeLockOwner = 0;
    }
    tx.insert(InodeRow.TABLE, moved.toRow());
    if (holdRow != null) {
      tx.insertIfAbsent(SnapshotKeptFileRow.TABLE, holdRow);
    }
    if (covered && hold == 0 && DeletedHeldDirectory.held(target)) {
      // Only its own hold covers it: its usage leaves the directories above, with the charges of
      // what is kept below it for its hold; the snapshots it was moved away from count it.
      quotas.add(-detachedUsage[0], -detachedUsage[1]);
      chargedWhereHeld.takeOff(tx, quotas);
      quotas.flush(tx);
    } else if (covered) {
      // The snapshots have the subtree: it stays charged to every directory above (HDFS drops only
      // what no snapshot has; the quota rows keep counting it), until the reclaim after its hold
      // takes off what each batch frees.
      for (long q : KeptUsageDirs.of(resolved, resolved.depth())) {
        tx.insert(
            SnapshotKeptUsageRow.TABLE,
            SnapshotKeptUsageRow.untilReclaimed(
                target.id(), q, detachedUsage[0], detachedUsage[1]));
      }
    }
    MutableInode p = MutableInode.of(parent);
    p.childrenCount--;
    p.modificationTime = System.currentTimeMillis();
    tx.update(InodeRow.TABLE, p.toRow());
    tx.delete(OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, ownMark));
    return true;
  }

  /** HDFS: ALL on the root's subtree, then not empty, then refused (never deleted). */
  private boolean deleteRoot(InodeRow root) throws IOException {
    if (root.childrenCount() > 0) {
      pc.check(root, "/", FsAction.ALL);
      if (!recursive) {
        throw new PathIsNotEmptyDirectoryException("/ is non empty");
      }
    }
    return false;
  }
}
