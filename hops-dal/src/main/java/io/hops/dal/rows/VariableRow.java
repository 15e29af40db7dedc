package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.RowsMostlyWithoutBytes;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A named value: id counters (handed out in ranges), namespace ids, settings. */
@TableName("variables")
@RowsMostlyWithoutBytes
public record VariableRow(
    @Pk @PartitionKey @MaxBytes(64) String name,
    long longValue,
    @MaxBytes(4000) byte[] bytesValue) {
  public static final Table<VariableRow> TABLE = Table.of(VariableRow.class);
}
