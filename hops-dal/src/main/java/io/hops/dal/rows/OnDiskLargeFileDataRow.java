package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** One 8 KB piece of a small file of up to 64 KB, on disk. */
@TableName("ondisk_large_file_data")
public record OnDiskLargeFileDataRow(
    @Pk @PartitionKey long inodeId, @Pk int pieceIndex, @MaxBytes(8192) byte[] data) {
  public static final Table<OnDiskLargeFileDataRow> TABLE = Table.of(OnDiskLargeFileDataRow.class);
}
