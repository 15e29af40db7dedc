package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.resolve.SubtreeMarkedException;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The lock phase of a rename: two paths locked in one global order.
 *
 * <p>Both paths are first resolved read-committed (no lock, so their order does not matter). Then
 * the rows the rename changes are locked exclusively: the source's parent, the source, the
 * destination's parent and the destination's name (whether or not it exists: the destination's
 * parent is locked first, and every create or rename into a directory locks it too, so what the
 * locked read finds is final). They are locked in one order for every transaction, by depth and
 * then by path: this order agrees with the top-down order of every single-path operation, so a
 * rename never holds a deep row while waiting for a shallow one. Rows shared by the two paths (same
 * parent, or one path inside the other) are locked once. Runs of rows with the same mode go in one
 * batched read: a file rename is B (source) + B (destination) + B (locks), each path's target
 * riding in its ancestors' read-committed batch. Within one directory, the common case, the
 * directory's ancestors are read and then the directory and both names locked: B + B(X).
 *
 * <p>A directory moved into another directory could close a cycle (a directory inside its own
 * subtree) if a concurrent rename moved an ancestor of the destination into the source. The
 * destination's ancestors below the deepest ancestor it shares with the source are therefore locked
 * shared: moving any of them takes an exclusive lock, so such renames serialize and the second sees
 * the first's result. A file has no subtree, so a file rename skips these locks.
 *
 * <p>A row that changed between the read-committed resolution and its lock (moved, deleted,
 * replaced) fails the attempt with a {@link TransientStorageException}, and the runner retries.
 */
final class RenameLocks {
  private static final long ANY = -1;
  private static final long MISSING = -2;

  /** A row to lock: its key, position in the lock order, mode and the id it must have. */
  private record Want(Key key, List<String> path, LockMode mode, long expectedId) {}

  private static final Comparator<Want> LOCK_ORDER =
      Comparator.<Want>comparingInt(w -> w.path().size()).thenComparing(RenameLocks::byPath);

  private ResolvedPath srcPath;
  private ResolvedPath dstPath;
  private String[] targetComponents;
  private List<InodeRow> targetRows;
  private InodeRow srcParent;
  private InodeRow src;
  private InodeRow dstParent;
  private InodeRow dst;
  private long hold;
  private SnapshotKeptFileRow holdRow;
  private Long referenceMark;

  /** The entry a file leaves while a snapshot has it there, to record with its mark, or null. */
  private SnapshotEarlierEntryRow earlierEntry;

  /** The entry the source leaves while the entry's latest snapshot has it there, or null. */
  private SnapshotRenamedEntryRow renamedEntry;

  private RenameLocks() {}

  /**
   * Resolves and locks. With the old API, a destination that is a directory means its child named
   * as the source (the target).
   */
  static RenameLocks acquire(LockPhase tx, String src, String dst, boolean oldApi)
      throws java.io.IOException {
    RenameLocks l = new RenameLocks();
    if (l.lockWithinDirectory(tx, src, dst, oldApi)) {
      return l;
    }
    l.srcPath = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    l.dstPath = tx.resolveBeside(l.srcPath, dst);
    String[] sc = l.srcPath.components();
    String[] dc = l.dstPath.components();
    boolean into = oldApi && sc.length > 0 && l.dstPath.exists() && l.dstPath.target().isDir();
    l.targetComponents = into ? append(dc, sc[sc.length - 1]) : dc;
    l.targetRows = l.dstPath.inodes();
    int tn = l.targetComponents.length;
    l.srcParent = l.srcPath.parent();
    l.src = l.srcPath.target();
    l.dstParent = tn > 0 && l.targetRows.size() >= tn ? l.targetRows.get(tn - 1) : null;
    l.dst = l.targetRows.size() > tn ? l.targetRows.get(tn) : null;
    l.lock(tx);
    return l;
  }

