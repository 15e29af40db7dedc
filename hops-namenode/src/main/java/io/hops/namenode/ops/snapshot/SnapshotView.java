package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.resolve.SnapshotPaths;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * A read of a {@code .snapshot} path (docs/architecture.md, "Snapshots"): {@code /d/.snapshot}
 * lists the snapshots as directories, {@code /d/.snapshot/s/rest} is {@code /d/rest} as it was at
 * {@code s}. An entry at snapshot s is its earliest version ({@code inode_versions}) with an id at
 * least s, else its live row; a directory's children at s are its live children and its children's
 * versions, merged by name. Read in the lock phase, read committed: a snapshot's entries no longer
 * change, and a live row read here is one that has not changed since the snapshot, unless a writer
 * changes it now, in which case its version (at the snapshot or a later one) is committed with the
 * change. Cost: a pruned scan of the directory's snapshots, then per component a primary-key read
 * and a pruned scan of the versions of that name; a listing adds a scan of the live children and
 * one of the versions.
 */
public final class SnapshotView {
  private final ResolvedPath path;
  private final int at;
  private List<SnapshotRow> snapshots = List.of();
  private SnapshotRow snapshot;

  /** The inodes of the path inside the snapshot, from the snapshot's root; null if missing. */
  private List<InodeRow> rows;

  private List<InodeRow> children;

  /** The version the path's last component was read from (null: its live row, or a root). */
  private InodeVersionRow lastVersion;

  private SnapshotView(ResolvedPath path, int at) {
    this.path = path;
    this.at = at;
  }

  /**
   * The view {@code p} names if it enters a {@code .snapshot} and snapshots are enabled, else null;
   * with {@code list}, a directory's children too.
   */
  public static SnapshotView read(
      SnapshotSettings settings, LockPhase tx, ResolvedPath p, boolean list)
      throws StorageException {
    if (!settings.enabled()) {
      return null;
    }
    int at = SnapshotPaths.entered(p);
    if (at < 0) {
      return null;
    }
    SnapshotView v = new SnapshotView(p, at);
    InodeRow dir = v.dir();
    v.snapshots = tx.findByPartition(SnapshotRow.TABLE, dir.id(), LockMode.READ_COMMITTED);
    String[] c = p.components();
    v.snapshot = c.length == at + 1 ? null : SnapshotRoots.byName(v.snapshots, c[at + 1]);
    v.loadOwnAclAsItWas(tx);
    if (v.snapshot == null) {
      return v;
    }
    long sid = v.snapshot.snapshotId();
    List<InodeRow> rows = new ArrayList<>();
    List<InodeVersionRow> versions = new ArrayList<>();
    InodeRow cur = rootOf(dir, v.snapshot);
    rows.add(cur);
    versions.add(null);
    for (int i = at + 2; i < c.length; i++) {
      if (!cur.isDir()) {
        return v;
      }
      long parentId = cur.id();
      v.lastVersion = versionAt(tx, parentId, c[i], sid);
      cur =
          v.lastVersion != null
              ? v.lastVersion.toInode(Inodes.partitionOf(parentId, c[i]))
              : tx.find(InodeRow.TABLE, Inodes.key(parentId, c[i]), LockMode.READ_COMMITTED);
      if (cur == null) {
        return v;
      }
      rows.add(cur);
      versions.add(v.lastVersion);
    }
    v.rows = rows;
    v.loadAclsAsTheyWere(tx, versions);
    if (list && cur.isDir()) {
      v.children = children(tx, cur.id(), sid);
    }
    return v;
  }

  /**
   * HDFS's getListing of {@code .snapshot} below a directory that is not snapshottable
   * (FSDirStatAndListingOp.getSnapshotsListing: the name alone says it is a listing of snapshots),
   * for a path that {@link #read} found to enter none: refused, where hops would find no such file.
   */
  public static void refuseListingOfSnapshots(ResolvedPath p) throws IOException {
    InodeRow parent = p.parent();
    if (!p.name().equals(HdfsConstants.DOT_SNAPSHOT_DIR) || p.depth() == 1) {
      return;
    }
    String dir = PathNames.prefix(p.components(), p.depth() - 1);
    if (parent == null) {
      throw new java.io.FileNotFoundException("Directory does not exist: " + dir);
    }
    if (!parent.isDir()) {
      throw new PathIsNotDirectoryException(dir);
    }
    throw new SnapshotException("Directory is not a snapshottable directory: " + dir);
  }

