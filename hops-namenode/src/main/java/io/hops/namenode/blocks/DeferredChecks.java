package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.RackHistory.Walk;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * The replication checks a starting cluster defers (HDFS: no replication queues in startup safe
 * mode; {@code processFirstBlockReport} adds replicas without judging them, and leaving safe mode
 * judges every block once, {@code processMisReplicatedBlocks}). Kept in the {@code deferred_checks}
 * row of {@code variables} so that every namenode agrees (docs/architecture.md, "Block reports in a
 * starting cluster"):
 *
 * <ul>
 *   <li>{@link Stage#DEFERRING}: a leader that starts (the whole cluster does) writes it once it
 *       finds the safe-mode thresholds unmet (a report applied before that queues its checks). A
 *       full report's new replica of a complete block, on a storage that recorded none, then queues
 *       no replication check: its transaction reads the row with a shared lock ({@link
 *       #deferring}), held to its commit.
 *   <li>{@link Stage#WALKING}: once out of safe mode, the leader's walk takes the row exclusively,
 *       so it waits for every transaction that deferred a check and none defers after it; it then
 *       judges every block from its replica rows and queues those that need a check; the row holds
 *       where it is ({@link Walk}), so a new leader resumes there. At the end it deletes the row.
 * </ul>
 *
 * <p>No row: nothing is deferred, every report queues its checks.
 */
public final class DeferredChecks {
  static final String ROW = "deferred_checks";

  /** The row's {@code long_value}. */
  public enum Stage {
    DEFERRING,
    WALKING
  }

  private DeferredChecks() {}

  /** The row's key. */
  public static Key key() {
    return VariableRow.TABLE.key(ROW);
  }

  /**
   * Whether a report's transaction may leave its new replicas unchecked: the row, read with a
   * shared lock (in the lock phase, after the report's other rows: variables come last in the lock
   * order), says so.
   */
  static boolean deferring(LockPhase tx) throws StorageException {
    VariableRow row = tx.find(VariableRow.TABLE, key(), LockMode.SHARED);
    return row != null && row.longValue() == Stage.DEFERRING.ordinal();
  }

  /** The walk the row holds: null if none is running (no row, or checks are deferred still). */
  public static Walk walkOf(VariableRow row) {
    return row == null || row.longValue() != Stage.WALKING.ordinal()
        ? null
        : Walk.decode(row.bytesValue());
  }

  /** The starting leader's write: checks are deferred until its walk (fenced, as the leader's). */
  public static Operation<Void> startDeferring() {
    return new Write(null, true);
  }

  /**
   * The leader's walk stores where it is ({@code walk}; null: the walk ended and the row goes) if
   * the row is still its own: a walk may resume only a walk, and a starting leader's deferral is
   * never undone by a former walk.
   */
  public static Operation<Void> saveWalk(Walk walk) {
    return new Write(walk, false);
  }

  /**
   * Begins the walk: the row, locked exclusively, says walking from the start (answers whether it
   * was deferring, so that the walk starts).
   */
  public static Operation<Boolean> beginWalk() {
    return new Operation<>() {
      private VariableRow old;

      @Override
      public String name() {
        return "beginDeferredChecks";
      }

      @Override
      protected void lock(LockPhase tx) throws IOException {
        old = tx.find(VariableRow.TABLE, key(), LockMode.EXCLUSIVE);
      }

      @Override
      protected Boolean execute(ExecutePhase tx) throws IOException {
        if (old == null || old.longValue() != Stage.DEFERRING.ordinal()) {
          return false;
        }
        Walk start = new Walk(null, 0, 0, System.currentTimeMillis());
        tx.update(VariableRow.TABLE, new VariableRow(ROW, Stage.WALKING.ordinal(), start.encode()));
        return true;
      }
    };
  }

  /** A write of the row: the deferral, or the walk's place (null: the walk ended). */
  private static final class Write extends Operation<Void> {
    private final Walk walk;
    private final boolean defer;
    private VariableRow old;

    Write(Walk walk, boolean defer) {
      this.walk = walk;
      this.defer = defer;
    }

    @Override
    public String name() {
      return defer ? "deferChecks" : "saveDeferredChecks";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      old = tx.find(VariableRow.TABLE, key(), LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      if (defer) {
        VariableRow row = new VariableRow(ROW, Stage.DEFERRING.ordinal(), null);
        if (old == null) {
          tx.insert(VariableRow.TABLE, row);
        } else if (old.longValue() != Stage.DEFERRING.ordinal()) {
          tx.update(VariableRow.TABLE, row); // a former leader's walk starts over after this start
        }
      } else if (old != null && old.longValue() == Stage.WALKING.ordinal()) {
        if (walk == null) {
          tx.delete(VariableRow.TABLE, old);
        } else {
          tx.update(
              VariableRow.TABLE, new VariableRow(ROW, Stage.WALKING.ordinal(), walk.encode()));
        }
      }
      return null;
    }
  }
}
