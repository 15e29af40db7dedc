package io.hops.namenode.resolve;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Resolves a path in a lock phase (docs/architecture.md, "Transactions"). With warm hints, the root
 * and every ancestor that needs no lock come in one batched read at READ COMMITTED; the parent and
 * the target are then read by primary key at the lock the operation asked for, top-down, so locks
 * are taken in the global order. A row that contradicts its hint ends the batch's validity from
 * there on: the rest is read one component at a time, and the hints are repaired.
 *
 * <p>A path resolved for a write (a lock that is exclusive) is checked for subtree marks
 * (docs/architecture.md, "Subtree operations"): a marked inode on the path means a subtree
 * operation owns everything below it, so the operation backs off ({@link SubtreeMarkedException}),
 * unless it is the subtree operation's own transaction. Reads go on: every transaction of a subtree
 * operation leaves a consistent tree, so a read sees the tree before, after, or (a delete)
 * part-way, as a read that ran between two of the delete's batches would.
 */
public final class PathResolver {
  private final InodeHintCache hints;
  private volatile boolean snapshotRootLocks;

  public PathResolver(InodeHintCache hints) {
    this.hints = hints;
  }

  /**
   * Whether a writer locks the snapshottable directories above the rows it locks, shared, so that
   * it is wholly before or after a snapshot taken there (docs/architecture.md, "Snapshots"): on
   * when snapshots are enabled.
   */
  public void lockSnapshotRoots(boolean on) {
    snapshotRootLocks = on;
  }

  /** Whether {@link #lockSnapshotRoots} is on. */
  public boolean locksSnapshotRoots() {
    return snapshotRootLocks;
  }

  /**
   * Resolves {@code path}, locking its parent with {@code parentMode} and its target with {@code
   * targetMode}; every other component is read at READ COMMITTED.
   */
  public ResolvedPath resolve(Transaction tx, String path, LockMode parentMode, LockMode targetMode)
      throws StorageException {
    return resolve(tx, path, parentMode, targetMode, NO_MARK);
  }

  /** No subtree mark is the caller's own. */
  public static final long NO_MARK = -1;

  /**
   * As {@link #resolve(Transaction, String, LockMode, LockMode)}, passing the subtree mark on inode
   * {@code ownMark}: the caller's own subtree operation set it.
   */
  public ResolvedPath resolve(
      Transaction tx, String path, LockMode parentMode, LockMode targetMode, long ownMark)
      throws StorageException {
    ResolvedPath p = resolveUnchecked(tx, path, parentMode, targetMode);
    if (parentMode == LockMode.EXCLUSIVE || targetMode == LockMode.EXCLUSIVE) {
      checkMarks(p.inodes(), ownMark);
    }
    return p;
  }

  /**
   * Resolves {@code path} with every directory above the target locked shared, top-down, and the
   * target at {@code targetMode}: no rename can move the target's ancestors until the transaction
   * ends (an {@code allowSnapshot}, whose nesting check reads them: docs/architecture.md,
   * "Snapshots"). One read-committed batch, one batch of shared locks, then the target.
   */
  public ResolvedPath resolveUnderLockedAncestors(Transaction tx, String path, LockMode targetMode)
      throws StorageException {
    String[] names = PathNames.components(path);
    int n = names.length;
    List<InodeRow> inodes = new ArrayList<>(n + 1);
    if (n > 0 && !readUnlocked(tx, names, n, n - 1, inodes)) {
      return new ResolvedPath(path, names, List.copyOf(inodes));
    }
    if (n > 0) {
      List<Key> keys = new ArrayList<>(n);
      keys.add(Inodes.rootKey());
      for (int i = 1; i < n; i++) {
        keys.add(Inodes.key(inodes.get(i - 1).id(), names[i - 1]));
      }
      List<InodeRow> locked =
          keys.size() == 1
              ? java.util.Collections.singletonList(
                  tx.find(InodeRow.TABLE, keys.get(0), LockMode.SHARED))
              : tx.findBatch(InodeRow.TABLE, keys, LockMode.SHARED);
      for (int i = 0; i < n; i++) {
        InodeRow row = locked.get(i);
        if (row == null || row.id() != inodes.get(i).id()) {
          throw new TransientStorageException(
              PathNames.prefix(names, i) + " changed while " + path + " was resolved");
        }
        inodes.set(i, row);
      }
    }
    InodeRow target = readOne(tx, names, n, inodes, targetMode);
    if (target != null) {
      inodes.add(target);
    }
    ResolvedPath p = new ResolvedPath(path, names, List.copyOf(inodes));
    checkMarks(p.inodes(), NO_MARK);
    return p;
  }