  private InodeRow dir() {
    return path.inodes().get(at);
  }

  /** Whether the path is the {@code .snapshot} directory itself. */
  private boolean isDotSnapshot() {
    return path.components().length == at + 1;
  }

  /** HDFS's getFileInfo: {@code .snapshot} is a bare directory; a missing entry null. */
  public HdfsFileStatus fileInfo(FileStatuses statuses, PermissionChecker pc) throws IOException {
    checkTraverse(pc);
    if (isDotSnapshot()) {
      return new HdfsFileStatus.Builder().isdir(true).build();
    }
    return rows == null
        ? null
        : statuses.status(rows.get(rows.size() - 1), HdfsFileStatus.EMPTY_NAME);
  }

  /** The id of the snapshot the path enters; 0 for {@code .snapshot} itself or a missing one. */
  public long snapshotId() {
    return snapshot == null ? 0 : snapshot.snapshotId();
  }

  /**
   * The entry the path names inside the snapshot (a file or a directory as it was), or null when it
   * is missing or the path is {@code .snapshot} or a snapshot's root.
   */
  public InodeRow entry() {
    return rows == null || rows.size() < 2 ? null : rows.get(rows.size() - 1);
  }

  /**
   * The inode the path names as it was, a snapshot's root included, after HDFS's traversal check;
   * null when it is missing or the path is {@code .snapshot} itself.
   */
  public InodeRow inodeToRead(PermissionChecker pc) throws IOException {
    checkTraverse(pc);
    return inode();
  }

  /** As {@link #inodeToRead}, without the check: for the lock phase's reads of its rows. */
  public InodeRow inode() {
    return rows == null ? null : rows.get(rows.size() - 1);
  }

  /**
   * HDFS's checks of a read of the file the path names (FSDirStatAndListingOp.getBlockLocations
   * over a snapshot path): traversal, then a file, then READ on it. Answers the file as it was.
   */
  public InodeRow fileToRead(PermissionChecker pc) throws IOException {
    checkTraverse(pc);
    InodeRow f = rows == null ? null : rows.get(rows.size() - 1);
    if (f == null || isDotSnapshot()) {
      throw new java.io.FileNotFoundException("File does not exist: " + path.path());
    }
    if (f.isDir()) {
      throw new java.io.FileNotFoundException("Path is not a file: " + path.path());
    }
    pc.check(f, path.path(), FsAction.READ);
    return f;
  }

  /** HDFS's getListing: the snapshots (by name), or the entry's children as they were. */
  public DirectoryListing listing(
      FileStatuses statuses, PermissionChecker pc, byte[] startAfter, int limit)
      throws IOException {
    checkTraverse(pc);
    if (isDotSnapshot()) {
      InodeRow dir = dir();
      if (!dir.snapshottable() && dir.id() != Inodes.ROOT_ID) {
        throw new SnapshotException(
            "Directory is not a snapshottable directory: "
                + PathNames.prefix(path.components(), at));
      }
      List<SnapshotRow> sorted = new ArrayList<>(snapshots);
      sorted.sort(SnapshotRoots.BY_NAME);
      List<InodeRow> roots = new ArrayList<>();
      List<byte[]> names = new ArrayList<>();
      for (SnapshotRow s : sorted) {
        roots.add(rootOf(dir, s));
        names.add(bytes(s.name()));
      }
      return page(statuses, roots, names, startAfter, limit);
    }
    if (rows == null) {
      return null;
    }
    InodeRow target = rows.get(rows.size() - 1);
    if (!target.isDir()) {
      return new DirectoryListing(
          new HdfsFileStatus[] {statuses.status(target, HdfsFileStatus.EMPTY_NAME)}, 0);
    }
    pc.check(target, path.path(), FsAction.READ_EXECUTE);
    List<byte[]> names = new ArrayList<>();
    for (InodeRow r : children) {
      names.add(bytes(r.name()));
    }
    return page(statuses, children, names, startAfter, limit);
  }

  private static DirectoryListing page(
      FileStatuses statuses, List<InodeRow> rows, List<byte[]> names, byte[] startAfter, int limit)
      throws StorageException {
    int first = 0;
    if (startAfter != null && startAfter.length > 0) {
      while (first < names.size() && compare(names.get(first), startAfter) <= 0) {
        first++;
      }
    }
    int count = Math.min(names.size() - first, limit);
    HdfsFileStatus[] out = new HdfsFileStatus[count];
    for (int i = 0; i < count; i++) {
      out[i] = statuses.status(rows.get(first + i), names.get(first + i));
    }
    return new DirectoryListing(out, names.size() - first - count);
  }

