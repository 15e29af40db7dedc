package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A namenode's row in the leader election (docs/architecture.md, "Leader election"): its id (never
 * reused), the counter it advances every period, where clients and operators reach it, when it
 * joined (database time), and its process's incarnation: the first id that process took, kept when
 * it joins again under a new id (0 in a row of a release before incarnations: the id stands for
 * it).
 */
@TableName("le_descriptors")
public record LeDescriptorRow(
    @Pk @PartitionKey long id,
    long counter,
    @MaxBytes(255) String hostname,
    @MaxBytes(255) String rpcAddress,
    @MaxBytes(255) String httpAddress,
    long startTime,
    long incarnation) {
  public static final Table<LeDescriptorRow> TABLE = Table.of(LeDescriptorRow.class);
}
