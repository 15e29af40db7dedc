package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.HexFormat;
import java.util.Set;
import java.util.function.BooleanSupplier;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Whether the cluster has ever had datanodes on two racks (HDFS
 * DatanodeManager.hasClusterEverBeenMultiRack, one namenode's memory there), kept in the {@code
 * multi_rack} row of {@code variables} so that every namenode agrees: docs/architecture.md,
 * "Racks". While the datanodes have registered on one rack, the row names it; the registration that
 * brings a second rack, on any namenode, makes a re-check of every block due (HDFS
 * checkIfClusterIsNowMultiRack), and the row then holds where the leader's walk is ({@link Walk});
 * once the walk ends, or when the second rack came while the registering namenode was in startup
 * safe mode (HDFS: not populating replication queues), it only says multi-rack. It never goes back,
 * so a namenode that has seen it past one rack reads it no more at registration.
 */
public final class RackHistory {
  private static final Logger LOG = LoggerFactory.getLogger(RackHistory.class);
  static final String ROW = "multi_rack";

  /** The row's {@code long_value}. */
  public enum Stage {
    SINGLE_RACK,
    RECHECK_DUE,
    MULTI_RACK
  }

  /**
   * Where the walk of every block is: after the replica {@code after} (null: at the start), the
   * last of the last block judged; how many blocks it judged and queued so far; since when it is
   * due (wall clock), for the log.
   */
  public record Walk(Key after, long checked, long queued, long dueSinceMillis) {
    static final int BYTES = 8 + 8 + 4 + 8 + 8 + 8;

    byte[] encode() {
      ByteBuffer b = ByteBuffer.allocate(BYTES);
      ReplicaRow last = after == null ? null : lastOf(after);
      b.putLong(last == null ? -1 : last.inodeId());
      b.putLong(last == null ? -1 : last.blockId());
      b.putInt(last == null ? -1 : last.storageId());
      b.putLong(checked).putLong(queued).putLong(dueSinceMillis);
      return b.array();
    }

    static Walk decode(byte[] bytes) {
      ByteBuffer b = ByteBuffer.wrap(bytes);
      long inode = b.getLong();
      long block = b.getLong();
      int storage = b.getInt();
      Key after = inode < 0 && block < 0 ? null : ReplicaRow.TABLE.key(inode, block, storage);
      return new Walk(after, b.getLong(), b.getLong(), b.getLong());
    }

    /** The walk moved past {@code last}, having judged and queued so many more blocks. */
    public Walk past(ReplicaRow last, long judged, long queuedNow) {
      return new Walk(
          ReplicaRow.TABLE.keyOf(last), checked + judged, queued + queuedNow, dueSinceMillis);
    }

    private static ReplicaRow lastOf(Key k) {
      return new ReplicaRow((Long) k.value(0), (Long) k.value(1), (Integer) k.value(2), 0);
    }
  }

  /** The row as read: its stage, the one rack (SINGLE_RACK), the walk (RECHECK_DUE). */
  public record State(Stage stage, String singleRack, Walk walk) {
    static final State NONE = new State(null, null, null);

    /** The row that stores it. */
    public VariableRow row() {
      byte[] bytes =
          switch (stage) {
            case SINGLE_RACK -> singleRack.getBytes(StandardCharsets.UTF_8);
            case RECHECK_DUE -> walk.encode();
            case MULTI_RACK -> null;
          };
      return new VariableRow(ROW, stage.ordinal(), bytes);
    }

    /** The state a row stores (none if null). */
    public static State of(VariableRow row) {
      if (row == null) {
        return NONE;
      }
      Stage s = Stage.values()[(int) row.longValue()];
      return switch (s) {
        case SINGLE_RACK ->
            new State(s, new String(row.bytesValue(), StandardCharsets.UTF_8), null);
        case RECHECK_DUE -> new State(s, null, Walk.decode(row.bytesValue()));
        case MULTI_RACK -> new State(s, null, null);
      };
    }

    static State single(String rack) {
      return new State(Stage.SINGLE_RACK, stored(rack), null);
    }
  }

  /** What a registration did to the history, to be told once it committed. */
  enum Change {
    NONE,
    /** The cluster was already on two racks when the row was first written: no re-check. */
    FOUND_MULTI_RACK,
    MADE_MULTI_RACK_RECHECK_DUE,
    MADE_MULTI_RACK_NOT_POPULATING
  }

  private volatile boolean multiRack;
  private volatile BooleanSupplier populatingReplicationQueues = () -> true;

