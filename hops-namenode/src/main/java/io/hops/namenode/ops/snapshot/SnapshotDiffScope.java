package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.namenode.ops.Checks;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.security.AccessControlException;

/**
 * The first transaction of a snapshot diff report (HDFS FSDirSnapshotOp.getSnapshotDiffReport and
 * SnapshotManager.diff): HDFS's checks in HDFS's order, and what the walk starts from. READ on the
 * directory as each end of the diff has it (checkSubtreeReadPermission; the subtree's directories
 * are not checked), then the directory, its snapshottable ancestor (the directory itself or one
 * above it, as HDFS's dfs.namenode.snapshotdiff.allow.snap-root-descendant default allows), the two
 * snapshots by name. Reads: the path, the snapshottable directory's snapshots (a pruned scan), and
 * for a directory below it the directory's entry at each named snapshot (a pruned scan each).
 */
public final class SnapshotDiffScope extends Operation<SnapshotDiffScope.Scope> {
  /** The current tree's place among snapshot ids: after every snapshot. */
  public static final long CURRENT = Long.MAX_VALUE;

  /**
   * What to compare: the directory {@code scopeId} (at {@code path}, below or at the snapshottable
   * directory at {@code rootPath}) at snapshot {@code earlier} and at {@code later} (ids, {@link
   * #CURRENT} for the current tree), and its own row at each; {@code empty} when HDFS answers an
   * empty report without comparing. {@code snapshottableId} is the snapshottable directory, whose
   * version log names the directories to walk ({@link SnapshotDiffChanges}); {@code belowHold} when
   * a directory held by a move ({@link SnapshotDiff#held}) is on the path below it, whose subtree's
   * versions that log may not name: the walk then reads every directory.
   */
  public record Scope(
      String rootPath,
      String path,
      String from,
      String to,
      boolean empty,
      long scopeId,
      long earlier,
      long later,
      boolean fromEarlier,
      InodeRow atEarlier,
      InodeRow atLater,
      boolean touched,
      InodeRow now,
      boolean ownAttributesChanged,
      long snapshottableId,
      boolean belowHold) {}

  private final PermissionChecker pc;
  private final String path;
  private final String from;
  private final String to;
  private final boolean listing;
  private ResolvedPath resolved;
  private int rootIndex = -1;
  private List<SnapshotRow> snapshots = List.of();
  private final Map<Long, InodeRow> entryAt = new HashMap<>();

  /** The snapshottable directory's own kept attributes and its live ones, when it is the scope. */
  private List<XAttrVersionRow> ownRows = List.of();

  private List<XAttrRow> liveAttributes = List.of();

  /**
   * The scope of {@code getSnapshotDiffReport} or, with {@code listing}, of {@code
   * getSnapshotDiffReportListing} (which HDFS does not answer early when both ends are the current
   * tree).
   */
  public SnapshotDiffScope(
      PermissionChecker pc, String path, String from, String to, boolean listing) {
    this.pc = pc;
    this.path = path;
    this.from = from;
    this.to = to;
    this.listing = listing;
  }

  @Override
  public String name() {
    return listing ? "getSnapshotDiffReportListing" : "getSnapshotDiffReport";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
    InodeRow target = resolved.target();
    if (target == null) {
      return;
    }
    int last = resolved.inodes().size() - 1;
    int dir = target.isDir() ? last : last - 1;
    for (int i = dir; i >= 0; i--) {
      InodeRow r = resolved.inodes().get(i);
      if (r.snapshottable() || (i == dir && r.id() == Inodes.ROOT_ID)) {
        rootIndex = i;
        break;
      }
    }
    if (rootIndex < 0) {
      return;
    }
    snapshots =
        tx.findByPartition(
            SnapshotRow.TABLE, resolved.inodes().get(rootIndex).id(), LockMode.READ_COMMITTED);
    List<InodeRow> checked = new ArrayList<>(List.of(target));
    for (SnapshotRow s : named()) {
      InodeRow row =
          rootIndex == last
              ? SnapshotView.rootOf(target, s)
              : SnapshotView.child(tx, resolved.parent().id(), resolved.name(), s.snapshotId());
      if (row != null) {
        entryAt.put(s.snapshotId(), row);
        checked.add(row);
      }
    }
    tx.loadAcls(checked);
    if (rootIndex == last && target.snapshottable()) {
      ownRows = SnapshotView.ownRows(tx, target.id());
      if (InodeFlags.hasAttributeRows(target.permission())) {
        liveAttributes = tx.findByPartition(XAttrRow.TABLE, target.id(), LockMode.READ_COMMITTED);
      }
    }
  }

  /**
   * Whether the snapshottable directory's own xattrs or ACL make it modified between the ends: as
   * HDFS's DirectoryWithSnapshotFeature compares the snapshot root of the earlier end (its diff's
   * copy) with the copies of every later snapshot and the current directory, they differ from those
   * at the earlier end at a later snapshot or now.
   */
  private boolean ownAttributesChanged(long earlier, InodeRow atEarlier, long dirId) {
    if (ownRows.isEmpty() && liveAttributes.isEmpty()) {
      return false;
    }
    List<XAttrRow> e = attributesAt(earlier, atEarlier, dirId);
    if (!SnapshotAttributes.same(e, liveAttributes)) {
      return true;
    }
    for (XAttrVersionRow r : ownRows) {
      if (r.snapshotId() > earlier
          && !SnapshotAttributes.same(e, SnapshotAttributes.kept(ownRows, r.snapshotId(), dirId))) {
        return true;
      }
    }
    return false;
  }

