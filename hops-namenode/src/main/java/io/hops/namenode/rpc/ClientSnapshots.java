package io.hops.namenode.rpc;

import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.snapshot.AllowSnapshot;
import io.hops.namenode.ops.snapshot.CreateSnapshot;
import io.hops.namenode.ops.snapshot.DeleteSnapshot;
import io.hops.namenode.ops.snapshot.DisallowSnapshot;
import io.hops.namenode.ops.snapshot.GetSnapshotListing;
import io.hops.namenode.ops.snapshot.GetSnapshottableDirListing;
import io.hops.namenode.ops.snapshot.RenameSnapshot;
import io.hops.namenode.ops.snapshot.SnapshotDiff;
import io.hops.namenode.ops.snapshot.SnapshotDiffScope;
import io.hops.namenode.ops.snapshot.SnapshotDiffWalks;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.ops.snapshot.VersionReclaimer;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.TransactionRunner;
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
public final class ClientSnapshots {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final Limits limits;
  private final SnapshotSettings snapshots;
  private final UsersAndGroups users;
  private final VersionReclaimer reclaimer;

  /** The walks of the listing's pages, kept from one page to the next. */
  private final SnapshotDiffWalks diffWalks;

  public ClientSnapshots(
      TransactionRunner runner,
      PermissionCheckers checkers,
      Limits limits,
      SnapshotSettings snapshots,
      UsersAndGroups users,
      VersionReclaimer reclaimer) {
    this.runner = runner;
    this.checkers = checkers;
    this.limits = limits;
    this.snapshots = snapshots;
    this.users = users;
    this.reclaimer = reclaimer;
    this.diffWalks = new SnapshotDiffWalks(snapshots.diffCursorEntries());
  }

  boolean enabled() {
    return snapshots.enabled();
  }

  void allowSnapshot(String snapshotRoot) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "allowSnapshot");
    var pc = checkers.ofCaller();
    runner.run(() -> new AllowSnapshot(pc, snapshotRoot));
  }

  void disallowSnapshot(String snapshotRoot) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, "disallowSnapshot");
    var pc = checkers.ofCaller();
    runner.run(() -> new DisallowSnapshot(pc, snapshotRoot));
  }

  String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    var pc = checkers.ofCaller();
    var attempt = new AtomicReference<CreateSnapshot>();
    String created =
        runner.runAtMostOnce(
            () -> {
              attempt.set(new CreateSnapshot(limits, snapshots, pc, snapshotRoot, snapshotName));
              return attempt.get();
            },
            ClientCalls.keptWith("createSnapshot"));
    // The versions written at a deleted latest snapshot's id: judged after the answer.
    if (attempt.get() != null) {
      attempt.get().reclaimAfter(reclaimer);
    }
    return created;
  }

  void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    var pc = checkers.ofCaller();
    var attempt = new AtomicReference<DeleteSnapshot>();
    runner.runAtMostOnce(
        () -> {
          attempt.set(new DeleteSnapshot(pc, snapshotRoot, snapshotName));
          return attempt.get();
        },
        ClientCalls.keptWith("deleteSnapshot"));
    // Holds due and kept files beyond the first batch: released in more transactions before the
    // answer; the versions no snapshot reads: reclaimed after it.
    if (attempt.get() != null) {
      attempt.get().releaseRest(runner, reclaimer);
    }
  }

  void renameSnapshot(String snapshotRoot, String oldName, String newName) throws IOException {
    var pc = checkers.ofCaller();
    runner.runAtMostOnce(
        () -> new RenameSnapshot(limits, pc, snapshotRoot, oldName, newName),
        ClientCalls.keptWith("renameSnapshot"));
  }

  SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetSnapshottableDirListing(users, pc));
  }

  SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetSnapshotListing(users, pc, snapshotRoot));
  }

  /**
   * The checks in one transaction, then the walk, a directory per transaction, then where the
   * modified inodes are now (docs/architecture.md, "Snapshots").
   */
  SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String from, String to)
      throws IOException {
    var pc = checkers.ofCaller();
    var scope = runner.run(() -> new SnapshotDiffScope(pc, snapshotRoot, from, to, false));
    return SnapshotDiff.report(runner, scope);
  }

  SnapshotDiffReportListing getSnapshotDiffReportListing(
      String snapshotRoot, String from, String to, byte[] startPath, int index) throws IOException {
    var pc = checkers.ofCaller();
    var scope = runner.run(() -> new SnapshotDiffScope(pc, snapshotRoot, from, to, true));
    return diffWalks.page(runner, scope, startPath, index, snapshots.diffListingLimit());
  }
}
