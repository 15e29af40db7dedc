package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A storage (disk) of a datanode; replicas name it by its numeric id. */
@TableName("storages")
public record StorageRow(
    @Pk @PartitionKey int storageId,
    @Indexed @MaxBytes(64) String storageUuid,
    @Indexed @MaxBytes(64) String datanodeUuid,
    byte storageType,
    byte state) {
  public static final Table<StorageRow> TABLE = Table.of(StorageRow.class);
}
