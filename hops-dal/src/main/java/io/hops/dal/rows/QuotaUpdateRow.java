package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A usage change not yet applied to the {@code quota} rows of a directory's ancestors. */
@TableName("quota_updates")
public record QuotaUpdateRow(
    @Pk @PartitionKey long inodeId, @Pk long updateId, long nsDelta, long dsDelta) {
  public static final Table<QuotaUpdateRow> TABLE = Table.of(QuotaUpdateRow.class);
}