  /**
   * EXECUTE on the directories passed, as HDFS checks a path's ancestors: HDFS's permission checker
   * takes every inode of a snapshot path as the snapshot has it (FSPermissionChecker.getINodeAttrs
   * with the path's snapshot id), so the snapshottable directory itself is checked with its mode,
   * owner, group and ACL at the snapshot (its diff's copy, the snapshot's root), as are the
   * directories passed inside the snapshot; the directories above it, which no snapshot of it has,
   * as they are; {@code .snapshot} alone is the live directory's.
   */
  private void checkTraverse(PermissionChecker pc) throws IOException {
    io.hops.namenode.ops.Checks.traverseNotCreating(pc, traversed());
    if (rows == null) {
      return;
    }
    for (int i = 0; i < rows.size() - 1; i++) {
      // HDFS names the component denied, ".snapshot/s" being one (INodesInPath).
      pc.check(rows.get(i), path.components(), at + 2 + i, FsAction.EXECUTE);
    }
  }

  /**
   * The live path as HDFS traverses it: with the snapshottable directory as the snapshot has it,
   * once one is entered; up to the directory's parent for {@code .snapshot} itself, whose last
   * inode HDFS takes the directory for (so it checks no access on it).
   */
  private ResolvedPath traversed() {
    SnapshotRow asOf = checkedAsOf();
    if (asOf == null) {
      return path;
    }
    List<InodeRow> inodes = new ArrayList<>(path.inodes());
    inodes.set(at, rootOf(dir(), asOf));
    return new ResolvedPath(path.path(), path.components(), inodes);
  }

  /**
   * The snapshot whose copy of the directory HDFS's checks use: the one entered, else (for {@code
   * .snapshot} itself or a snapshot it does not have) its latest, the path's snapshot id that
   * INodesInPath keeps from passing the directory; null (the live directory) when it has none.
   */
  private SnapshotRow checkedAsOf() {
    if (snapshot != null) {
      return snapshot;
    }
    SnapshotRow latest = null;
    for (SnapshotRow s : snapshots) {
      if (latest == null || s.snapshotId() > latest.snapshotId()) {
        latest = s;
      }
    }
    return latest;
  }

  /**
   * Reads, for the permission checks of this attempt ({@link LoadedAcls}), the directory's ACL as
   * the checked snapshot has it ({@link #checkedAsOf}): the rows it keeps of its own attributes at
   * that snapshot or later, else its live ACL. It stands for the directory (the same inode) in all
   * of this read's checks, its snapshot root's included. Cost: nothing unless the directory had an
   * ACL then; else a pruned scan of its kept rows, and a primary-key read of a live ACL the path's
   * resolution did not read.
   */
  private void loadOwnAclAsItWas(LockPhase tx) throws StorageException {
    SnapshotRow asOf = checkedAsOf();
    if (asOf == null || !InodeFlags.hasAcl(asOf.permission())) {
      return;
    }
    long id = dir().id();
    putAcl(tx, id, SnapshotAttributes.own(ownRows(tx, id), asOf.snapshotId(), id));
  }

  /** Puts the ACL among {@code kept} for inode {@code id}; null: its live one. */
  private static void putAcl(LockPhase tx, long id, List<XAttrRow> kept) throws StorageException {
    if (kept == null) {
      if (!LoadedAcls.contains(id)) {
        XAttrRow acl = tx.find(XAttrRow.TABLE, InodeAcl.key(id), LockMode.READ_COMMITTED);
        LoadedAcls.put(id, acl == null ? null : InodeAcl.of(acl));
      }
      return;
    }
    InodeAcl acl = null;
    for (XAttrRow x : kept) {
      if (x.namespace() == XAttrRow.HIDDEN && x.name().equals(InodeAcl.ROW_NAME)) {
        acl = InodeAcl.of(x);
      }
    }
    LoadedAcls.put(id, acl);
  }

