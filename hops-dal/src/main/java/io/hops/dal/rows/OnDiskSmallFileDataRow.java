package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** The bytes of a small file of at most 2 KB, on disk. */
@TableName("ondisk_small_file_data")
public record OnDiskSmallFileDataRow(@Pk @PartitionKey long inodeId, @MaxBytes(2048) byte[] data) {
  public static final Table<OnDiskSmallFileDataRow> TABLE = Table.of(OnDiskSmallFileDataRow.class);
}
