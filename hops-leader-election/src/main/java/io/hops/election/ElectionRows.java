package io.hops.election;

import static io.hops.election.LeaderElection.EPOCH_ROW;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.VariableRow;
import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * The rows a contender's transactions read and write, one method per step of {@link
 * LeaderElection}'s join and round: its descriptor row (join, heartbeat, eviction), the epoch row
 * (the epoch step), the period row, and the clock rows a leader publishes its time in.
 */
final class ElectionRows {
  /**
   * The {@code variables} row of the period in force, raised by a contender whose rounds run slow.
   */
  static final String PERIOD_ROW = "le_period_ms";

  /** The counter the ids of contenders are taken from. */
  static final String ID_COUNTER = "le_id";

  /**
   * The prefix of the {@code variables} row in which a leader publishes the cluster's time, one row
   * per contender id so that a paused former leader's lock on its row never delays its successor.
   */
  static final String CLOCK_ROW_PREFIX = "le_clock:";

  static io.hops.dal.schema.Key key(String name) {
    return VariableRow.TABLE.key(name);
  }

  /** Who leads after a round's epoch step, under which epoch, and whether it is this contender. */
  record Leadership(boolean lead, long leaderId, long leaderEpoch) {}

  /** The leader's time a follower took from its clock row, and when; -1: none new. */
  record ClockRead(long published, long readNanos) {
    static final ClockRead NONE = new ClockRead(-1, 0);
  }

  private final ClusterClock clock;
  private final String hostname;
  private final String rpcAddress;
  private final String httpAddress;

  /** The last time this contender took from a leader's clock row. */
  private long lastPublished = -1;

  ElectionRows(ClusterClock clock, String hostname, String rpcAddress, String httpAddress) {
    this.clock = clock;
    this.hostname = hostname;
    this.rpcAddress = rpcAddress;
    this.httpAddress = httpAddress;
  }

  /** Writes the row of a new id, removing that of the id given up ({@code oldId}, or -1). */
  void join(Transaction tx, long oldId, long newId, long incarnation) throws StorageException {
    if (oldId >= 0) {
      remove(tx, List.of(oldId));
    }
    tx.insert(
        LeDescriptorRow.TABLE,
        new LeDescriptorRow(newId, 0, hostname, rpcAddress, httpAddress, clock.now(), incarnation));
  }

  /** Deletes the rows of contenders {@code ids}: their descriptors and clock rows. */
  void remove(Transaction tx, List<Long> ids) throws StorageException {
    for (long d : ids) {
      tx.delete(LeDescriptorRow.TABLE, LeDescriptorRow.TABLE.key(d));
      if (clock.followsLeader()) {
        tx.delete(VariableRow.TABLE, key(CLOCK_ROW_PREFIX + d));
      }
    }
  }

  /**
   * The epoch step: the smallest live id leads; a new leader (or one whose lease lapsed: not {@code
   * continuing}) takes the next epoch, writing it with its id; a follower reads who leads from the
   * epoch row.
   */
  Leadership epochStep(Transaction tx, long me, List<LeDescriptorRow> alive, boolean continuing)
      throws StorageException {
    long leaderId = alive.stream().mapToLong(LeDescriptorRow::id).min().orElse(me);
    boolean lead = leaderId == me;
    // The epoch row is locked only to take over: a leader that stalls in a round then holds no
    // lock its successor needs, and its housekeeping's shared reads of the row never wait.
    // A leader whose lease lapsed takes a new epoch too when it leads again: datanodes follow
    // only a strictly higher epoch than the last leader they obeyed (HDFS's txid rule).
    VariableRow epochRow = tx.find(VariableRow.TABLE, key(EPOCH_ROW), LockMode.READ_COMMITTED);
    boolean takeOver = lead && (!continuing || epochRow == null || leaderOf(epochRow) != me);
    if (takeOver) {
      epochRow = tx.find(VariableRow.TABLE, key(EPOCH_ROW), LockMode.EXCLUSIVE);
    }
    long leaderEpoch = epochRow == null ? 0 : epochRow.longValue();
    if (takeOver) {
      leaderEpoch++;
      write(tx, epochRow, new VariableRow(EPOCH_ROW, leaderEpoch, idBytes(me)));
    } else if (!lead) {
      leaderId = epochRow == null ? -1 : leaderOf(epochRow);
    }
    return new Leadership(lead, leaderId, leaderEpoch);
  }

