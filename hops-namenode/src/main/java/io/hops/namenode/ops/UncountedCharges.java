package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.ops.snapshot.RenamedDirectoryUsage;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The charges of directories renamed away from a snapshot's entry with no quota on either path,
 * written {@link SnapshotKeptUsageRow#UNCOUNTED} (their usage is a walk, which a rename does not
 * make where no quota counts it), counted by the first operation that puts them into a quota: a
 * quota set on a directory they name ({@link SetQuota}), or a rename carrying them between quota
 * directories ({@link CarriedKeptUsage}). The count is HDFS's {@code WithName} usage ({@link
 * RenamedDirectoryUsage}), written into every row of the charge, so that it is made once and the
 * snapshots' deletion takes it off the quotas that counted it (docs/architecture.md, "Snapshots",
 * quota usage of what snapshots keep).
 *
 * <p>Locks: every row of each such charge (a pruned scan of its directory's partition,
 * exclusively), after the rows naming the directory and before the quota rows ("Lock order").
 */
final class UncountedCharges {
  /** A charge: one rename's rows, all with the same directory, snapshot and (negated) inode. */
  private record Charge(long dirId, long snapshotId, long inodeId) {
    static Charge of(SnapshotKeptUsageRow u) {
      return new Charge(u.dirId(), u.snapshotId(), u.inodeId());
    }
  }

  private final Map<Charge, long[]> counted = new LinkedHashMap<>();
  private final List<SnapshotKeptUsageRow> rows = new ArrayList<>();
  private boolean exceeded;

  private UncountedCharges() {}

  static final UncountedCharges NONE = new UncountedCharges();

  /**
   * Counts the uncounted charges among {@code found} and locks all their rows; past {@code bound}
   * inodes read, {@link #exceeded()}.
   */
  static UncountedCharges count(LockPhase tx, Collection<SnapshotKeptUsageRow> found, long bound)
      throws StorageException {
    UncountedCharges c = new UncountedCharges();
    long left = bound;
    for (SnapshotKeptUsageRow u : found) {
      Charge k = Charge.of(u);
      if (!u.uncounted() || c.counted.containsKey(k)) {
        continue;
      }
      for (SnapshotKeptUsageRow r :
          tx.findByPartition(SnapshotKeptUsageRow.TABLE, u.dirId(), LockMode.EXCLUSIVE)) {
        if (r.snapshotId() == k.snapshotId() && r.inodeId() == k.inodeId()) {
          c.rows.add(r);
        }
      }
      long[] usage = RenamedDirectoryUsage.of(tx, u.dirId(), u.snapshotId(), -u.inodeId(), left);
      if (usage == null) {
        c.exceeded = true;
        return c;
      }
      left -= usage[0];
      c.counted.put(k, usage);
    }
    return c;
  }

  /** Whether the charges held more than the bound: the caller goes to the subtree protocol. */
  boolean exceeded() {
    return exceeded;
  }

  /** {@code u} (or null) with its charge's usage, counted here if it was not. */
  SnapshotKeptUsageRow filled(SnapshotKeptUsageRow u) {
    long[] usage = u != null && u.uncounted() ? counted.get(Charge.of(u)) : null;
    return usage == null ? u : u.withUsage(usage[0], usage[1]);
  }

  /** Writes the counts into the charges' rows, except those of {@code rewritten} (keys). */
  void write(ExecutePhase tx, Set<Key> rewritten) throws StorageException {
    for (SnapshotKeptUsageRow r : rows) {
      if (!rewritten.contains(SnapshotKeptUsageRow.TABLE.keyOf(r))) {
        tx.update(SnapshotKeptUsageRow.TABLE, filled(r));
      }
    }
  }
}
