package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** The bytes of a small file of at most 4 KB, on disk. */
@TableName("ondisk_medium_file_data")
public record OnDiskMediumFileDataRow(@Pk @PartitionKey long inodeId, @MaxBytes(4096) byte[] data) {
  public static final Table<OnDiskMediumFileDataRow> TABLE =
      Table.of(OnDiskMediumFileDataRow.class);
}