  /** Advances this contender's counter, its heartbeat; false if its row is gone (evicted). */
  boolean advanceCounter(Transaction tx, long me, long incarnation) throws StorageException {
    LeDescriptorRow mine =
        tx.find(LeDescriptorRow.TABLE, LeDescriptorRow.TABLE.key(me), LockMode.EXCLUSIVE);
    if (mine == null) {
      return false;
    }
    tx.update(
        LeDescriptorRow.TABLE,
        new LeDescriptorRow(
            me,
            mine.counter() + 1,
            mine.hostname(),
            mine.rpcAddress(),
            mine.httpAddress(),
            mine.startTime(),
            incarnation));
    return true;
  }

  /** A follower's read of the leader's clock row (see {@link ClusterClock.Source#LEADER}). */
  ClockRead readLeaderTime(Transaction tx, long leaderId) throws StorageException {
    VariableRow time =
        tx.find(VariableRow.TABLE, key(CLOCK_ROW_PREFIX + leaderId), LockMode.READ_COMMITTED);
    long readNanos = System.nanoTime();
    // A leader that stopped publishing (paused, dead) leaves its last time behind: the
    // clock runs on from what it took rather than going back to it every round.
    if (time != null && time.longValue() != lastPublished) {
      lastPublished = time.longValue();
      return new ClockRead(lastPublished, readNanos);
    }
    return new ClockRead(-1, readNanos);
  }

  /** Writes this leader's time into its own clock row (see {@link ClusterClock.Source#LEADER}). */
  void publishTime(Transaction tx, long me) throws StorageException {
    String name = CLOCK_ROW_PREFIX + me;
    VariableRow next = new VariableRow(name, clock.now(), null);
    if (tx.find(VariableRow.TABLE, key(name), LockMode.EXCLUSIVE) == null) {
      tx.insert(VariableRow.TABLE, next);
    } else {
      tx.update(VariableRow.TABLE, next);
    }
  }

  /** Writes the raised period over {@code periodRow} (null: there was none). */
  void writePeriod(Transaction tx, long raised, VariableRow periodRow) throws StorageException {
    write(tx, periodRow, new VariableRow(PERIOD_ROW, raised, null));
  }

  private static void write(Transaction tx, VariableRow old, VariableRow next)
      throws StorageException {
    if (old == null) {
      tx.insert(VariableRow.TABLE, next);
    } else {
      tx.update(VariableRow.TABLE, next);
    }
  }

  private static byte[] idBytes(long id) {
    return Long.toString(id).getBytes(StandardCharsets.UTF_8);
  }

  /** The leader's id that the epoch row names, or -1. */
  /**
   * Fails unless the database still names {@code me} leader at {@code myEpoch}. The epoch row is
   * read with a shared lock, so a new leader's takeover, which writes that row, waits for this
   * transaction to end, and vice versa.
   */
  static void checkStillLeader(Transaction tx, long me, long myEpoch) throws StorageException {
    VariableRow row = tx.find(VariableRow.TABLE, key(EPOCH_ROW), LockMode.SHARED);
    if (row == null || row.longValue() != myEpoch || leaderOf(row) != me) {
      throw new NotLeaderException(
          "namenode id "
              + me
              + " lost the leadership of epoch "
              + myEpoch
              + (row == null ? "" : " to id " + leaderOf(row) + " at epoch " + row.longValue()));
    }
  }

  static long leaderOf(VariableRow epochRow) {
    byte[] b = epochRow.bytesValue();
    return b == null ? -1 : Long.parseLong(new String(b, StandardCharsets.UTF_8));
  }
}
