package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.XAttrNotFoundException;

/**
 * {@code getXAttrs} and {@code listXAttrs} (names only): read access on the target, then the
 * attributes the caller may see (B + PK(SHARED) + PPIS if it has any). Asking for named attributes
 * checks their namespaces first, and one not there (or not visible) is {@link
 * XAttrNotFoundException}, as in HDFS.
 */
public final class GetXAttrs extends Operation<List<XAttr>> {
  private final XAttrSettings settings;
  private final SnapshotSettings snapshots;
  private final PermissionChecker pc;
  private final String path;
  private final List<XAttr> wanted;
  private final boolean namesOnly;
  private ResolvedPath resolved;
  private List<XAttrRow> rows;

  /** The path into a snapshot, if it is one: its inode and attributes as they were. */
  private SnapshotView snapshot;

  /** {@code wanted} null or empty: all; {@code namesOnly}: listXAttrs. */
  public GetXAttrs(
      XAttrSettings settings,
      SnapshotSettings snapshots,
      PermissionChecker pc,
      String path,
      List<XAttr> wanted,
      boolean namesOnly) {
    this.settings = settings;
    this.snapshots = snapshots;
    this.pc = pc;
    this.path = path;
    this.wanted = wanted == null ? List.of() : wanted;
    this.namesOnly = namesOnly;
  }

  @Override
  public String name() {
    return namesOnly ? "listXAttrs" : "getXAttrs";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    settings.checkXAttrsEnabled();
    for (XAttr x : wanted) {
      XAttrs.checkNamespace(pc, x);
    }
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.SHARED);
    snapshot = SnapshotView.read(snapshots, tx, resolved, false);
    rows =
        snapshot != null
            ? XAttrs.inHdfsOrder(snapshot.attributes(tx))
            : XAttrs.read(tx, resolved.target());
  }

  @Override
  protected List<XAttr> execute(ExecutePhase tx) throws IOException {
    InodeRow target;
    if (snapshot != null) {
      target = snapshot.inodeToRead(pc);
    } else {
      Checks.traverseNotCreating(pc, resolved);
      target = resolved.target();
    }
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    if (target != null) {
      pc.check(target, normalized, FsAction.READ);
    }
    XAttrs.existing(target, normalized);
    List<XAttr> visible = new ArrayList<>();
    for (XAttrRow r : rows) {
      if (XAttrs.visible(pc, r)) {
        visible.add(XAttrs.toXAttr(r, !namesOnly));
      }
    }
    if (wanted.isEmpty()) {
      return visible;
    }
    List<XAttr> out = new ArrayList<>(wanted.size());
    for (XAttr w : wanted) {
      XAttr found = null;
      for (XAttr v : visible) {
        if (v.getNameSpace() == w.getNameSpace() && v.getName().equals(w.getName())) {
          found = v;
          break;
        }
      }
      if (found == null) {
        throw new XAttrNotFoundException();
      }
      out.add(found);
    }
    return out;
  }
}