  /**
   * A rename within one directory, the common case, in fewer reads: the directory's ancestors are
   * read committed (one batch with warm hints; none in the root, whose id is known), then the
   * directory, the source and the destination are locked in one batch, in the global order (the
   * directory, then the two names in order): B + B(X), where the general way reads the source in
   * its ancestors' batch and the destination alone first, B + PK + B(X). Answers false where the
   * general way is needed: the two paths in different directories (or the same path), a directory
   * that is missing or not one, and, with the old API, a destination that is a directory (the
   * source goes into it). The locks it took then are a prefix of the general way's order, which
   * takes them again.
   */
  private boolean lockWithinDirectory(LockPhase tx, String src, String dst, boolean oldApi)
      throws java.io.IOException {
    // A rename across directories is told by its strings alone, before anything is parsed.
    int slash = src.lastIndexOf('/');
    if (slash < 0 || slash != dst.lastIndexOf('/') || !src.regionMatches(0, dst, 0, slash)) {
      return false;
    }
    if (slash == src.length() - 1 || slash == dst.length() - 1) {
      return false; // a trailing slash: the general way parses it
    }
    // The two strings are equal up to the last slash of each: so are their directories' names.
    String[] sc = PathNames.components(src);
    int n = sc.length;
    String dstName = dst.substring(slash + 1);
    if (n == 0 || sc[n - 1].equals(dstName)) {
      return false;
    }
    String[] dc = sc.clone();
    dc[n - 1] = dstName;
    // The root's id is known: in it, there is nothing to find before the locks.
    List<InodeRow> dirs = n == 1 ? List.of() : tx.resolveAbove(src, sc).inodes();
    if (n > 1 && (dirs.size() != n || !dirs.get(n - 1).isDir())) {
      return false;
    }
    long dirId = n == 1 ? Inodes.ROOT_ID : dirs.get(n - 1).id();
    Key dirKey = n == 1 ? Inodes.rootKey() : keyOf(dirs.get(n - 1));
    Key srcKey = Inodes.key(dirId, sc[n - 1]);
    Key dstKey = Inodes.key(dirId, dc[n - 1]);
    boolean srcFirst = sc[n - 1].compareTo(dc[n - 1]) < 0;
    List<InodeRow> locked =
        tx.findBatch(
            InodeRow.TABLE,
            List.of(dirKey, srcFirst ? srcKey : dstKey, srcFirst ? dstKey : srcKey),
            LockMode.EXCLUSIVE);
    InodeRow lockedDir = locked.get(0);
    if (lockedDir == null || lockedDir.id() != dirId) {
      throw new TransientStorageException(
          "rename: " + PathNames.prefix(sc, n - 1) + " changed while resolved");
    }
    InodeRow s = locked.get(srcFirst ? 1 : 2);
    InodeRow d = locked.get(srcFirst ? 2 : 1);
    if (oldApi && d != null && d.isDir()) {
      return false;
    }
    List<InodeRow> lockedDirs = new ArrayList<>(n);
    lockedDirs.addAll(dirs.subList(0, n - 1));
    lockedDirs.add(lockedDir);
    srcPath = tx.adopt(new ResolvedPath(src, sc, withTarget(lockedDirs, s)));
    dstPath = tx.adopt(new ResolvedPath(dst, dc, withTarget(lockedDirs, d)));
    targetComponents = dc;
    targetRows = dstPath.inodes();
    srcParent = lockedDir;
    this.src = s;
    dstParent = lockedDir;
    this.dst = d;
    if (tx.locksSnapshotRoots() && s != null && !s.isDir()) {
      referenceMark = referenceMarkOf(tx, s);
    }
    if (tx.locksSnapshotRoots()) {
      renamedEntry = renamedEntryOf(tx, s);
    }
    // As the general way: a subtree mark on either path makes the rename back off.
    PathResolver.checkMarks(lockedDirs, tx.ownSubtreeMark());
    PathResolver.checkMarks(locked, tx.ownSubtreeMark());
    if (s != null && s.isDir()) {
      checkNoSubtreeOperationBelow(tx, PathNames.prefix(sc, n));
    }
    return true;
  }

  private static List<InodeRow> withTarget(List<InodeRow> dirs, InodeRow target) {
    if (target == null) {
      return List.copyOf(dirs);
    }
    List<InodeRow> out = new ArrayList<>(dirs.size() + 1);
    out.addAll(dirs);
    out.add(target);
    return List.copyOf(out);
  }

