package io.hops.namenode.ops.snapshot;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.CheckPath;
import io.hops.namenode.ops.Checks;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.text.SimpleDateFormat;
import java.util.Comparator;
import java.util.Date;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * The checks the snapshot calls share, with HDFS's exception classes and messages (FSDirSnapshotOp,
 * SnapshotManager, DirectorySnapshottableFeature): the caller's ownership of the directory, the
 * snapshot name, and the directory being snapshottable.
 */
final class SnapshotRoots {
  private SnapshotRoots() {}

  /** Snapshots in HDFS's order: by name, as signed bytes (INode.compareTo). */
  static final Comparator<SnapshotRow> BY_NAME =
      (a, b) -> compareSigned(bytes(a.name()), bytes(b.name()));

  /**
   * Traversal, then ownership of the target (FSDirectory.checkOwner): a missing target is refused
   * as HDFS's permission checker refuses it, before anything else is said about it.
   */
  static void checkOwner(PermissionChecker pc, ResolvedPath p, String path) throws IOException {
    Checks.traverseNotCreating(pc, p);
    InodeRow target = p.target();
    if (target == null) {
      throw new FileNotFoundException("Directory/File does not exist " + path);
    }
    pc.checkOwner(target, path);
  }

  /**
   * The snapshottable directory {@code p} names (SnapshotManager.getSnapshottableRoot). HDFS's root
   * is always snapshottable, with a snapshot quota of 0 until it is allowed.
   */
  static InodeRow snapshottable(ResolvedPath p) throws IOException {
    InodeRow dir = CheckPath.directory(p);
    if (!dir.snapshottable() && dir.id() != Inodes.ROOT_ID) {
      throw new SnapshotException("Directory is not a snapshottable directory: " + p.path());
    }
    return dir;
  }

  /** The snapshot quota of a snapshottable directory (DirectorySnapshottableFeature). */
  static int quota(InodeRow dir) {
    return dir.snapshottable() ? SnapshotSettings.QUOTA : 0;
  }

  /** FSDirSnapshotOp.verifySnapshotName: no '/', not ".snapshot", within the component length. */
  static void checkName(Limits limits, String name, String path) throws IOException {
    if (name.contains(Path.SEPARATOR)) {
      throw new HadoopIllegalArgumentException(
          "Snapshot name cannot contain \"" + Path.SEPARATOR + "\"");
    }
    if (name.equals(HdfsConstants.DOT_SNAPSHOT_DIR)) {
      throw new HadoopIllegalArgumentException(
          "\"" + HdfsConstants.DOT_SNAPSHOT_DIR + "\" is a reserved name.");
    }
    Checks.componentLength(limits, name, path);
  }

  /** Snapshot.generateDefaultSnapshotName: "s" and the local time to the millisecond. */
  static String defaultName() {
    return new SimpleDateFormat("'s'yyyyMMdd-HHmmss.SSS").format(new Date());
  }

  /** Snapshot.getSnapshotPath: {@code /dir/.snapshot/name}. */
  static String snapshotPath(String dir, String name) {
    StringBuilder b = new StringBuilder(dir);
    if (b.charAt(b.length() - 1) != Path.SEPARATOR_CHAR) {
      b.append(Path.SEPARATOR);
    }
    return b.append(HdfsConstants.DOT_SNAPSHOT_DIR).append(Path.SEPARATOR).append(name).toString();
  }

  static SnapshotRow byName(List<SnapshotRow> snapshots, String name) {
    for (SnapshotRow s : snapshots) {
      if (s.name().equals(name)) {
        return s;
      }
    }
    return null;
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  /** INode.compareTo's order of names: their bytes, signed. */
  static int compareSigned(byte[] a, byte[] b) {
    int n = Math.min(a.length, b.length);
    for (int i = 0; i < n; i++) {
      if (a[i] != b[i]) {
        return a[i] - b[i];
      }
    }
    return a.length - b.length;
  }
}
