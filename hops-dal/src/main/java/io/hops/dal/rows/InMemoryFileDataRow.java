package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/** The bytes of a small file of at most 1 KB, in a memory table. */
@TableName("inmemory_file_data")
public record InMemoryFileDataRow(@Pk @PartitionKey long inodeId, @MaxBytes(1024) byte[] data) {
  public static final Table<InMemoryFileDataRow> TABLE = Table.of(InMemoryFileDataRow.class);
}
