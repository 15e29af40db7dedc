package io.hops.namenode.rpc;

import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * The {@code ClientProtocol} calls on snapshots, the layer of {@link ClientRpc} over {@link
 * FeaturesOff}: served by {@link ClientSnapshots} when snapshots are enabled, answered as HDFS
 * answers with them off ({@link SnapshotsOff}) when they are not.
 */
public abstract class ClientSnapshotRpc extends FeaturesOff {
  private final ClientSnapshots snapshots;

  protected ClientSnapshotRpc(
      ClientSnapshots snapshots,
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockTokens blockTokens,
      Configuration conf) {
    super(runner, checkers, blockTokens, conf);
    this.snapshots = snapshots;
  }

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    if (snapshots.enabled()) {
      snapshots.allowSnapshot(snapshotRoot);
    } else {
      super.allowSnapshot(snapshotRoot);
    }
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    if (snapshots.enabled()) {
      snapshots.disallowSnapshot(snapshotRoot);
    } else {
      super.disallowSnapshot(snapshotRoot);
    }
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    return snapshots.enabled()
        ? snapshots.createSnapshot(snapshotRoot, snapshotName)
        : super.createSnapshot(snapshotRoot, snapshotName);
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    if (snapshots.enabled()) {
      snapshots.deleteSnapshot(snapshotRoot, snapshotName);
    } else {
      super.deleteSnapshot(snapshotRoot, snapshotName);
    }
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String oldName, String newName)
      throws IOException {
    if (snapshots.enabled()) {
      snapshots.renameSnapshot(snapshotRoot, oldName, newName);
    } else {
      super.renameSnapshot(snapshotRoot, oldName, newName);
    }
  }

  @Override
  public SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    return snapshots.enabled()
        ? snapshots.getSnapshottableDirListing()
        : super.getSnapshottableDirListing();
  }

  @Override
  public SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    return snapshots.enabled()
        ? snapshots.getSnapshotListing(snapshotRoot)
        : super.getSnapshotListing(snapshotRoot);
  }

  @Override
  public SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String from, String to)
      throws IOException {
    return snapshots.enabled()
        ? snapshots.getSnapshotDiffReport(snapshotRoot, from, to)
        : super.getSnapshotDiffReport(snapshotRoot, from, to);
  }

  @Override
  public SnapshotDiffReportListing getSnapshotDiffReportListing(
      String snapshotRoot, String from, String to, byte[] startPath, int index) throws IOException {
    return snapshots.enabled()
        ? snapshots.getSnapshotDiffReportListing(snapshotRoot, from, to, startPath, index)
        : super.getSnapshotDiffReportListing(snapshotRoot, from, to, startPath, index);
  }
}
