package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A client's write lease; it covers the files in {@code lease_paths}. */
@TableName("leases")
public record LeaseRow(
    @Pk @PartitionKey @MaxBytes(MaxBytes.NAME) String holder, @Indexed long lastUpdate, int count) {
  public static final Table<LeaseRow> TABLE = Table.of(LeaseRow.class);
}
