package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.snapshot.AllowSnapshot;
import io.hops.namenode.ops.snapshot.CreateSnapshot;
import io.hops.namenode.ops.snapshot.DeleteSnapshot;
import io.hops.namenode.ops.snapshot.DisallowSnapshot;
import io.hops.namenode.ops.snapshot.GetSnapshotListing;
import io.hops.namenode.ops.snapshot.GetSnapshottableDirListing;
import io.hops.namenode.ops.snapshot.RenameSnapshot;
import io.hops.namenode.ops.snapshot.SnapshotDiff;
import io.hops.namenode.ops.snapshot.SnapshotDiffScope;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;

/**
 * The {@code ClientProtocol} calls on snapshots when they are enabled (docs/architecture.md,
 * "Snapshots"); {@link ClientRpc} answers with {@link FeaturesOff}'s when they are not.
 */
final class ClientSnapshots {
  private final Namesystem ns;

  ClientSnapshots(Namesystem ns) {
    this.ns = ns;
  }

  boolean enabled() {
    return ns.snapshots().enabled();
  }

  void allowSnapshot(String snapshotRoot) throws IOException {
    NamenodeRpc.checkSuperuser(ns.checkers(), "allowSnapshot");
    var pc = ns.checker();
    ns.run(() -> new AllowSnapshot(pc, snapshotRoot));
  }

  void disallowSnapshot(String snapshotRoot) throws IOException {
    NamenodeRpc.checkSuperuser(ns.checkers(), "disallowSnapshot");
    var pc = ns.checker();
    ns.run(() -> new DisallowSnapshot(pc, snapshotRoot));
  }

  String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    var pc = ns.checker();
    return ns.runAtMostOnce(
        ClientCalls.keptWith("createSnapshot"),
        () -> new CreateSnapshot(ns.limits(), ns.snapshots(), pc, snapshotRoot, snapshotName));
  }

  void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    var pc = ns.checker();
    var attempt = new AtomicReference<DeleteSnapshot>();
    ns.runAtMostOnce(
        ClientCalls.keptWith("deleteSnapshot"),
        () -> {
          attempt.set(new DeleteSnapshot(pc, snapshotRoot, snapshotName));
          return attempt.get();
        });
    // Holds due and kept files beyond the first batch: released in more transactions.
    if (attempt.get() != null) {
      attempt.get().releaseRest(ns.runner());
    }
  }

  void renameSnapshot(String snapshotRoot, String oldName, String newName) throws IOException {
    var pc = ns.checker();
    ns.runAtMostOnce(
        ClientCalls.keptWith("renameSnapshot"),
        () -> new RenameSnapshot(ns.limits(), pc, snapshotRoot, oldName, newName));
  }

  SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetSnapshottableDirListing(ns.users(), pc));
  }

  SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetSnapshotListing(ns.users(), pc, snapshotRoot));
  }

  /**
   * The checks in one transaction, then the walk, a directory per transaction, then where the
   * modified inodes are now (docs/architecture.md, "Snapshots").
   */
  SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String from, String to)
      throws IOException {
    var pc = ns.checker();
    var scope = ns.run(() -> new SnapshotDiffScope(pc, snapshotRoot, from, to, false));
    return SnapshotDiff.report(ns.runner(), scope);
  }

  SnapshotDiffReportListing getSnapshotDiffReportListing(
      String snapshotRoot, String from, String to, byte[] startPath, int index) throws IOException {
    var pc = ns.checker();
    var scope = ns.run(() -> new SnapshotDiffScope(pc, snapshotRoot, from, to, true));
    return SnapshotDiff.compute(ns.runner(), scope)
        .listing(startPath, index, ns.snapshots().diffListingLimit());
  }
}
