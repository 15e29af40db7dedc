package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
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
    if (c.length == at + 1) {
      return v;
    }
    v.snapshot = SnapshotRoots.byName(v.snapshots, c[at + 1]);
    if (v.snapshot == null) {
      return v;
    }
    long sid = v.snapshot.snapshotId();
    List<InodeRow> rows = new ArrayList<>();
    InodeRow cur = rootOf(dir, v.snapshot);
    rows.add(cur);
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
    }
    v.rows = rows;
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

  /** EXECUTE on the directories passed inside the snapshot, as HDFS checks a path's ancestors. */
  private void checkTraverse(PermissionChecker pc) throws IOException {
    io.hops.namenode.ops.Checks.traverseNotCreating(pc, path);
    if (rows == null) {
      return;
    }
    for (int i = 0; i < rows.size() - 1; i++) {
      pc.check(rows.get(i), path.path(), FsAction.EXECUTE);
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
   * its target, at this path (-1: it does not have the file there), by snapshot id; empty when none
   * covers it. The copy-on-write registration answers only for the directory's {@code snapshot_id},
   * which may be a deleted snapshot's, and takes an entry without a version for one the snapshot
   * has even when a directory above it came later: this resolves the path in each existing
   * snapshot. Cost: a pruned scan of the directory's snapshots, then per snapshot and component
   * below it a pruned scan of the name's versions (and a primary-key read).
   */
  public static java.util.NavigableMap<Long, Long> lengthsAtSnapshots(
      LockPhase tx, ResolvedPath p, InodeRow file) throws StorageException {
    java.util.NavigableMap<Long, Long> out = new java.util.TreeMap<>();
    List<InodeRow> rows = p.inodes();
    int root = -1;
    for (int i = 0; i < rows.size(); i++) {
      if (rows.get(i).snapshottable() && rows.get(i).snapshotId() > 0) {
        root = i;
      }
    }
    if (root < 0) {
      return out;
    }
    for (SnapshotRow s :
        tx.findByPartition(SnapshotRow.TABLE, rows.get(root).id(), LockMode.READ_COMMITTED)) {
      long length = -1;
      for (int i = root + 1; i < rows.size(); i++) {
        InodeRow now = rows.get(i);
        InodeRow then = child(tx, now.parentId(), now.name(), s.snapshotId());
        if (then == null || then.id() != now.id()) {
          break;
        }
        if (i == rows.size() - 1 && then.id() == file.id()) {
          length = then.size();
        }
      }
      out.put(s.snapshotId(), length);
    }
    return out;
  }

  /** The entry {@code name} of directory {@code parentId} at snapshot {@code sid}, or null. */
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
    return SnapshotAttributes.kept(
        tx.findByPartition(
            XAttrVersionRow.TABLE,
            lastVersion.parentId(),
            "entry_name",
            lastVersion.name(),
            LockMode.READ_COMMITTED),
        lastVersion.snapshotId(),
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
