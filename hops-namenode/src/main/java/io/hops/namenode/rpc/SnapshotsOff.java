package io.hops.namenode.rpc;

import io.hops.namenode.ops.CheckPath;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * Snapshots while they are off: no directory is snapshottable, and none can be made so ({@link
 * FeaturesOff}; {@link ClientSnapshots} serves them when they are on).
 */
final class SnapshotsOff extends AbsentFeature {

  SnapshotsOff(TransactionRunner runner, PermissionCheckers checkers) {
    super(runner, checkers);
  }

  private static SnapshotException notSnapshottable(String path) {
    return new SnapshotException(
        "Directory is not a snapshottable directory: " + path + " (hops has no snapshots)");
  }

  SnapshottableDirectoryStatus[] getSnapshottableDirListing() {
    return null;
  }

  void allowSnapshot(String snapshotRoot) throws IOException {
    superuser("allowSnapshot");
    checkPath(
        "allowSnapshot",
        snapshotRoot,
        FsAction.NONE,
        p -> {
          CheckPath.directory(p);
          throw new SnapshotException(
              "hops has no snapshots: " + snapshotRoot + " cannot be made snapshottable");
        });
  }

  void disallowSnapshot(String snapshotRoot) throws IOException {
    superuser("disallowSnapshot");
    checkPath("disallowSnapshot", snapshotRoot, FsAction.NONE, CheckPath::directory);
  }

  /** createSnapshot, deleteSnapshot, renameSnapshot: the owner's calls on a directory. */
  <T> T notSnapshottableDirectory(String name, String snapshotRoot) throws IOException {
    return checkOwner(
        name,
        snapshotRoot,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    return checkPath(
        "getSnapshotListing",
        snapshotRoot,
        FsAction.READ,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  private <T> T noSnapshotRoot(String name, String path) throws IOException {
    return checkPath(
        name,
        path,
        FsAction.NONE,
        p -> {
          throw new SnapshotException(
              "The path "
                  + path
                  + " is neither snapshottable nor under a snapshot root! (hops has no snapshots)");
        });
  }

  SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot) throws IOException {
    return noSnapshotRoot("getSnapshotDiffReport", snapshotRoot);
  }

  SnapshotDiffReportListing getSnapshotDiffReportListing(String snapshotRoot) throws IOException {
    return noSnapshotRoot("getSnapshotDiffReportListing", snapshotRoot);
  }
}
