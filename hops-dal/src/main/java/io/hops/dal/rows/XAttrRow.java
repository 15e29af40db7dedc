package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * One extended attribute of an inode, partitioned with it: {@code namespace} is the ordinal of
 * Hadoop's {@code XAttr.NameSpace} (user, trusted, security, system, raw), or {@link #HIDDEN} for
 * what the namenode keeps about an inode that no xattr call shows (its ACL). {@code seq} orders an
 * inode's attributes as HDFS keeps them: each set (new or replaced) takes a larger one than the
 * inode's others, and the latest comes first.
 */
@TableName("xattrs")
public record XAttrRow(
    @Pk @PartitionKey long inodeId,
    @Pk byte namespace,
    @Pk @MaxBytes(1024) String name,
    @MaxBytes(16384) byte[] value,
    long seq) {
  public static final Table<XAttrRow> TABLE = Table.of(XAttrRow.class);

  /** The namespace of rows no xattr call lists or returns. */
  public static final byte HIDDEN = 100;
}
