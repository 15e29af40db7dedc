package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A file under construction held by a lease holder. */
@TableName("lease_paths")
public record LeasePathRow(
    @Pk @PartitionKey long inodeId,
    @Indexed @MaxBytes(1024) String holder,
    @MaxBytes(8000) String path,
    long lastBlockId,
    long penultimateBlockId) {
  public static final Table<LeasePathRow> TABLE = Table.of(LeasePathRow.class);
}
