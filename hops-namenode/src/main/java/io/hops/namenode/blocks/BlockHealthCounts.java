package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import java.util.List;

/**
 * The block health totals of the leader's last finished census ({@code
 * housekeeping/BlockHealthCensus}), kept in {@code variables} rows so that {@code getStats}, the
 * metrics and the web status page read them in one batched read on any namenode.
 */
public record BlockHealthCounts(
    long lowRedundancy,
    long corrupt,
    long missing,
    long missingReplicationOne,
    long pendingDeletion,
    long pendingReplication) {

  /** The {@code variables} rows, in the order of the record's components. */
  public static final List<String> VARIABLES =
      List.of(
          "health.low-redundancy",
          "health.corrupt",
          "health.missing",
          "health.missing-replication-one",
          "health.pending-deletion",
          "health.pending-replication");

  /** The keys of {@link #VARIABLES}. */
  public static List<Key> keys() {
    return VARIABLES.stream().map(VariableRow.TABLE::key).toList();
  }

  /** The counts of the last finished census, one batched read; zeros before the first. */
  public static BlockHealthCounts read(Transaction tx) throws StorageException {
    List<VariableRow> rows = tx.findBatch(VariableRow.TABLE, keys(), LockMode.READ_COMMITTED);
    long[] v = new long[VARIABLES.size()];
    for (int i = 0; i < v.length; i++) {
      v[i] = rows.get(i) == null ? 0 : rows.get(i).longValue();
    }
    return new BlockHealthCounts(v[0], v[1], v[2], v[3], v[4], v[5]);
  }
}
