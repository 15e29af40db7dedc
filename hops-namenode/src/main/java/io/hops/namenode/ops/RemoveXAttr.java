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
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code removeXAttr}: as {@link SetXAttr} for locks and checks; an attribute that is not there is
 * HDFS's "No matching attributes found for remove operation". The inode's flag goes with its last
 * attribute.
 */
public final class RemoveXAttr extends Operation<Void> {
  private final XAttrSettings settings;
  private final PermissionChecker pc;
  private final String path;
  private final XAttr xAttr;
  private ResolvedPath resolved;
  private List<XAttrRow> existing;

  public RemoveXAttr(XAttrSettings settings, PermissionChecker pc, String path, XAttr xAttr) {
    this.settings = settings;
    this.pc = pc;
    this.path = path;
    this.xAttr = xAttr;
  }

  @Override
  public String name() {
    return "removeXAttr";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    settings.checkXAttrsEnabled();
    XAttrs.checkNamespace(pc, xAttr);
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    existing = XAttrs.read(tx, resolved.target());
    tx.coverOwnAttributes(resolved.target());
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    SetXAttr.checkChangeAccess(pc, resolved, xAttr, normalized);
    InodeRow target = XAttrs.existing(resolved.target(), normalized);
    if (XAttrHelper.getPrefixedName(xAttr).equals(XAttrs.UNREADABLE_BY_SUPERUSER)) {
      throw new AccessControlException(
          "The xattr '" + XAttrs.UNREADABLE_BY_SUPERUSER + "' can not be deleted.");
    }
    XAttrRow found = existing.stream().filter(r -> XAttrs.same(r, xAttr)).findFirst().orElse(null);
    if (found == null) {
      throw new IOException("No matching attributes found for remove operation");
    }
    tx.recordModification(target); // a snapshot keeps the attributes as they were
    tx.delete(XAttrRow.TABLE, found);
    if (existing.size() == 1) {
      MutableInode inode = MutableInode.of(target);
      inode.permission = InodeFlags.set(inode.permission, InodeFlags.XATTRS, false);
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    return null;
  }
}
