package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The storages whose replica rows changed while the cluster starts, for the starting leader's
 * judgement of safe mode, which reads again only their block ids (docs/architecture.md, "Safe mode
 * across namenodes"). A transaction of a namenode in startup safe mode that writes a storage's
 * replica rows (a full report's differences, an incremental report, the replicas of a failed
 * storage or a dead datanode forgotten) also inserts, in the same transaction, a {@code variables}
 * row named {@link #PREFIX} and a random suffix that holds the storage's id: its own row, so that
 * the transactions of one report, applied in parallel, never wait for each other. The leader reads
 * the rows (one range read) before it reads any replica, reads again the storages they name, and
 * deletes the rows it read (fenced): a row committed after its read is there at its next judgement.
 * A report that changes nothing writes none. A new leader reads every storage once, and deletes the
 * rows left over.
 */
public final class ChangedStorages {
  /** The names of the rows: this prefix and a random suffix. */
  static final String PREFIX = "replicas_changed:";

  private static final int PAGE = 1000;

  private ChangedStorages() {}

  /** What the rows say: the storages changed, and the rows to delete once they are read again. */
  public record Seen(Set<Integer> storages, List<Key> rows) {}

  /** Whether a transaction run now notes its storages: only while this namenode starts. */
  public static boolean noting(BlockManager bm) {
    return bm.mayDeferChecks();
  }

  /** Notes, in {@code tx}, that the replica rows of {@code storageIds} change. */
  public static void note(ExecutePhase tx, Collection<Integer> storageIds) throws StorageException {
    for (int id : new HashSet<>(storageIds)) {
      String name = PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong());
      tx.insertIfAbsent(VariableRow.TABLE, new VariableRow(name, id, null));
    }
  }

  /** The rows there now, read committed, page by page. */
  public static Seen read(Transaction tx) throws StorageException {
    Set<Integer> storages = new HashSet<>();
    List<Key> rows = new ArrayList<>();
    Key after = VariableRow.TABLE.key(PREFIX);
    while (true) {
      List<VariableRow> page =
          tx.scanFrom(VariableRow.TABLE, null, after, PAGE, LockMode.READ_COMMITTED);
      for (VariableRow r : page) {
        if (!r.name().startsWith(PREFIX)) {
          return new Seen(storages, rows); // past the prefix: the rows come in name order
        }
        storages.add((int) r.longValue());
        rows.add(VariableRow.TABLE.keyOf(r));
      }
      if (page.size() < PAGE) {
        return new Seen(storages, rows);
      }
      after = VariableRow.TABLE.keyOf(page.get(page.size() - 1));
    }
  }

  /** Deletes the rows read (run fenced, as the leader's). */
  public static Operation<Void> forget(List<Key> rows) {
    return new Operation<>() {
      @Override
      public String name() {
        return "forgetChangedStorages";
      }

      @Override
      protected void lock(LockPhase tx) {}

      @Override
      protected Void execute(ExecutePhase tx) throws IOException {
        for (Key k : rows) {
          tx.delete(VariableRow.TABLE, k);
        }
        return null;
      }
    };
  }
}
