package io.hops.dal.schema;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockKeyRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.DatanodeHostRow;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.DelegationKeyRow;
import io.hops.dal.rows.DelegationTokenRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.GroupRow;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.LongNameRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptReplicationRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.SnapshottableDirRow;
import io.hops.dal.rows.StorageRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.UserRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import java.util.List;

/**
 * Every table of the schema, in the global lock order of docs/architecture.md, "Lock order": inodes
 * first, then the file-related tables in a fixed order, then the rest. Writes are flushed in this
 * order too.
 */
public final class Tables {
  public static final List<Table<?>> ALL =
      List.of(
          InodeRow.TABLE,
          LeaseRow.TABLE,
          LeasePathRow.TABLE,
          BlockInfoRow.TABLE,
          BlockOffsetRow.TABLE,
          BlockLookupRow.TABLE,
          ReplicaRow.TABLE,
          CorruptReplicaRow.TABLE,
          ExcessReplicaRow.TABLE,
          ReplicaUnderConstructionRow.TABLE,
          InvalidatedBlockRow.TABLE,
          UnderReplicatedBlockRow.TABLE,
          PendingBlockRow.TABLE,
          ReleasedFileRow.TABLE,
          SnapshotKeptUsageRow.TABLE,
          QuotaRow.TABLE,
          RetryCacheRow.TABLE,
          OnGoingSubtreeOpRow.TABLE,
          InMemoryFileDataRow.TABLE,
          OnDiskSmallFileDataRow.TABLE,
          OnDiskMediumFileDataRow.TABLE,
          OnDiskLargeFileDataRow.TABLE,
          XAttrRow.TABLE,
          SnapshotRow.TABLE,
          SnapshottableDirRow.TABLE,
          InodeVersionRow.TABLE,
          SnapshotKeptFileRow.TABLE,
          XAttrVersionRow.TABLE,
          SnapshotFileTailRow.TABLE,
          SnapshotKeptReplicationRow.TABLE,
          SnapshotEarlierEntryRow.TABLE,
          SnapshotRenamedEntryRow.TABLE,
          SnapshotVersionLogRow.TABLE,
          UserRow.TABLE,
          GroupRow.TABLE,
          LongNameRow.TABLE,
          DatanodeRow.TABLE,
          StorageRow.TABLE,
          DatanodeHostRow.TABLE,
          LeDescriptorRow.TABLE,
          BlockKeyRow.TABLE,
          DelegationKeyRow.TABLE,
          DelegationTokenRow.TABLE,
          VariableRow.TABLE);

  private Tables() {}

  /** The table's place in the lock and flush order. */
  public static int order(Table<?> table) {
    int i = ALL.indexOf(table);
    if (i < 0) {
      throw new IllegalArgumentException("unknown table " + table);
    }
    return i;
  }

  public static Table<?> byName(String name) {
    for (Table<?> t : ALL) {
      if (t.name().equals(name)) {
        return t;
      }
    }
    throw new IllegalArgumentException("unknown table " + name);
  }
}
