package io.hops.dal.rows;

import io.hops.dal.schema.AscendingKeys;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * A file under construction held by a lease holder. Keyed by the holder and then the file, and
 * partitioned by the holder: a holder's files are one partition (the leader's lease expiry, HDFS's
 * "pending creates"), and a file's row is found from its inode, whose {@code clientName} names the
 * holder, without an index to keep. A holder's new files take new, growing ids, so a new row's key
 * is mostly above every key of its partition ({@link AscendingKeys}).
 */
@AscendingKeys
@TableName("lease_paths")
public record LeasePathRow(
    @Pk @PartitionKey @MaxBytes(MaxBytes.NAME) String holder,
    @Pk long inodeId,
    @MaxBytes(8000) String path,
    long lastBlockId,
    long penultimateBlockId) {
  public static final Table<LeasePathRow> TABLE = Table.of(LeasePathRow.class);

  /** The key of {@code holder}'s lease path of the file {@code inodeId}. */
  public static Key key(String holder, long inodeId) {
    return TABLE.key(holder, inodeId);
  }
}
