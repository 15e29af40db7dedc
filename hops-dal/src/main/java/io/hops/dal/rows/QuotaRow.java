package io.hops.dal.rows;

import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** The quota and usage of a directory that has a quota. */
@TableName("quota")
public record QuotaRow(
    @Pk @PartitionKey long inodeId, long nsQuota, long dsQuota, long nsCount, long dsCount) {
  public static final Table<QuotaRow> TABLE = Table.of(QuotaRow.class);
}
