package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A deleted file too large to free in the transaction that deleted it: its blocks, replicas and
 * their rows are released afterwards, a batch per transaction, and the row goes with the last one.
 */
@TableName("released_files")
public record ReleasedFileRow(@Pk @PartitionKey long inodeId) {
  public static final Table<ReleasedFileRow> TABLE = Table.of(ReleasedFileRow.class);
}