  private void lock(LockPhase tx) throws java.io.IOException {
    String[] sc = srcPath.components();
    String[] tc = targetComponents;
    Map<Key, Want> wants = new LinkedHashMap<>();
    Key srcParentKey = null;
    Key srcKey = null;
    if (sc.length > 0 && srcParent != null && srcParent.isDir()) {
      srcParentKey = keyOf(srcParent);
      srcKey = Inodes.key(srcParent.id(), sc[sc.length - 1]);
      want(wants, srcParentKey, sc, sc.length - 1, LockMode.EXCLUSIVE, srcParent.id());
      // The source's kind decided the locks below, so it must not change meanwhile.
      want(wants, srcKey, sc, sc.length, LockMode.EXCLUSIVE, src == null ? MISSING : src.id());
    }
    Key dstParentKey = null;
    Key dstKey = null;
    if (tc.length > 0 && dstParent != null && dstParent.isDir()) {
      dstParentKey = keyOf(dstParent);
      dstKey = Inodes.key(dstParent.id(), tc[tc.length - 1]);
      want(wants, dstParentKey, tc, tc.length - 1, LockMode.EXCLUSIVE, dstParent.id());
      want(wants, dstKey, tc, tc.length, LockMode.EXCLUSIVE, ANY);
      if (src != null && src.isDir()) {
        for (int d = commonPrefix(sc, tc) + 1; d <= tc.length - 2; d++) {
          InodeRow ancestor = targetRows.get(d);
          want(wants, keyOf(ancestor), tc, d, LockMode.SHARED, ancestor.id());
        }
      }
    }
    if (tx.locksSnapshotRoots()) {
      // Above the rows it locks exclusively, a rename locks the snapshottable directories shared,
      // as every writer does (PathResolver): in this same order, by depth.
      wantSnapshotRoots(wants, srcPath.inodes(), sc, sc.length - 1);
      wantSnapshotRoots(wants, targetRows, tc, tc.length - 1);
    }
    Map<Key, InodeRow> locked = read(tx, wants);
    for (Want w : wants.values()) {
      InodeRow row = locked.get(w.key());
      boolean ok =
          w.expectedId() == ANY
              || (w.expectedId() == MISSING
                  ? row == null
                  : row != null && row.id() == w.expectedId());
      if (!ok) {
        throw new TransientStorageException(
            "rename: "
                + PathNames.prefix(w.path().toArray(new String[0]), w.path().size())
                + " changed while resolved");
      }
    }
    if (srcParentKey != null) {
      srcParent = locked.get(srcParentKey);
      src = locked.get(srcKey);
    }
    if (dstParentKey != null) {
      dstParent = locked.get(dstParentKey);
      dst = locked.get(dstKey);
    }
    // The nesting check reads the destination's ancestors as locked: an allowSnapshot of one of
    // them that committed after the read-committed resolution is seen (docs/architecture.md,
    // "Snapshots", allows and renames).
    List<InodeRow> asLocked = new ArrayList<>(targetRows);
    for (int d = 0; d < Math.min(asLocked.size(), tc.length - 1); d++) {
      InodeRow row = locked.get(keyOf(asLocked.get(d)));
      if (row != null) {
        asLocked.set(d, row);
      }
    }
    targetRows = asLocked;
    if (tx.locksSnapshotRoots() && srcParentKey != null && dstParentKey != null) {
      coverForSnapshots(tx, locked);
    }
    // A rename writes both paths: a subtree mark on either makes it back off (docs/architecture.md,
    // "Subtree operations"),
    // also one set between the read-committed resolution and the locks.
    PathResolver.checkMarks(srcPath.inodes(), tx.ownSubtreeMark());
    PathResolver.checkMarks(dstPath.inodes(), tx.ownSubtreeMark());
    PathResolver.checkMarks(new ArrayList<>(locked.values()), tx.ownSubtreeMark());
    if (src != null && src.isDir()) {
      checkNoSubtreeOperationBelow(tx, PathNames.prefix(sc, sc.length));
    }
  }

  /**
   * Registers both paths' entries for copy-on-write (docs/architecture.md, "Snapshots"), with the
   * rows as locked, and finds the hold a directory moved away from its snapshots keeps.
   */
  private void coverForSnapshots(LockPhase tx, Map<Key, InodeRow> locked)
      throws java.io.IOException {
    String[] sc = srcPath.components();
    List<InodeRow> srcRows = lockedPath(srcPath.inodes(), sc.length - 1, locked, srcParent, src);
    List<InodeRow> dstRows =
        lockedPath(targetRows, targetComponents.length - 1, locked, dstParent, dst);
    tx.cover(new ResolvedPath(srcPath.path(), sc, srcRows));
    tx.cover(new ResolvedPath(dstPath.path(), targetComponents, dstRows));
    if (src != null && !src.isDir()) {
      referenceMark = referenceMarkOf(tx, src);
    }
    renamedEntry = renamedEntryOf(tx, src);
    if (src != null && src.isDir() && !src.snapshottable()) {
      List<InodeRow> from = srcRows.subList(0, sc.length);
      hold = tx.holdOfMoved(from, dstRows.subList(0, targetComponents.length));
      holdRow = tx.holdRowOfMoved(src, from, hold);
    }
  }