  /**
   * Reads the ACL that {@code dir}, a directory at snapshot {@code sid} below directory {@code
   * parentId}, had then, for the checks of a subtree of the snapshot ({@link SnapshotSummary}):
   * nothing unless it had one; else a pruned scan of its entry's versions and of the attributes
   * kept with the one that answers {@code sid}, or a primary-key read of its live ACL.
   */
  static void loadAclAt(LockPhase tx, InodeRow dir, long parentId, long sid)
      throws StorageException {
    if (!InodeFlags.hasAcl(dir.permission())) {
      return;
    }
    InodeVersionRow v = versionAt(tx, parentId, dir.name(), sid);
    putAcl(tx, dir.id(), v == null ? null : keptAttributes(tx, v, dir));
  }

  /**
   * The path HDFS's checks of a subtree name a directory of the snapshot by (its inode's full path
   * name): the snapshot's root as {@code /d/.snapshot/s}, an inode below it by its path below
   * {@code d}, as if it were live; {@code relative} is that path below the root, "" for the root.
   */
  String fullPathName(String relative) {
    String[] c = path.components();
    return relative.isEmpty()
        ? PathNames.prefix(c, at + 2)
        : PathNames.prefix(c, at) + (at == 0 ? "" : "/") + relative;
  }

  /** The path of the inode the view names below the snapshot's root ("" for the root). */
  String relativePath() {
    String[] c = path.components();
    return String.join("/", java.util.Arrays.copyOfRange(c, Math.min(at + 2, c.length), c.length));
  }

  /**
   * Reads, for the permission checks of this attempt ({@link LoadedAcls}), the ACL of each inode of
   * the path below the snapshot's root that had one then, as it was: the one kept with its entry's
   * version ({@code versions}, parallel to the rows: null for the root, read with the directory's,
   * and for an entry unchanged since, whose live ACL it is). Cost: nothing for inodes without an
   * ACL; else a pruned scan of a versioned entry's kept rows, or a primary-key read of a live ACL.
   */
  private void loadAclsAsTheyWere(LockPhase tx, List<InodeVersionRow> versions)
      throws StorageException {
    for (int i = 1; i < rows.size(); i++) {
      InodeRow r = rows.get(i);
      if (InodeFlags.hasAcl(r.permission())) {
        InodeVersionRow version = versions.get(i);
        putAcl(tx, r.id(), version == null ? null : keptAttributes(tx, version, r));
      }
    }
  }

  /**
   * HDFS's snapshot root (Snapshot.Root): the directory as it was when the snapshot was taken, its
   * modification time the snapshot's.
   */
  static InodeRow rootOf(InodeRow dir, SnapshotRow s) {
    MutableInode m = MutableInode.of(dir);
    m.name = s.name();
    m.permission = s.permission();
    m.userId = s.userId();
    m.groupId = s.groupId();
    m.modificationTime = s.modificationTime();
    m.accessTime = s.accessTime();
    m.childrenCount = s.childrenCount();
    return m.toRow();
  }

  /**
   * The length that each existing snapshot of the directory covering {@code p} has of {@code file},
   * its target, at its entry (-1: it does not have the file there), by snapshot id; empty when none
   * covers it. The copy-on-write registration answers only for the directory's {@code snapshot_id},
   * which may be a deleted snapshot's, and takes an entry without a version for one the snapshot
   * has even when a directory above it came later. Up from the file's entry, as {@link
   * #inLatestSnapshot}: each entry at the snapshot names the inode now there, until the
   * snapshottable directory or a directory that left an entry the snapshot had by a rename (the
   * snapshot has the subtree at its old place: {@link SnapshotRenamedEntryRow}). Cost: a pruned
   * scan of the directory's snapshots, then per snapshot and component below it a pruned scan of
   * the name's versions (and a primary-key read), and an index scan of the renamed entries of a
   * directory the snapshot has elsewhere.
   */
  public static java.util.NavigableMap<Long, Long> lengthsAtSnapshots(
      LockPhase tx, ResolvedPath p, InodeRow file) throws StorageException {
    java.util.NavigableMap<Long, Long> out = new java.util.TreeMap<>();
    List<InodeRow> rows = p.inodes();
    int root = snapshotRootOf(rows);
    if (root < 0) {
      return out;
    }
    int last = rows.size() - 1;
    if (rows.get(last).id() != file.id()) {
      return out;
    }
    for (SnapshotRow s :
        tx.findByPartition(SnapshotRow.TABLE, rows.get(root).id(), LockMode.READ_COMMITTED)) {
      InodeRow fileThen = null;
      boolean reached = true;
      for (int i = last; i > root; i--) {
        InodeRow now = rows.get(i);
        InodeRow then = child(tx, now.parentId(), now.name(), s.snapshotId());
        if (then == null || then.id() != now.id()) {
          reached = i < last && leftAnEntryOf(tx, now, s.snapshotId());
          break;
        }
        if (i == last) {
          fileThen = then;
        }
      }
      out.put(s.snapshotId(), reached && fileThen != null ? fileThen.size() : -1);
    }
    return out;
  }

