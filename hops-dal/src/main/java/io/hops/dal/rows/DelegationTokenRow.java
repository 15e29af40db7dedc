package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A delegation token a namenode issued and nobody cancelled yet: its identifier as serialized in
 * the token (owner, renewer, real user, dates, master key id, sequence number), the date it must be
 * renewed by and its maximum date. The password is not stored: it is the HMAC of the identifier
 * under the master key it names. The sequence number is unique across namenodes (a database
 * counter).
 */
@TableName("delegation_tokens")
public record DelegationTokenRow(
    @Pk @PartitionKey @MaxBytes(64) String blockPoolId,
    @Pk int sequenceNumber,
    @MaxBytes(2048) byte[] identifier,
    long renewDate,
    long maxDate) {
  public static final Table<DelegationTokenRow> TABLE = Table.of(DelegationTokenRow.class);
}