  /**
   * The entry {@code moved} leaves, when the entry's latest snapshot has it there (HDFS's WithName
   * reference, docs/architecture.md, "Diff reports"): the copy-on-write registration says so with
   * no read; else null.
   */
  private static SnapshotRenamedEntryRow renamedEntryOf(LockPhase tx, InodeRow moved) {
    SnapshotKeptFileRow had = moved == null ? null : tx.entryHolderOf(moved);
    return had == null
        ? null
        : new SnapshotRenamedEntryRow(moved.parentId(), moved.name(), had.snapshotId(), moved.id());
  }

  /**
   * The reference mark of a file this rename moves (docs/architecture.md, "Snapshots"): set when an
   * existing snapshot has it at its old entry, so that deleting it later keeps its blocks.
   */
  private long referenceMarkOf(LockPhase tx, InodeRow file) throws io.hops.dal.StorageException {
    SnapshotKeptFileRow keeper = tx.entryKeeperOf(file);
    if (keeper != null
        && !io.hops.namenode.ops.snapshot.SnapshotView.anExistingSnapshotHas(
            tx, keeper.dirId(), file)) {
      keeper = null;
    }
    earlierEntry =
        keeper == null
            ? null
            : new SnapshotEarlierEntryRow(file.id(), file.parentId(), file.name(), keeper.dirId());
    return tx.referenceMarkOfMoved(file, keeper);
  }

  /** The rows above {@code parentDepth}, as locked where they were, then the parent and target. */
  private static List<InodeRow> lockedPath(
      List<InodeRow> rows,
      int parentDepth,
      Map<Key, InodeRow> locked,
      InodeRow parent,
      InodeRow target) {
    List<InodeRow> out = new ArrayList<>(parentDepth + 2);
    for (int d = 0; d < parentDepth; d++) {
      InodeRow r = rows.get(d);
      out.add(locked.getOrDefault(keyOf(r), r));
    }
    out.add(parent);
    if (target != null) {
      out.add(target);
    }
    return out;
  }

  /**
   * A directory does not move while a subtree operation runs inside it (docs/architecture.md,
   * "Subtree operations"): that operation found its subtree by path, and a delete there goes on by
   * ids in many transactions. The table of operations in progress is small (one pruned scan).
   */
  private static void checkNoSubtreeOperationBelow(LockPhase tx, String dir)
      throws StorageException {
    for (OnGoingSubtreeOpRow op :
        tx.findByPartition(OnGoingSubtreeOpRow.TABLE, 0, LockMode.READ_COMMITTED)) {
      String p = op.path();
      boolean inside =
          p != null && (p.equals(dir) || p.startsWith(dir.endsWith("/") ? dir : dir + "/"));
      if (inside && op.inodeId() != tx.ownSubtreeMark()) {
        throw new SubtreeMarkedException(
            "the subtree operation on " + p, op.inodeId(), op.namenodeId());
      }
    }
  }

  /** Locks the wanted rows in the global order, one batched read per run of one mode. */
  private static Map<Key, InodeRow> read(LockPhase tx, Map<Key, Want> wants)
      throws StorageException {
    List<Want> order = new ArrayList<>(wants.values());
    order.sort(LOCK_ORDER);
    Map<Key, InodeRow> rows = new HashMap<>();
    int i = 0;
    while (i < order.size()) {
      int j = i;
      while (j < order.size() && order.get(j).mode() == order.get(i).mode()) {
        j++;
      }
      List<Key> keys = order.subList(i, j).stream().map(Want::key).toList();
      LockMode mode = order.get(i).mode();
      if (keys.size() == 1) {
        rows.put(keys.get(0), tx.find(InodeRow.TABLE, keys.get(0), mode));
      } else {
        List<InodeRow> found = tx.findBatch(InodeRow.TABLE, keys, mode);
        for (int k = 0; k < keys.size(); k++) {
          rows.put(keys.get(k), found.get(k));
        }
      }
      i = j;
    }
    return rows;
  }

