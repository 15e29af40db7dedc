package io.hops.namenode.resolve;

import io.hops.dal.rows.InodeRow;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException;

/**
 * HDFS's {@code .snapshot} paths (INodesInPath.resolve): {@code .snapshot} right below a
 * snapshottable directory (HDFS's root always is one) enters its snapshots, so {@code /d/.snapshot}
 * lists them and {@code /d/.snapshot/s1/rest} is {@code /d/rest} as it was at snapshot {@code s1}.
 * Resolution stops at the directory (no inode is named {@code .snapshot}: HDFS reserves the name),
 * and these methods tell such a path from a missing one.
 */
public final class SnapshotPaths {
  private SnapshotPaths() {}

  /**
   * The position in {@code p.inodes()} of the snapshottable directory whose {@code .snapshot} the
   * path enters, or -1 when it enters none.
   */
  public static int entered(ResolvedPath p) {
    int k = p.inodes().size() - 1;
    String[] c = p.components();
    if (k >= c.length || !c[k].equals(HdfsConstants.DOT_SNAPSHOT_DIR)) {
      return -1;
    }
    InodeRow dir = p.inodes().get(k);
    return dir.isDir() && (dir.snapshottable() || dir.id() == Inodes.ROOT_ID) ? k : -1;
  }

  /** HDFS's refusal of every write to a snapshot (FSDirectory.checkTraverse with a write op). */
  public static void refuseWrite(ResolvedPath p) throws SnapshotAccessControlException {
    if (entered(p) >= 0) {
      throw new SnapshotAccessControlException(
          "Modification on a read-only snapshot is disallowed");
    }
  }
}
