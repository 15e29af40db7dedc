package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A directory made snapshottable, by inode id: the list {@code getSnapshottableDirListing} and the
 * nesting checks read (a full scan of a table as small as the number of snapshottable directories),
 * where an index on the inodes' {@code snapshottable} flag would cost every inode write on InnoDB.
 * The inode's own flag is the truth: an entry whose inode is gone or no longer snapshottable is
 * skipped (docs/architecture.md, "Snapshots").
 */
@TableName("snapshottable_dirs")
public record SnapshottableDirRow(@Pk @PartitionKey long dirId) {
  public static final Table<SnapshottableDirRow> TABLE = Table.of(SnapshottableDirRow.class);
}
