package io.hops.namenode.housekeeping;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.smallfiles.MoveRecords;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Deletes the hidden {@code .hops-move-*} files that a namenode which died while moving a database
 * file to datanodes left behind, found from the records of moves ({@link MoveRecords}) older than
 * {@code hops.smallfiles.move.leftover-age.ms}; the database file itself was never touched. The
 * records are few (one per move in progress), so one scan of {@code variables} finds them.
 */
final class SmallFileMoveLeftovers implements HousekeepingTask {
  private static final Logger LOG = LoggerFactory.getLogger(SmallFileMoveLeftovers.class);

  private final Storage storage;
  private final TransactionRunner runner;
  private final LeaderRunner leader;
  private final ClusterClock clock;
  private final PermissionCheckers checkers;
  private final Limits limits;
  private final SnapshotSettings snapshots;
  private final long age;

  SmallFileMoveLeftovers(
      Storage storage,
      TransactionRunner runner,
      LeaderRunner leader,
      ClusterClock clock,
      PermissionCheckers checkers,
      Limits limits,
      SnapshotSettings snapshots,
      Configuration conf) {
    this.storage = storage;
    this.runner = runner;
    this.leader = leader;
    this.clock = clock;
    this.checkers = checkers;
    this.limits = limits;
    this.snapshots = snapshots;
    this.age =
        conf.getLong(
            HopsConfig.SMALL_FILE_MOVE_LEFTOVER_AGE_MS,
            HopsConfig.SMALL_FILE_MOVE_LEFTOVER_AGE_MS_DEFAULT);
  }

  @Override
  public String name() {
    return "small-file move leftovers";
  }

  @Override
  public void runOnce() throws IOException {
    long before = clock.now() - age;
    List<VariableRow> old;
    try (Transaction tx = storage.begin()) {
      old =
          tx.scanAll(VariableRow.TABLE, LockMode.READ_COMMITTED).stream()
              .filter(r -> r.name().startsWith(MoveRecords.ROW_PREFIX))
              .filter(r -> r.longValue() <= before)
              .toList();
    }
    for (VariableRow record : old) {
      String hidden = runner.run(() -> new MoveRecords.HiddenPath(record));
      if (hidden != null) {
        var superuser = checkers.ofSuperuser();
        boolean deleted = leader.run(() -> new Delete(limits, snapshots, superuser, hidden, false));
        LOG.info(
            "{} {}: left by a move of a database file to datanodes that did not finish",
            deleted ? "deleted" : "found no",
            hidden);
      }
      leader.run(() -> new MoveRecords.End(record.name()));
    }
  }
}
