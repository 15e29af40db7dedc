package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.LockPhase;
import java.io.FileNotFoundException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS's rules for extended attributes (FSDirXAttrOp, XAttrPermissionFilter; the switch and the
 * limits are {@link XAttrSettings}): which namespaces a caller may name and see, and how rows of
 * {@code xattrs} map to Hadoop's {@link XAttr}. A {@code /.reserved/raw} path reaches an operation
 * as the ordinary path ({@link io.hops.namenode.rpc.VirtualPaths}), so {@code raw.} attributes are
 * never visible, as on an HDFS path outside {@code /.reserved/raw} (HDFS shows them to the
 * superuser through it).
 */
final class XAttrs {
  private static final XAttr.NameSpace[] NAMESPACES = XAttr.NameSpace.values();
  static final String UNREADABLE_BY_SUPERUSER =
      HdfsServerConstants.SECURITY_XATTR_UNREADABLE_BY_SUPERUSER;

  private XAttrs() {}

  /**
   * Names longer than the {@code name} column of {@code xattrs} (part of its primary key) are
   * refused; HDFS bounds only name and value together (checked first, as there).
   */
  static void checkNameLength(XAttr xAttr) {
    int max = XAttrRow.TABLE.column("name").maxBytes();
    int length = xAttr.getName().getBytes(StandardCharsets.UTF_8).length;
    if (length > max) {
      throw new HadoopIllegalArgumentException(
          "The XAttr name is too long. hops stores names of at most "
              + max
              + " bytes, but the name has "
              + length);
    }
  }

  static boolean userVisible(XAttr.NameSpace ns) {
    return ns == XAttr.NameSpace.USER || ns == XAttr.NameSpace.TRUSTED;
  }

  /**
   * Whether the caller may name this attribute in a call: user always, trusted as the superuser,
   * the unreadable-by-superuser marker without a value; the rest never (system, security, raw).
   */
  static void checkNamespace(PermissionChecker pc, XAttr xAttr) throws AccessControlException {
    XAttr.NameSpace ns = xAttr.getNameSpace();
    if (ns == XAttr.NameSpace.USER || (ns == XAttr.NameSpace.TRUSTED && pc.isSuperuser())) {
      return;
    }
    String prefixed = XAttrHelper.getPrefixedName(xAttr);
    if (prefixed.equals(UNREADABLE_BY_SUPERUSER)) {
      if (xAttr.getValue() != null) {
        throw new AccessControlException(
            "Attempt to set a value for '"
                + UNREADABLE_BY_SUPERUSER
                + "'. Values are not allowed for this xattr.");
      }
      return;
    }
    throw new AccessControlException("User doesn't have permission for xattr: " + prefixed);
  }

  /** Whether the row is {@code security.hdfs.unreadable.by.superuser}. */
  static boolean isUnreadableMarker(XAttrRow row) {
    return row.namespace() == XAttr.NameSpace.SECURITY.ordinal()
        && ("security." + row.name()).equals(UNREADABLE_BY_SUPERUSER);
  }

  /** Whether a call by this caller shows the attribute. */
  static boolean visible(PermissionChecker pc, XAttrRow row) {
    if (row.namespace() == XAttr.NameSpace.USER.ordinal()) {
      return true;
    }
    if (row.namespace() == XAttr.NameSpace.TRUSTED.ordinal()) {
      return pc.isSuperuser();
    }
    return row.namespace() == XAttr.NameSpace.SECURITY.ordinal()
        && ("security." + row.name()).equals(UNREADABLE_BY_SUPERUSER);
  }

  /**
   * The inode's attribute rows (not its hidden ones), protected by the lock its caller holds on the
   * inode; no read for an inode whose flag says it has none. In HDFS's order (FSDirXAttrOp puts a
   * set attribute first and keeps the others' order; XAttrFeature keeps values over {@value
   * #PACKED_MAX} bytes after the rest): the latest set first, large values last.
   */
  static List<XAttrRow> read(LockPhase tx, InodeRow inode) throws StorageException {
    if (inode == null || !InodeFlags.hasXAttrs(inode.permission())) {
      return List.of();
    }
    return inHdfsOrder(tx.findByPartition(XAttrRow.TABLE, inode.id(), LockMode.READ_COMMITTED));
  }

  /**
   * The attribute rows of {@code rows} (not the hidden ones), in HDFS's order (see {@link #read}).
   */
  static List<XAttrRow> inHdfsOrder(List<XAttrRow> rows) {
    List<XAttrRow> out = new ArrayList<>();
    for (XAttrRow r : rows) {
      if (r.namespace() != XAttrRow.HIDDEN) {
        out.add(r);
      }
    }
    out.sort(HDFS_ORDER);
    return out;
  }

  /** XAttrFeature.PACK_THRESHOLD: larger values are kept apart, after the packed ones. */
  static final int PACKED_MAX = 1024;

  private static final Comparator<XAttrRow> HDFS_ORDER =
      Comparator.comparing((XAttrRow r) -> r.value() != null && r.value().length > PACKED_MAX)
          .thenComparing(Comparator.comparingLong(XAttrRow::seq).reversed());

  static boolean same(XAttrRow row, XAttr x) {
    return row.namespace() == x.getNameSpace().ordinal() && row.name().equals(x.getName());
  }

  static XAttr toXAttr(XAttrRow row, boolean withValue) {
    return new XAttr.Builder()
        .setNameSpace(NAMESPACES[row.namespace()])
        .setName(row.name())
        .setValue(withValue ? row.value() : null)
        .build();
  }

  /** The row of {@code x}, set after every attribute in {@code existing} (see {@link #read}). */
  static XAttrRow toRow(long inodeId, XAttr x, List<XAttrRow> existing) {
    long seq = existing.stream().mapToLong(XAttrRow::seq).max().orElse(0) + 1;
    return new XAttrRow(inodeId, (byte) x.getNameSpace().ordinal(), x.getName(), x.getValue(), seq);
  }

  /** HDFS's refusal when the target is missing (FSDirectory.resolveLastINode). */
  static InodeRow existing(InodeRow target, String path) throws FileNotFoundException {
    if (target == null) {
      throw new FileNotFoundException("cannot find " + path);
    }
    return target;
  }
}
