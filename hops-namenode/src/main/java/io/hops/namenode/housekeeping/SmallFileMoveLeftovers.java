package io.hops.namenode.housekeeping;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.smallfiles.MoveRecords;
import java.io.IOException;
import java.util.List;
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

  private final Namesystem ns;
  private final long age;

  SmallFileMoveLeftovers(Namesystem ns) {
    this.ns = ns;
    this.age =
        ns.conf()
            .getLong(
                HopsConfig.SMALL_FILE_MOVE_LEFTOVER_AGE_MS,
                HopsConfig.SMALL_FILE_MOVE_LEFTOVER_AGE_MS_DEFAULT);
  }

  @Override
  public String name() {
    return "small-file move leftovers";
  }

  @Override
  public void runOnce() throws IOException {
    long before = ns.blocks().now() - age;
    List<VariableRow> old;
    try (Transaction tx = ns.storage().begin()) {
      old =
          tx.scanAll(VariableRow.TABLE, LockMode.READ_COMMITTED).stream()
              .filter(r -> r.name().startsWith(MoveRecords.ROW_PREFIX))
              .filter(r -> r.longValue() <= before)
              .toList();
    }
    for (VariableRow record : old) {
      String hidden = ns.run(() -> new MoveRecords.HiddenPath(record));
      if (hidden != null) {
        var superuser = ns.superuserChecker();
        boolean deleted =
            ns.runAsLeader(() -> new Delete(ns.limits(), ns.snapshots(), superuser, hidden, false));
        LOG.info(
            "{} {}: left by a move of a database file to datanodes that did not finish",
            deleted ? "deleted" : "found no",
            hidden);
      }
      ns.runAsLeader(() -> new MoveRecords.End(record.name()));
    }
  }
}