  /**
   * Resolves {@code path} without any lock, for a read that validates what it read itself: the
   * target rides in the ancestors' batch (one round trip with warm hints, B instead of B + PK).
   */
  public ResolvedPath resolveCommitted(Transaction tx, String path) throws StorageException {
    String[] names = PathNames.components(path);
    List<InodeRow> inodes = new ArrayList<>(names.length + 1);
    // Whether it ends at the target or above it (a missing component, a file), the path is read.
    readUnlocked(tx, names, names.length + 1, names.length - 1, inodes);
    return new ResolvedPath(path, names, List.copyOf(inodes));
  }

  /**
   * Resolves the directories above {@code path}'s target (its parent and the parent's ancestors) at
   * READ COMMITTED, without reading the target: one batch with warm hints, for a caller that locks
   * the target by its parent's id itself (a rename within one directory). {@code names} are the
   * path's components (at least one), already cut by the caller.
   */
  public ResolvedPath resolveAbove(Transaction tx, String path, String[] names)
      throws StorageException {
    List<InodeRow> inodes = new ArrayList<>(names.length);
    // Every component read is a directory the path goes on below, so the chain covers them all.
    readUnlocked(tx, names, names.length, names.length - 1, inodes);
    // Its one caller (a rename) then locks the last directory exclusively itself.
    lockSnapshotRoots(tx, names, inodes, Math.min(inodes.size(), names.length - 1));
    return new ResolvedPath(path, names, List.copyOf(inodes));
  }

