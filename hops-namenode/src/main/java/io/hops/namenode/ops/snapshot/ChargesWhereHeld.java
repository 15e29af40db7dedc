package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The charges of files kept below held directories that a delete removes, written where each
 * directory was when the file went (docs/architecture.md, "Snapshots", a held directory's delete):
 * HDFS's delete of a renamed directory takes its whole destination side off the directories above
 * ({@code INodeReference.DstReference}), since the snapshots it was moved away from count it
 * through the charge its move wrote on their side ({@code WithName}). So these rows go with the
 * delete, their usage off the quota rows they name ({@link
 * DeletedHeldDirectory#chargedWhereItWas}).
 */
public final class ChargesWhereHeld {
  private final List<SnapshotKeptUsageRow> rows;

  private ChargesWhereHeld(List<SnapshotKeptUsageRow> rows) {
    this.rows = rows;
  }

  /** None: no held directory is deleted. */
  public static ChargesWhereHeld none() {
    return new ChargesWhereHeld(List.of());
  }

  /**
   * The partitions to read for the held directory {@code heldId} with hold {@code hold} and the
   * held directories below it ({@code inner}, by id with their holds): each up to its hold or the
   * outer one's.
   */
  public static Map<Long, Long> upTo(long heldId, long hold, Map<Long, Long> inner) {
    Map<Long, Long> upTo = new TreeMap<>();
    upTo.put(heldId, hold);
    inner.forEach((id, h) -> upTo.put(id, Math.max(h, hold)));
    return upTo;
  }

  /**
   * Reads, exclusively, the charges in the partitions of {@code upTo} (held directory to the latest
   * snapshot id its charges are the destination side's up to), a pruned scan each in id order.
   */
  public static ChargesWhereHeld read(LockPhase tx, Map<Long, Long> upTo) throws StorageException {
    List<SnapshotKeptUsageRow> rows = new ArrayList<>();
    for (Map.Entry<Long, Long> e : new TreeMap<>(upTo).entrySet()) {
      for (SnapshotKeptUsageRow u :
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, e.getKey(), LockMode.EXCLUSIVE)) {
        if (DeletedHeldDirectory.chargedWhereItWas(u, e.getValue())) {
          rows.add(u);
        }
      }
    }
    return new ChargesWhereHeld(rows);
  }

  /** The directories the charges name, whose quota rows the caller locks after them. */
  public List<Long> quotaDirs() {
    return rows.stream().map(SnapshotKeptUsageRow::quotaId).distinct().toList();
  }

  /** Deletes the charges and takes them off {@code quotas} (locked with {@link #quotaDirs}). */
  public void takeOff(ExecutePhase tx, AncestorQuotas quotas) throws StorageException {
    for (SnapshotKeptUsageRow u : rows) {
      tx.delete(SnapshotKeptUsageRow.TABLE, u);
      quotas.addTo(u.quotaId(), -u.ns(), -u.ds());
    }
  }
}
