package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.io.WritableUtils;

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
 *
 * <p>A transaction that only adds replicas to a storage (the bulk path of a first report, {@link
 * EmptyStorageReplicas}) names their block ids in its rows ({@link #noteAdded}), so the judgement
 * adds them to what it read rather than reading the storage's every replica again: during the first
 * report of a datanode of a million replicas the leader's judgements, every half second, would
 * otherwise read the storage anew each time, a cost that grows with the square of the report.
 */
public final class ChangedStorages {
  /** The names of the rows: this prefix and a random suffix. */
  static final String PREFIX = "replicas_changed:";

  private static final int PAGE = 1000;

  private ChangedStorages() {}

  /** The most bytes of block ids one row holds (the {@code bytes_value} column's bound). */
  static final int MAX_IDS_BYTES = 4000;

  /**
   * What the rows say: the storages changed in any way (to read again), the block ids added to
   * others (sorted, without repeats; no storage of the first set), and the rows to delete once they
   * are read.
   */
  public record Seen(Set<Integer> storages, Map<Integer, long[]> added, List<Key> rows) {}

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

  /**
   * Notes, in {@code tx}, that it adds replicas of {@code blockIds} (ascending) to storage {@code
   * storageId} and changes none of its other replica rows: rows that name the ids, as deltas in
   * variable-length longs, {@link #MAX_IDS_BYTES} at most each.
   */
  public static void noteAdded(ExecutePhase tx, int storageId, long[] blockIds)
      throws StorageException {
    for (byte[] ids : encode(blockIds)) {
      String name = PREFIX + Long.toHexString(ThreadLocalRandom.current().nextLong());
      tx.insertIfAbsent(VariableRow.TABLE, new VariableRow(name, storageId, ids));
    }
  }

  /** Ascending ids as deltas from the one before, cut into parts of at most the bound each. */
  static List<byte[]> encode(long[] ascending) {
    List<byte[]> parts = new ArrayList<>();
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    DataOutputStream out = new DataOutputStream(bytes);
    long last = 0;
    try {
      for (long id : ascending) {
        if (bytes.size() + 9 > MAX_IDS_BYTES) { // 9: the longest variable-length long
          parts.add(bytes.toByteArray());
          bytes.reset();
          last = 0;
        }
        WritableUtils.writeVLong(out, id - last);
        last = id;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e); // a stream in memory
    }
    if (bytes.size() > 0) {
      parts.add(bytes.toByteArray());
    }
    return parts;
  }

  static long[] decode(byte[] part) {
    long[] ids = new long[part.length];
    int n = 0;
    DataInputStream in = new DataInputStream(new ByteArrayInputStream(part));
    long last = 0;
    try {
      while (in.available() > 0) {
        last += WritableUtils.readVLong(in);
        ids[n++] = last;
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return Arrays.copyOf(ids, n);
  }

  /** The rows there now, read committed, page by page. */
  public static Seen read(Transaction tx) throws StorageException {
    Set<Integer> storages = new HashSet<>();
    Map<Integer, List<long[]>> added = new HashMap<>();
    List<Key> rows = new ArrayList<>();
    Key after = VariableRow.TABLE.key(PREFIX);
    while (true) {
      List<VariableRow> page =
          tx.scanFrom(VariableRow.TABLE, null, after, PAGE, LockMode.READ_COMMITTED);
      for (VariableRow r : page) {
        if (!r.name().startsWith(PREFIX)) {
          return seen(storages, added, rows); // past the prefix: the rows come in name order
        }
        if (r.bytesValue() == null) {
          storages.add((int) r.longValue());
        } else {
          added
              .computeIfAbsent((int) r.longValue(), s -> new ArrayList<>())
              .add(decode(r.bytesValue()));
        }
        rows.add(VariableRow.TABLE.keyOf(r));
      }
      if (page.size() < PAGE) {
        return seen(storages, added, rows);
      }
      after = VariableRow.TABLE.keyOf(page.get(page.size() - 1));
    }
  }

  private static Seen seen(
      Set<Integer> storages, Map<Integer, List<long[]>> parts, List<Key> rows) {
    Map<Integer, long[]> added = new HashMap<>();
    parts.forEach(
        (storage, idParts) -> {
          if (!storages.contains(storage)) {
            added.put(storage, BlockIdSets.of(idParts));
          }
        });
    return new Seen(storages, added, rows);
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
