package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * One 8 KB piece of a user, group or client name too wide to be a key ({@link MaxBytes#NAME}). Such
 * a name is keyed everywhere by its digest (the {@code name} column of {@code hdfs_users}, {@code
 * hdfs_groups}, {@code leases}, {@code lease_paths}); its text lives here, under that key. The text
 * a key stands for never changes, so a row is written once and read back by any namenode.
 */
@TableName("long_names")
public record LongNameRow(
    @Pk @PartitionKey @MaxBytes(80) String nameKey, @Pk int piece, @MaxBytes(8192) byte[] data) {
  public static final Table<LongNameRow> TABLE = Table.of(LongNameRow.class);
}
