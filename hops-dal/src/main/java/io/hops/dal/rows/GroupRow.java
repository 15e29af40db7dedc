package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A group name, stored once and referenced by id. */
@TableName("hdfs_groups")
public record GroupRow(@Pk @PartitionKey int id, @Indexed @MaxBytes(MaxBytes.NAME) String name) {
  public static final Table<GroupRow> TABLE = Table.of(GroupRow.class);
}
