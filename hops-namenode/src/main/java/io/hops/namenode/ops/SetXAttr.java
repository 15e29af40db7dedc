package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.XAttrHelper;

/**
 * {@code setXAttr}: the target locked exclusively and its attribute rows read under that lock (B +
 * PK(EXCLUSIVE) + PPIS if it has any + W). HDFS's order of checks (FSDirXAttrOp.setXAttr): the
 * switch, the size, the namespace, traversal, the change access (write, or ownership in a sticky
 * directory, for user attributes), then CREATE/REPLACE and the count limit.
 */
public final class SetXAttr extends Operation<Void> {
  private final XAttrSettings settings;
  private final PermissionChecker pc;
  private final String path;
  private final XAttr xAttr;
  private final EnumSet<XAttrSetFlag> flag;
  private ResolvedPath resolved;
  private List<XAttrRow> existing;

  public SetXAttr(
      XAttrSettings settings,
      PermissionChecker pc,
      String path,
      XAttr xAttr,
      EnumSet<XAttrSetFlag> flag) {
    this.settings = settings;
    this.pc = pc;
    this.path = path;
    this.xAttr = xAttr;
    this.flag = flag;
  }

  @Override
  public String name() {
    return "setXAttr";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    settings.checkXAttrsEnabled();
    settings.checkSize(xAttr);
    XAttrs.checkNameLength(xAttr);
    XAttrs.checkNamespace(pc, xAttr);
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    existing = XAttrs.read(tx, resolved.target());
    tx.coverOwnAttributes(resolved.target());
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    checkChangeAccess(pc, resolved, xAttr, normalized);
    InodeRow target = XAttrs.existing(resolved.target(), normalized);
    if (target.isDir()
        && XAttrs.UNREADABLE_BY_SUPERUSER.equals(XAttrHelper.getPrefixedName(xAttr))) {
      throw new IOException("Can only set '" + XAttrs.UNREADABLE_BY_SUPERUSER + "' on a file.");
    }
    boolean exists = existing.stream().anyMatch(r -> XAttrs.same(r, xAttr));
    XAttrSetFlag.validate(xAttr.getName(), exists, flag);
    int visible = XAttrs.userVisible(xAttr.getNameSpace()) ? 1 : 0;
    for (XAttrRow r : existing) {
      if (!XAttrs.same(r, xAttr) && XAttrs.userVisible(XAttr.NameSpace.values()[r.namespace()])) {
        visible++;
      }
    }
    int limit = settings.maxPerInode();
    if (visible > limit) {
      throw new IOException("Cannot add additional XAttr to inode, would exceed limit of " + limit);
    }
    tx.recordModification(target); // a snapshot keeps the attributes as they were
    XAttrRow row = XAttrs.toRow(target.id(), xAttr, existing);
    if (exists) {
      tx.update(XAttrRow.TABLE, row);
    } else {
      tx.insert(XAttrRow.TABLE, row);
    }
    if (!InodeFlags.hasXAttrs(target.permission())) {
      MutableInode inode = MutableInode.of(target);
      inode.permission = InodeFlags.set(inode.permission, InodeFlags.XATTRS, true);
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    return null;
  }

  /**
   * Changing a user attribute needs write access, or in a sticky directory ownership (or the
   * superuser); other namespaces were settled by {@link XAttrs#checkNamespace}.
   */
  static void checkChangeAccess(
      PermissionChecker pc, ResolvedPath resolved, XAttr xAttr, String normalized)
      throws IOException {
    if (!pc.enabled() || xAttr.getNameSpace() != XAttr.NameSpace.USER) {
      return;
    }
    InodeRow inode = resolved.target();
    if (inode != null && inode.isDir() && new FsPermission(inode.permission()).getStickyBit()) {
      if (!pc.isSuperuser()) {
        pc.checkOwner(inode, normalized);
      }
    } else if (inode != null) {
      pc.check(inode, normalized, FsAction.WRITE);
    }
  }
}
