package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A block access key of a block pool (HDFS's {@code BlockKey}): the leader makes and rolls them,
 * every namenode signs block tokens with the current one and exports them all to the datanodes. The
 * current key is the one made current last ({@code madeCurrent}, the time it became current); the
 * next key, exported ahead so that datanodes know it before it signs anything, has {@code
 * madeCurrent} 0.
 */
@TableName("block_keys")
public record BlockKeyRow(
    @Pk @PartitionKey @MaxBytes(64) String blockPoolId,
    @Pk int keyId,
    long expiryDate,
    long madeCurrent,
    @MaxBytes(256) byte[] secret) {
  public static final Table<BlockKeyRow> TABLE = Table.of(BlockKeyRow.class);
}
