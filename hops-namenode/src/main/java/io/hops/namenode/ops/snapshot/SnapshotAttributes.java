package io.hops.namenode.ops.snapshot;

import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * The xattrs and ACL of an inode as a snapshot has them (docs/architecture.md, "Snapshots"): the
 * rows kept with its entry's version ({@code xattr_versions}, same key as the version), else its
 * live rows; and HDFS's comparison of two such states in a diff report.
 */
final class SnapshotAttributes {
  private SnapshotAttributes() {}

  /** The rows of {@code entryRows} (one entry's) kept with its version at {@code snapshotId}. */
  static List<XAttrRow> kept(List<XAttrVersionRow> entryRows, long snapshotId, long inodeId) {
    List<XAttrRow> out = new ArrayList<>();
    for (XAttrVersionRow r : entryRows) {
      if (r.snapshotId() == snapshotId) {
        out.add(r.toXAttr(inodeId));
      }
    }
    return out;
  }

  /**
   * The attributes a snapshottable directory had at snapshot {@code sid}, from its own rows ({@link
   * XAttrVersionRow#OWN}, {@code ownRows}): those kept at the earliest snapshot at {@code sid} or
   * later; null when none is, i.e. its live ones (for a snapshot at which it had any, which its
   * {@code snapshots} row's flags say).
   */
  static List<XAttrRow> own(List<XAttrVersionRow> ownRows, long sid, long dirId) {
    long best = Long.MAX_VALUE;
    for (XAttrVersionRow r : ownRows) {
      if (r.snapshotId() >= sid) {
        best = Math.min(best, r.snapshotId());
      }
    }
    return best == Long.MAX_VALUE ? null : kept(ownRows, best, dirId);
  }

  /**
   * HDFS's metadataEquals compares the features by reference: an XAttrFeature is replaced by every
   * set or remove, even of the same value (the rows' {@code seq} says so here), and AclFeatures are
   * shared by equal ACLs (AclStorage's unique features), so equal ACL entries compare equal.
   */
  static boolean same(List<XAttrRow> a, List<XAttrRow> b) {
    if (a.size() != b.size()) {
      return false;
    }
    List<XAttrRow> x = sorted(a);
    List<XAttrRow> y = sorted(b);
    for (int i = 0; i < x.size(); i++) {
      XAttrRow p = x.get(i);
      XAttrRow q = y.get(i);
      if (p.namespace() != q.namespace()
          || !p.name().equals(q.name())
          || !Arrays.equals(p.value(), q.value())
          || (p.namespace() != XAttrRow.HIDDEN && p.seq() != q.seq())) {
        return false;
      }
    }
    return true;
  }

  private static List<XAttrRow> sorted(List<XAttrRow> rows) {
    List<XAttrRow> out = new ArrayList<>(rows);
    out.sort(Comparator.comparingInt(XAttrRow::namespace).thenComparing(XAttrRow::name));
    return out;
  }
}