  /**
   * How a registration learns whether this namenode populates the replication queues (not in
   * startup safe mode): only then does a second rack make the re-check due, as in HDFS.
   */
  public void whenPopulatingReplicationQueues(BooleanSupplier populating) {
    this.populatingReplicationQueues = populating;
  }

  /** The key of the row. */
  public static Key key() {
    return VariableRow.TABLE.key(ROW);
  }

  /** The stored state, read with {@code mode}. */
  public static State read(Transaction tx, LockMode mode) throws StorageException {
    return State.of(tx.find(VariableRow.TABLE, key(), mode));
  }

  /** Writes {@code s} over the row read as {@code old} in this transaction. */
  public static void write(Transaction tx, State old, State s) throws StorageException {
    if (old.stage() == null) {
      tx.insert(VariableRow.TABLE, s.row());
    } else {
      tx.update(VariableRow.TABLE, s.row());
    }
  }

  /** The re-check is done (or was not needed): the row only says multi-rack. */
  public static State multiRack() {
    return new State(Stage.MULTI_RACK, null, null);
  }

  /** The walk moved on. */
  public static State recheckDue(Walk w) {
    return new State(Stage.RECHECK_DUE, null, w);
  }

  /**
   * In a registration's transaction, after its datanode row is written (variables come last in the
   * lock order): records a second rack. One read-committed read while the cluster is on one rack
   * and the datanode on it; the row locked only to change it; nothing once this namenode has seen
   * the cluster on two racks.
   */
  Change atRegistration(Transaction tx, DatanodeID reg, String location) throws StorageException {
    if (multiRack) {
      return Change.NONE;
    }
    State seen = read(tx, LockMode.READ_COMMITTED);
    if (seen.stage() == Stage.SINGLE_RACK && seen.singleRack().equals(stored(location))) {
      return Change.NONE;
    }
    State old = read(tx, LockMode.EXCLUSIVE);
    if (old.stage() == Stage.RECHECK_DUE || old.stage() == Stage.MULTI_RACK) {
      multiRack = true;
      return Change.NONE;
    }
    if (old.stage() == Stage.SINGLE_RACK && old.singleRack().equals(stored(location))) {
      return Change.NONE;
    }
    Set<String> before = new HashSet<>();
    if (old.stage() == Stage.SINGLE_RACK) {
      before.add(old.singleRack());
    } else {
      // First written: the racks the other datanodes registered on so far (a cluster older than
      // the row, or a registration racing the first).
      for (DatanodeRow r : tx.scanAll(DatanodeRow.TABLE, LockMode.READ_COMMITTED)) {
        if (!r.datanodeUuid().equals(reg.getDatanodeUuid())) {
          before.add(stored(DatanodeRegistrations.locationOf(r)));
        }
      }
    }
    if (before.size() > 1) {
      write(tx, old, multiRack());
      return Change.FOUND_MULTI_RACK;
    }
    if (before.isEmpty() || before.contains(stored(location))) {
      write(tx, old, State.single(location));
      return Change.NONE;
    }
    if (!populatingReplicationQueues.getAsBoolean()) {
      write(tx, old, multiRack());
      return Change.MADE_MULTI_RACK_NOT_POPULATING;
    }
    write(tx, old, recheckDue(new Walk(null, 0, 0, System.currentTimeMillis())));
    return Change.MADE_MULTI_RACK_RECHECK_DUE;
  }

  /** Once the registration committed: remembers and tells what it changed, in HDFS's words. */
  void committed(Change c, DatanodeID reg) {
    if (c == Change.NONE) {
      return;
    }
    multiRack = true;
    String message =
        "DN "
            + reg.getXferAddr()
            + " joining cluster has expanded a formerly single-rack cluster to be multi-rack. ";
    switch (c) {
      case MADE_MULTI_RACK_RECHECK_DUE ->
          LOG.info(
              message
                  + "Re-checking all blocks for replication, since they should now be replicated"
                  + " cross-rack");
      case MADE_MULTI_RACK_NOT_POPULATING ->
          LOG.info(
              message
                  + "Not checking for mis-replicated blocks because this NN is not yet processing"
                  + " repl queues.");
      default -> LOG.debug("the cluster's datanodes were already on two racks or more");
    }
  }

  /**
   * A rack as the row keeps it: its name, or a digest of a name too long for the column (only
   * compared, never shown).
   */
  private static String stored(String rack) {
    byte[] b = rack.getBytes(StandardCharsets.UTF_8);
    if (b.length <= 1000) {
      return rack;
    }
    try {
      return "sha256:" + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(b));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException(e);
    }
  }
}