  /**
   * Resolves {@code path} at READ COMMITTED, as {@link #resolve} with no lock does; when it names a
   * child of the directory {@code base} ends in (a rename within a directory), from {@code base}'s
   * ancestors and one read of the last name, rather than from the root again. Both resolutions are
   * read committed, so the ancestors are as current as a second batch's would be; whoever locks
   * their rows checks them then.
   */
  public ResolvedPath resolveBeside(Transaction tx, ResolvedPath base, String path)
      throws StorageException {
    String[] names = PathNames.components(path);
    int n = names.length;
    String[] baseNames = base.components();
    List<InodeRow> baseRows = base.inodes();
    if (n == 0
        || baseNames.length != n
        || baseRows.size() < n
        || !baseRows.get(n - 1).isDir()
        || !Arrays.equals(names, 0, n - 1, baseNames, 0, n - 1)) {
      return resolveUnchecked(tx, path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    }
    List<InodeRow> inodes = new ArrayList<>(n + 1);
    inodes.addAll(baseRows.subList(0, n));
    InodeRow target = readOne(tx, names, n, inodes, LockMode.READ_COMMITTED);
    if (target != null) {
      inodes.add(target);
    }
    return new ResolvedPath(path, names, List.copyOf(inodes));
  }

  /** Throws if an inode of {@code rows} carries a subtree mark other than {@code ownMark}. */
  public static void checkMarks(List<InodeRow> rows, long ownMark) throws SubtreeMarkedException {
    for (InodeRow r : rows) {
      if (r != null && r.subtreeLocked() && r.id() != ownMark) {
        throw new SubtreeMarkedException(
            "inode " + r.id() + " (" + r.name() + ")", r.id(), r.subtreeLockOwner());
      }
    }
  }

  private ResolvedPath resolveUnchecked(
      Transaction tx, String path, LockMode parentMode, LockMode targetMode)
      throws StorageException {
    String[] names = PathNames.components(path);
    int n = names.length;
    List<InodeRow> inodes = new ArrayList<>(n + 1);
    // Components [0, unlocked) need no lock: all but the target, the parent too if it needs none,
    // and the target too if neither does (it then rides in the ancestors' batch, as in
    // resolveCommitted). The root is component 0.
    int unlocked;
    if (parentMode == LockMode.READ_COMMITTED || n == 0) {
      unlocked = targetMode == LockMode.READ_COMMITTED ? n + 1 : n;
    } else {
      unlocked = n - 1;
    }
    boolean complete = unlocked == 0 || readUnlocked(tx, names, unlocked, unlocked - 2, inodes);
    if (parentMode == LockMode.EXCLUSIVE || targetMode == LockMode.EXCLUSIVE) {
      lockSnapshotRoots(tx, names, inodes, inodes.size());
    }
    if (!complete) {
      return new ResolvedPath(path, names, List.copyOf(inodes));
    }
    for (int i = inodes.size(); i <= n; i++) {
      if (i > 0 && !inodes.get(i - 1).isDir()) {
        break; // the path goes on below a file
      }
      LockMode mode = i == n ? targetMode : i == n - 1 ? parentMode : LockMode.READ_COMMITTED;
      InodeRow row = readOne(tx, names, i, inodes, mode);
      if (row == null) {
        break;
      }
      inodes.add(row);
    }
    return new ResolvedPath(path, names, List.copyOf(inodes));
  }

  /**
   * Reads components [0, count) at READ COMMITTED: one batch as far as hints reach. Returns false
   * if the path ended before (a missing component, or one below a file).
   *
   * <p>The hints of components [1, chained], directories if the path goes on below them, come from
   * one lookup by their path ({@link InodeHintCache.DirChain}) when it is kept; the others one by
   * one. A chain that a row contradicts is dropped, and kept again once its rows are read.
   */
  private boolean readUnlocked(
      Transaction tx, String[] names, int count, int chained, List<InodeRow> inodes)
      throws StorageException {
    String chainPath = chained >= MIN_CHAIN ? PathNames.prefix(names, chained) : null;
    InodeHintCache.DirChain chain = chainPath == null ? null : hints.chain(chainPath);
    boolean found = readBatch(tx, names, count, inodes, chain);
    settleChain(chainPath, chain, chained, names, inodes);
    return found;
  }

  /** {@link #readUnlocked}'s reads, with the hints of components [1, chain's length] from it. */
  private boolean readBatch(
      Transaction tx,
      String[] names,
      int count,
      List<InodeRow> inodes,
      InodeHintCache.DirChain chain)
      throws StorageException {
    List<Key> keys = new ArrayList<>(count);
    keys.add(Inodes.rootKey());
    // used[i]: the id the batch assumed for component i (the hint at the time the key was built).
    long[] used = new long[count];
    used[0] = Inodes.ROOT_ID;
    // kept[i]: the hint of component i held its key (a directory's, built once).
    boolean[] kept = new boolean[count];
    int chained = chain == null ? 0 : chain.ids().length;
    for (int i = 1; i <= chained; i++) {
      used[i] = chain.ids()[i - 1];
      kept[i] = true;
      keys.add(chain.keys()[i - 1]);
    }
    for (int i = chained + 1; i < count; i++) {
      InodeHintCache.Hint hint = hints.hint(used[i - 1], names[i - 1]);
      kept[i] = hint != null && hint.key() != null;
      keys.add(kept[i] ? hint.key() : Inodes.key(used[i - 1], names[i - 1]));
      if (hint == null) {
        used[i] = -1;
        break;
      }
      used[i] = hint.id();
    }
    int missed = used[keys.size() - 1] == -1 ? 1 : 0;
    hints.counted(keys.size() - 1 - missed, missed);
    // The root rides in the same round trip as the other ancestors rather than being cached:
    // a cached root would be an unvalidated authority for traversal checks (chmod / on another
    // namenode), and reading it costs no extra round trip.
    List<InodeRow> rows = tx.findBatch(InodeRow.TABLE, keys, LockMode.READ_COMMITTED);
    for (int i = 0; i < rows.size(); i++) {
      InodeRow row = rows.get(i);
      if (row == null) {
        if (i == 0) {
          nonNull(null);
        }
        // Key i was built from the verified id of component i - 1: the component is missing.
        hints.remove(inodes.get(i - 1).id(), names[i - 1]);
        return false;
      }
      inodes.add(row);
      if (i > 0) {
        if (used[i] == row.id() && (kept[i] || !row.isDir())) {
          if (i > chained) { // a chain's hints need no confirming: its own check is settleChain
            hints.confirmed(row.parentId(), row.name(), row.id());
          }
        } else {
          hints.put(row.parentId(), row.name(), row.id(), row.isDir());
        }
        if (i + 1 < keys.size() && used[i] != row.id()) {
          break; // a stale hint: the keys after this one named the wrong parent
        }
      }
      if (!row.isDir()) {
        return false;
      }
    }
    // Whatever the batch did not cover, one component at a time.
    while (inodes.size() < count) {
      InodeRow row = readOne(tx, names, inodes.size(), inodes, LockMode.READ_COMMITTED);
      if (row == null) {
        return false;
      }
      inodes.add(row);
      if (!row.isDir()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Locks shared the snapshottable directories among the first {@code upTo} rows read (read
   * committed), top-down before the rows below them are locked, replacing each with its locked
   * read: a writer then sees the directory's latest snapshot and a snapshot being taken there
   * (which locks it exclusively) waits for the writer or the writer for it. Nothing is read when no
   * row is snapshottable, so a path with none costs what it did. A directory that changed identity
   * since the batch fails the attempt, and the runner retries.
   */
  private void lockSnapshotRoots(Transaction tx, String[] names, List<InodeRow> inodes, int upTo)
      throws StorageException {
    if (!snapshotRootLocks) {
      return;
    }
    for (int i = 0; i < upTo; i++) {
      InodeRow read = inodes.get(i);
      if (!read.snapshottable()) {
        continue;
      }
      Key key = i == 0 ? Inodes.rootKey() : Inodes.key(inodes.get(i - 1).id(), names[i - 1]);
      InodeRow locked = tx.find(InodeRow.TABLE, key, LockMode.SHARED);
      if (locked == null || locked.id() != read.id()) {
        throw new TransientStorageException(
            "snapshottable directory " + PathNames.prefix(names, i) + " changed while resolved");
      }
      inodes.set(i, locked);
    }
  }

  /** Paths with fewer directories below the root than this look their hints up one by one. */
  private static final int MIN_CHAIN = 2;

  /**
   * After a read through {@code chainPath}'s directories: drops their chain if the path ended
   * within them; else keeps it, built from the rows read, unless {@code used} matched them all.
   */
  private void settleChain(
      String chainPath,
      InodeHintCache.DirChain used,
      int chained,
      String[] names,
      List<InodeRow> inodes) {
    if (chainPath == null) {
      return;
    }
    if (inodes.size() <= chained) {
      hints.removeChain(chainPath); // a directory on it is gone, or is not one
      return;
    }
    if (used != null && held(used, inodes)) {
      return;
    }
    long[] ids = new long[chained];
    Key[] keys = new Key[chained];
    for (int i = 1; i <= chained; i++) {
      InodeRow row = inodes.get(i);
      InodeHintCache.Hint hint = hints.hint(inodes.get(i - 1).id(), names[i - 1]);
      if (!row.isDir() || hint == null || hint.id() != row.id() || hint.key() == null) {
        hints.removeChain(chainPath);
        return;
      }
      ids[i - 1] = row.id();
      keys[i - 1] = hint.key();
    }
    hints.putChain(chainPath, new InodeHintCache.DirChain(ids, keys));
  }

  /** Whether the rows read are the directories {@code chain} named. */
  private static boolean held(InodeHintCache.DirChain chain, List<InodeRow> inodes) {
    long[] ids = chain.ids();
    for (int i = 0; i < ids.length; i++) {
      if (inodes.get(i + 1).id() != ids[i]) {
        return false;
      }
    }
    return true;
  }

  private InodeRow readOne(
      Transaction tx, String[] names, int i, List<InodeRow> inodes, LockMode mode)
      throws StorageException {
    if (i == 0) {
      return nonNull(tx.find(InodeRow.TABLE, Inodes.rootKey(), mode));
    }
    long parentId = inodes.get(i - 1).id();
    String name = names[i - 1];
    // A directory's hint keeps its row key, encoded once: the parent of a file being created or
    // deleted is read under its lock by every such call in the directory.
    InodeHintCache.Hint hint = hints.hint(parentId, name);
    Key key = hint != null && hint.key() != null ? hint.key() : Inodes.key(parentId, name);
    InodeRow row = tx.find(InodeRow.TABLE, key, mode);
    if (row == null) {
      if (hint != null) { // a name being created has none: no second lookup to remove it
        hints.remove(parentId, name);
      }
    } else {
      hints.put(hint, parentId, row.name(), row.id(), row.isDir());
    }
    return row;
  }

  private static InodeRow nonNull(InodeRow root) throws StorageException {
    if (root == null) {
      throw new StorageException("the namespace has no root inode: run 'hops format'");
    }
    return root;
  }

  /** Where the inode {@code id} was last seen (a hint), or null. */
  public InodeHintCache.Hint placeOf(long id) {
    return hints.placeOf(id);
  }
}
