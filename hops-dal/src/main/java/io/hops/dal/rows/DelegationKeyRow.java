package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A delegation token master key (HDFS's {@code DelegationKey}) of the namespace named by its block
 * pool id: the leader makes and rolls them, every namenode signs new tokens with the current one
 * (the largest key id) and checks tokens with the key they name. {@code madeCurrent} is when the
 * key was made, so a new leader knows when the last roll was.
 */
@TableName("delegation_keys")
public record DelegationKeyRow(
    @Pk @PartitionKey @MaxBytes(64) String blockPoolId,
    @Pk int keyId,
    long expiryDate,
    long madeCurrent,
    @MaxBytes(256) byte[] secret) {
  public static final Table<DelegationKeyRow> TABLE = Table.of(DelegationKeyRow.class);
}
