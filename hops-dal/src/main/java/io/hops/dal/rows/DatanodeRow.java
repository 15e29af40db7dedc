package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A registered datanode. */
@TableName("datanodes")
public record DatanodeRow(
    @Pk @PartitionKey @MaxBytes(64) String datanodeUuid,
    @MaxBytes(255) String hostname,
    @MaxBytes(64) String ipAddress,
    int xferPort,
    int infoPort,
    int infoSecurePort,
    int ipcPort,
    @MaxBytes(255) String networkLocation,
    byte adminState,
    long registeredAt) {
  public static final Table<DatanodeRow> TABLE = Table.of(DatanodeRow.class);
}