  private static void wantSnapshotRoots(
      Map<Key, Want> wants, List<InodeRow> rows, String[] path, int above)
      throws TransientStorageException {
    for (int d = 0; d < above && d < rows.size(); d++) {
      InodeRow r = rows.get(d);
      if (r.snapshottable()) {
        want(wants, keyOf(r), path, d, LockMode.SHARED, r.id());
      }
    }
  }

  /** Adds a row to lock; a row wanted twice is locked once, in the stronger mode. */
  private static void want(
      Map<Key, Want> wants, Key key, String[] path, int depth, LockMode mode, long expectedId)
      throws TransientStorageException {
    Want w = new Want(key, List.of(path).subList(0, depth), mode, expectedId);
    Want seen = wants.get(key);
    if (seen != null) {
      long expected = seen.expectedId() == ANY ? expectedId : seen.expectedId();
      if (expectedId != ANY && expectedId != expected) {
        // The two resolutions saw different rows under one name: something moved in between.
        throw new TransientStorageException("rename: the two paths disagree on " + key);
      }
      LockMode strongest = seen.mode().compareTo(mode) >= 0 ? seen.mode() : mode;
      w = new Want(key, seen.path(), strongest, expected);
    }
    wants.put(key, w);
  }

  private static int byPath(Want a, Want b) {
    for (int i = 0; i < a.path().size() && i < b.path().size(); i++) {
      int c = a.path().get(i).compareTo(b.path().get(i));
      if (c != 0) {
        return c;
      }
    }
    return Integer.compare(a.path().size(), b.path().size());
  }

  private static Key keyOf(InodeRow row) {
    return row.id() == Inodes.ROOT_ID ? Inodes.rootKey() : Inodes.key(row.parentId(), row.name());
  }

  private static int commonPrefix(String[] a, String[] b) {
    int n = 0;
    while (n < a.length && n < b.length && a[n].equals(b[n])) {
      n++;
    }
    return n;
  }

  private static String[] append(String[] a, String last) {
    String[] out = Arrays.copyOf(a, a.length + 1);
    out[a.length] = last;
    return out;
  }

  ResolvedPath srcPath() {
    return srcPath;
  }

  /** The destination as the client named it (its traversal is checked on this path). */
  ResolvedPath dstPath() {
    return dstPath;
  }

  String[] srcComponents() {
    return srcPath.components();
  }

  /** Where the source goes: the destination, or with the old API maybe a child of it. */
  String[] targetComponents() {
    return targetComponents;
  }

  /** The source's parent, locked if it exists and is a directory. */
  InodeRow srcParent() {
    return srcParent;
  }

  InodeRow src() {
    return src;
  }

  /** The target's parent, locked if it exists and is a directory. */
  InodeRow dstParent() {
    return dstParent;
  }

  /** What the target names now, or null. */
  InodeRow dst() {
    return dst;
  }

  /**
   * The snapshot a moved directory must keep its subtree for, as a hold in its row (the latest one
   * covering its old place, when its new place has none as late), or 0.
   */
  long hold() {
    return hold;
  }

  /**
   * The {@code snapshot_kept_files} row that lets the hold be cleared once no snapshot reads the
   * directory's old place ({@link SnapshotKeptFileRow#hold}), or null.
   */
  SnapshotKeptFileRow holdRow() {
    return holdRow;
  }

  /** The entry the moved file leaves while a snapshot has it there, or null. */
  SnapshotEarlierEntryRow earlierEntry() {
    return earlierEntry;
  }

  /**
   * The entry the source leaves while its latest snapshot has it there (HDFS's WithName reference,
   * which diff reports follow: docs/architecture.md, "Diff reports"), or null.
   */
  SnapshotRenamedEntryRow renamedEntry() {
    return renamedEntry;
  }

  /**
   * The reference mark the moved file's row carries (docs/architecture.md, "Snapshots"): the
   * directory whose snapshots have it under its old entry, if any does; else the mark it had.
   */
  long referenceMark() {
    return referenceMark != null ? referenceMark : src.snapshotId();
  }

  /** The depth of the deepest existing ancestor of the target (HDFS's ancestor access). */
  int deepestExistingAncestorOfTarget() {
    return Math.min(targetRows.size() - 1, targetComponents.length - 1);
  }

  /** The row at {@code depth} on the target's path, {@code depth} at most the parent's. */
  InodeRow targetAncestor(int depth) {
    return depth == targetComponents.length - 1 && dstParent != null
        ? dstParent
        : targetRows.get(depth);
  }
}