  private List<XAttrRow> attributesAt(long sid, InodeRow root, long dirId) {
    if (root == null || !InodeFlags.hasAttributeRows(root.permission())) {
      return List.of();
    }
    List<XAttrRow> kept = SnapshotAttributes.own(ownRows, sid, dirId);
    return kept != null ? kept : liveAttributes;
  }

  /** The snapshots {@code from} and {@code to} name that exist. */
  private List<SnapshotRow> named() {
    List<SnapshotRow> out = new ArrayList<>();
    for (String name : new String[] {from, to}) {
      SnapshotRow s = isSet(name) ? SnapshotRoots.byName(snapshots, name) : null;
      if (s != null) {
        out.add(s);
      }
    }
    return out;
  }

  @Override
  protected Scope execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    checkRead(from);
    checkRead(to);
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("Directory does not exist: " + path);
    }
    if (rootIndex < 0) {
      throw new SnapshotException(
          "The path " + resolved.path() + " is neither snapshottable nor under a snapshot root!");
    }
    if (!target.isDir()) {
      throw new PathIsNotDirectoryException(path);
    }
    String rootPath = PathNames.prefix(resolved.components(), rootIndex);
    if (!listing && !isSet(from) && !isSet(to)) {
      return emptyScope();
    }
    SnapshotRow f = snapshot(rootPath, from);
    SnapshotRow t = snapshot(rootPath, to);
    if (listing
        ? String.valueOf(from).equals(String.valueOf(to))
        : from != null && from.equals(to)) {
      return emptyScope();
    }
    long fromId = f == null ? CURRENT : f.snapshotId();
    long toId = t == null ? CURRENT : t.snapshotId();
    boolean fromEarlier = fromId < toId;
    long earlier = Math.min(fromId, toId);
    long later = Math.max(fromId, toId);
    return new Scope(
        rootPath,
        resolved.path(),
        f == null ? "" : f.name(),
        t == null ? "" : t.name(),
        false,
        target.id(),
        earlier,
        later,
        fromEarlier,
        rowAt(earlier),
        rowAt(later),
        rootIndex == resolved.inodes().size() - 1,
        later == CURRENT ? null : resolved.target(),
        ownAttributesChanged(earlier, rowAt(earlier), target.id()),
        resolved.inodes().get(rootIndex).id(),
        belowHold());
  }

  /** Whether a directory below the snapshottable one, down to the target, is held by a move. */
  private boolean belowHold() {
    for (int i = rootIndex + 1; i < resolved.inodes().size(); i++) {
      if (SnapshotDiff.held(resolved.inodes().get(i))) {
        return true;
      }
    }
    return false;
  }

  private Scope emptyScope() {
    return new Scope(
        null, path, from, to, true, 0, 0, 0, false, null, null, false, null, false, 0, false);
  }

  /** The directory's row at a snapshot (its entry then, or for the snapshottable one its root). */
  private InodeRow rowAt(long sid) {
    return sid == CURRENT ? resolved.target() : entryAt.get(sid);
  }

  /** DirectorySnapshottableFeature.getSnapshotByName: null for the current tree. */
  private SnapshotRow snapshot(String rootPath, String name) throws SnapshotException {
    if (!isSet(name)) {
      return null;
    }
    SnapshotRow s = SnapshotRoots.byName(snapshots, name);
    if (s == null) {
      throw new SnapshotException(
          "Cannot find the snapshot of directory " + rootPath + " with name " + name);
    }
    return s;
  }

  /**
   * HDFS's checkSubtreeReadPermission: it resolves {@code path/.snapshot/name} (also for an empty
   * name), so the directory is traversed (EXECUTE; a file there is "not a directory"), then READ on
   * the snapshot's root when {@code .snapshot} enters one; for a null name, READ on the directory.
   * Nothing is checked when the path does not exist.
   */
  private void checkRead(String name) throws IOException {
    InodeRow target = resolved.target();
    if (target == null) {
      return;
    }
    if (name == null) {
      pc.check(target, resolved.path(), FsAction.READ);
      return;
    }
    if (!target.isDir()) {
      throw new AccessControlException(resolved.path() + " (is not a directory)");
    }
    pc.check(target, resolved.path(), FsAction.EXECUTE);
    // .snapshot enters only a snapshottable directory (INodesInPath.resolve).
    boolean enters = rootIndex == resolved.inodes().size() - 1;
    SnapshotRow s = enters && isSet(name) ? SnapshotRoots.byName(snapshots, name) : null;
    InodeRow row = s == null ? null : entryAt.get(s.snapshotId());
    if (row != null) {
      pc.check(row, SnapshotRoots.snapshotPath(resolved.path(), name), FsAction.READ);
    }
  }

  private static boolean isSet(String name) {
    return name != null && !name.isEmpty();
  }
}
