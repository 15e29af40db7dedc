package io.hops.dal.rows;

import io.hops.dal.schema.Indexed;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** A user name, stored once and referenced by id. */
@TableName("hdfs_users")
public record UserRow(@Pk @PartitionKey int id, @Indexed @MaxBytes(MaxBytes.NAME) String name) {
  public static final Table<UserRow> TABLE = Table.of(UserRow.class);
}