  /**
   * The index in {@code rows} (a path's inodes) of the deepest snapshottable directory with
   * snapshots, or -1.
   */
  private static int snapshotRootOf(List<InodeRow> rows) {
    int root = -1;
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).snapshottable() && rows.get(i).snapshotId() > 0) {
        root = i;
      }
    }
    return root;
  }

  /** Whether {@code dir} left by a rename an entry that snapshot {@code snapshotId} had. */
  private static boolean leftAnEntryOf(LockPhase tx, InodeRow dir, long snapshotId)
      throws StorageException {
    for (SnapshotRenamedEntryRow r :
        tx.findByIndex(
            SnapshotRenamedEntryRow.TABLE, "inode_id", dir.id(), LockMode.READ_COMMITTED)) {
      if (r.snapshotId() >= snapshotId) {
        return true;
      }
    }
    return false;
  }

  /**
   * HDFS's INode.isInLatestSnapshot for {@code p}'s target: whether the latest existing snapshot of
   * the snapshottable directory covering it has it. Up from the target, each entry at that snapshot
   * names the inode now there, until the snapshottable directory or a directory that left an entry
   * that a snapshot had by a rename (HDFS's reference, at whose old place the snapshot has the
   * subtree: {@link SnapshotRenamedEntryRow}); a directory renamed in from where no snapshot had it
   * is not. The current path itself is not looked for at the snapshot. Cost: a pruned scan of the
   * directory's snapshots, per component a pruned scan of the name's versions (and a primary-key
   * read), and an index scan of the renamed entries of a directory the snapshot has elsewhere.
   */
  public static boolean inLatestSnapshot(LockPhase tx, ResolvedPath p) throws StorageException {
    List<InodeRow> rows = p.inodes();
    int root = snapshotRootOf(rows);
    if (root < 0) {
      return false;
    }
    long latest = -1;
    for (SnapshotRow s :
        tx.findByPartition(SnapshotRow.TABLE, rows.get(root).id(), LockMode.READ_COMMITTED)) {
      latest = Math.max(latest, s.snapshotId());
    }
    if (latest < 0) {
      return false;
    }
    for (int i = rows.size() - 1; i > root; i--) {
      InodeRow now = rows.get(i);
      InodeRow then = child(tx, now.parentId(), now.name(), latest);
      if (then == null || then.id() != now.id()) {
        return i < rows.size() - 1
            && !tx.findByIndex(
                    SnapshotRenamedEntryRow.TABLE, "inode_id", now.id(), LockMode.READ_COMMITTED)
                .isEmpty();
      }
    }
    return true;
  }

  /**
   * Whether an existing snapshot of {@code dirId} has {@code file} at its entry (parent and name):
   * what a rename's reference mark needs, as the copy-on-write registration answers for the
   * directory's {@code snapshot_id}, which may be a deleted snapshot's. A directory with no
   * snapshot rows (a held one, whose snapshots are its old directory's) answers true. Cost: a
   * pruned scan of the directory's snapshots and, per snapshot, one of the entry's versions.
   */
  public static boolean anExistingSnapshotHas(LockPhase tx, long dirId, InodeRow file)
      throws StorageException {
    List<SnapshotRow> snapshots =
        tx.findByPartition(SnapshotRow.TABLE, dirId, LockMode.READ_COMMITTED);
    for (SnapshotRow s : snapshots) {
      InodeRow then = child(tx, file.parentId(), file.name(), s.snapshotId());
      if (then != null && then.id() == file.id()) {
        return true;
      }
    }
    return snapshots.isEmpty();
  }

  /**
   * The existing snapshots that have {@code file}, renamed since (its reference mark), at an entry
   * it left ({@link SnapshotEarlierEntryRow}: HDFS's WithName references of it), and its length in
   * each. A held directory's snapshots are its holder's, not known here: the entry at the hold
   * stands for them (no live block appended since is in one of them, and a block they had that a
   * truncate took is in a tail). Cost, only for a marked file: a pruned scan of its earlier
   * entries, and per entry one of its versions and a pruned scan of its directory's snapshots (or a
   * read of a held directory's row by id), read committed.
   */
  public static java.util.NavigableMap<Long, Long> lengthsAtEarlierEntries(
      LockPhase tx, InodeRow file) throws StorageException {
    java.util.NavigableMap<Long, Long> out = new java.util.TreeMap<>();
    Map<Long, List<Long>> snapshotsOf = new HashMap<>();
    for (SnapshotEarlierEntryRow e :
        tx.findByPartition(SnapshotEarlierEntryRow.TABLE, file.id(), LockMode.READ_COMMITTED)) {
      List<Long> ids = snapshotsOf.get(e.dirId());
      if (ids == null) {
        ids = new ArrayList<>();
        for (SnapshotRow s :
            tx.findByPartition(SnapshotRow.TABLE, e.dirId(), LockMode.READ_COMMITTED)) {
          ids.add(s.snapshotId());
        }
        if (ids.isEmpty()) {
          List<InodeRow> rows =
              tx.findByIndex(InodeRow.TABLE, "id", e.dirId(), LockMode.READ_COMMITTED);
          InodeRow held = rows.isEmpty() ? null : rows.get(0);
          if (held != null && held.isDir() && !held.snapshottable() && held.snapshotId() > 0) {
            ids.add(held.snapshotId());
          }
        }
        snapshotsOf.put(e.dirId(), ids);
      }
      if (ids.isEmpty()) {
        continue;
      }
      List<InodeVersionRow> versions =
          tx.findByPartition(
              InodeVersionRow.TABLE, e.parentId(), "name", e.name(), LockMode.READ_COMMITTED);
      InodeRow live = null;
      boolean liveRead = false;
      for (long sid : ids) {
        InodeVersionRow v = earliest(versions, sid);
        InodeRow then;
        if (v != null) {
          then = v.present() ? v.toInode(Inodes.partitionOf(e.parentId(), e.name())) : null;
        } else {
          if (!liveRead) {
            live =
                tx.find(
                    InodeRow.TABLE, Inodes.key(e.parentId(), e.name()), LockMode.READ_COMMITTED);
            liveRead = true;
          }
          then = live;
        }
        if (then != null && then.id() == file.id()) {
          out.merge(sid, then.size(), Math::max);
        }
      }
    }
    return out;
  }

  /** The entry {@code name} of directory {@code parentId} at snapshot {@code sid}, or null. */
  static InodeRow child(LockPhase tx, long parentId, String name, long sid)
      throws StorageException {
    InodeVersionRow v = versionAt(tx, parentId, name, sid);
    if (v != null) {
      return v.toInode(Inodes.partitionOf(parentId, name));
    }
    return tx.find(InodeRow.TABLE, Inodes.key(parentId, name), LockMode.READ_COMMITTED);
  }

  /** The version of entry {@code name} of {@code parentId} that answers snapshot {@code sid}. */
  private static InodeVersionRow versionAt(LockPhase tx, long parentId, String name, long sid)
      throws StorageException {
    return earliest(
        tx.findByPartition(InodeVersionRow.TABLE, parentId, "name", name, LockMode.READ_COMMITTED),
        sid);
  }

  /**
   * The attribute rows (xattrs and, hidden, the ACL) of the inode the path names as it was: those
   * kept with its entry's version, or its live ones; none for a missing entry or {@code .snapshot}
   * itself; for a snapshot's root, the directory's as they were when it was taken (HDFS's
   * Snapshot.Root: {@link SnapshotAttributes#own}, one more pruned scan). One pruned scan, only for
   * an inode whose flags say it had any. The ACL among them is the one this attempt's permission
   * checks use for the inode ({@link LoadedAcls}).
   */
  public List<XAttrRow> attributes(LockPhase tx) throws StorageException {
    InodeRow inode = inode();
    if (inode == null || !InodeFlags.hasAttributeRows(inode.permission())) {
      return List.of();
    }
    List<XAttrRow> rows =
        lastVersion != null
            ? keptAttributes(tx, inode)
            : this.rows.size() == 1 ? rootAttributes(tx, inode) : liveAttributes(tx, inode);
    // The permission checks of this read see the inode's ACL as it was (its mode is the version's).
    for (XAttrRow r : rows) {
      if (r.namespace() == XAttrRow.HIDDEN && r.name().equals(InodeAcl.ROW_NAME)) {
        LoadedAcls.put(inode.id(), InodeAcl.of(r));
      }
    }
    return rows;
  }

  private static List<XAttrRow> liveAttributes(LockPhase tx, InodeRow inode)
      throws StorageException {
    return tx.findByPartition(XAttrRow.TABLE, inode.id(), LockMode.READ_COMMITTED);
  }

  /**
   * The snapshottable directory's own attributes at the snapshot: kept ones, else its live ones.
   */
  private List<XAttrRow> rootAttributes(LockPhase tx, InodeRow root) throws StorageException {
    List<XAttrRow> kept =
        SnapshotAttributes.own(ownRows(tx, root.id()), snapshot.snapshotId(), root.id());
    return kept != null ? kept : liveAttributes(tx, root);
  }

  /** The rows a snapshottable directory keeps of its own attributes at its snapshots. */
  static List<XAttrVersionRow> ownRows(LockPhase tx, long dirId) throws StorageException {
    return tx.findByPartition(
        XAttrVersionRow.TABLE, dirId, "entry_name", XAttrVersionRow.OWN, LockMode.READ_COMMITTED);
  }

  private List<XAttrRow> keptAttributes(LockPhase tx, InodeRow inode) throws StorageException {
    return keptAttributes(tx, lastVersion, inode);
  }

  /** The attribute rows kept with {@code version}, the entry's version that {@code inode} is. */
  private static List<XAttrRow> keptAttributes(
      LockPhase tx, InodeVersionRow version, InodeRow inode) throws StorageException {
    return SnapshotAttributes.kept(
        tx.findByPartition(
            XAttrVersionRow.TABLE,
            version.parentId(),
            "entry_name",
            version.name(),
            LockMode.READ_COMMITTED),
        version.snapshotId(),
        inode.id());
  }

  /** Whether the path is {@code .snapshot} below a directory HDFS lets have snapshots. */
  public boolean isDotSnapshotOfSnapshottable() {
    return isDotSnapshot() && (dir().snapshottable() || dir().id() == Inodes.ROOT_ID);
  }

  /** The children of directory {@code id} at snapshot {@code sid}, in HDFS's listing order. */
  static List<InodeRow> children(LockPhase tx, long id, long sid) throws StorageException {
    List<InodeRow> live = liveChildren(tx, id);
    return childrenAt(
        id, live, tx.findByPartition(InodeVersionRow.TABLE, id, LockMode.READ_COMMITTED), sid);
  }

  /**
   * The live children of directory {@code id}, read committed; read before its versions, so that a
   * change committed between the two reads is seen through its version.
   */
  static List<InodeRow> liveChildren(LockPhase tx, long id) throws StorageException {
    return id == Inodes.ROOT_ID
        ? tx.findByIndex(InodeRow.TABLE, "parent_id", id, LockMode.READ_COMMITTED)
        : tx.findByPartition(InodeRow.TABLE, id, LockMode.READ_COMMITTED);
  }

  /**
   * The children of directory {@code id} at snapshot {@code sid} (for the current tree, an id above
   * every snapshot's) from its live children and its versions, in HDFS's listing order.
   */
  static List<InodeRow> childrenAt(
      long id, List<InodeRow> live, List<InodeVersionRow> versionRows, long sid) {
    Map<String, InodeVersionRow> versions = new HashMap<>();
    for (InodeVersionRow v : versionRows) {
      if (v.snapshotId() >= sid) {
        versions.merge(v.name(), v, (a, b) -> a.snapshotId() <= b.snapshotId() ? a : b);
      }
    }
    List<InodeRow> out = new ArrayList<>();
    for (InodeRow r : live) {
      if (r.parentId() == id && !versions.containsKey(r.name())) {
        out.add(r);
      }
    }
    for (InodeVersionRow v : versions.values()) {
      if (v.present()) {
        out.add(v.toInode(Inodes.partitionOf(id, v.name())));
      }
    }
    out.sort((a, b) -> compare(bytes(a.name()), bytes(b.name())));
    return out;
  }

  private static InodeVersionRow earliest(List<InodeVersionRow> versions, long sid) {
    InodeVersionRow best = null;
    for (InodeVersionRow v : versions) {
      if (v.snapshotId() >= sid && (best == null || v.snapshotId() < best.snapshotId())) {
        best = v;
      }
    }
    return best;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static int compare(byte[] a, byte[] b) {
    return org.apache.hadoop.hdfs.DFSUtilClient.compareBytes(a, b);
  }
}
