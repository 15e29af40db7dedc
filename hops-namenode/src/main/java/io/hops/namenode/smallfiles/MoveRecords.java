package io.hops.namenode.smallfiles;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * The database's record of each move of a database file to datanodes in progress ({@link
 * DatabaseFileMover}), so that the hidden {@code .hops-move-*} file of a namenode that died midway
 * does not stay behind: a row of {@code variables} named {@code hops.move.<suffix>} (the hidden
 * file is {@code .hops-move-<suffix>}), holding when the move began (cluster clock) and the id of
 * the directory the hidden file is in, so a rename of that directory meanwhile does not lose it.
 * Written before the hidden file, removed after the adoption; the leader's housekeeping deletes the
 * hidden file of a record older than {@code hops.smallfiles.move.leftover-age.ms}, then the record.
 */
public final class MoveRecords {
  /** The names of the records in {@code variables}. */
  public static final String ROW_PREFIX = "hops.move.";

  private MoveRecords() {}

  /** The record's name for a hidden file's name suffix (what follows {@code .hops-move-}). */
  static String rowName(String suffix) {
    return ROW_PREFIX + suffix;
  }

  /** The hidden file's name a record stands for. */
  public static String hiddenName(VariableRow record) {
    return DatabaseFileMover.PREFIX + record.name().substring(ROW_PREFIX.length());
  }

  /** The directory the hidden file is in. */
  public static long directoryId(VariableRow record) {
    return Long.parseLong(new String(record.bytesValue(), StandardCharsets.UTF_8));
  }

  /** Inserts the record of a move that is about to write its hidden file. */
  static final class Begin extends Operation<Void> {
    private final String suffix;
    private final long directoryId;
    private final long now;

    Begin(String suffix, long directoryId, long now) {
      this.suffix = suffix;
      this.directoryId = directoryId;
      this.now = now;
    }

    @Override
    public String name() {
      return "smallFileMoveBegin";
    }

    @Override
    protected void lock(LockPhase tx) {}

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      tx.insert(
          VariableRow.TABLE,
          new VariableRow(
              rowName(suffix), now, Long.toString(directoryId).getBytes(StandardCharsets.UTF_8)));
      return null;
    }
  }

  /** Removes a record, if it is still there. */
  public static final class End extends Operation<Void> {
    private final String name;
    private VariableRow found;

    public End(String name) {
      this.name = name;
    }

    @Override
    public String name() {
      return "smallFileMoveEnd";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      found = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(name), LockMode.EXCLUSIVE);
    }

    @Override
    protected Void execute(ExecutePhase tx) throws IOException {
      if (found != null) {
        tx.delete(VariableRow.TABLE, found);
      }
      return null;
    }
  }

  /**
   * The full path of a record's hidden file, rebuilt from its directory upwards by id; null if that
   * directory is gone (and the hidden file with it).
   */
  public static final class HiddenPath extends Operation<String> {
    private final VariableRow record;
    private String path;

    public HiddenPath(VariableRow record) {
      this.record = record;
    }

    @Override
    public String name() {
      return "smallFileMoveLeftover";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      Deque<String> names = new ArrayDeque<>();
      names.push(hiddenName(record));
      long id = directoryId(record);
      while (id != Inodes.ROOT_ID) {
        List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
        if (rows.isEmpty()) {
          return;
        }
        names.push(rows.get(0).name());
        id = rows.get(0).parentId();
      }
      path = "/" + String.join("/", names);
    }

    @Override
    protected String execute(ExecutePhase tx) {
      return path;
    }
  }
}
