package io.hops.dal.rows;

import io.hops.dal.schema.AscendingKeys;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** The outcome of a non-idempotent call, so a client retrying on another namenode gets it again. */
@TableName("retry_cache")
@AscendingKeys
public record RetryCacheRow(
    @Pk @PartitionKey @MaxBytes(16) byte[] clientId,
    @Pk int callId,
    byte state,
    long expirationTime,
    @MaxBytes(4000) byte[] payload) {
  public static final Table<RetryCacheRow> TABLE = Table.of(RetryCacheRow.class);
}
