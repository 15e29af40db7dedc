package io.hops.dal.rows;

import io.hops.dal.schema.MaxBytes;
import io.hops.dal.schema.PartitionKey;
import io.hops.dal.schema.Pk;
import io.hops.dal.schema.SignedByteOrder;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.TableName;

/**
 * One attribute row ({@link XAttrRow}: an extended attribute, or in the hidden namespace the ACL)
 * of the inode that entry {@code entryName} of directory {@code parentId} had at snapshot {@code
 * snapshotId}: written with the entry's version ({@link InodeVersionRow}, same key), which says by
 * its flags whether the inode had any. Partitioned by the directory, like the versions
 * (docs/architecture.md, "Snapshots").
 *
 * <p>A snapshottable directory keeps its own attributes at its snapshots in its own partition under
 * {@link #OWN} (HDFS keeps them in the directory's DirectoryDiff): which it had at a snapshot its
 * {@code snapshots} row's flags say, and which they were the earliest rows here at that snapshot or
 * later, else its live ones.
 */
@TableName("xattr_versions")
public record XAttrVersionRow(
    @Pk @PartitionKey long parentId,
    @Pk @SignedByteOrder @MaxBytes(255) String entryName,
    @Pk long snapshotId,
    @Pk byte namespace,
    @Pk @MaxBytes(1024) String name,
    @MaxBytes(16384) byte[] value,
    long seq) {
  public static final Table<XAttrVersionRow> TABLE = Table.of(XAttrVersionRow.class);

  /** The entry name of a snapshottable directory's own attributes: no child has it. */
  public static final String OWN = ".";

  public static XAttrVersionRow of(long parentId, String entryName, long snapshotId, XAttrRow r) {
    return new XAttrVersionRow(
        parentId, entryName, snapshotId, r.namespace(), r.name(), r.value(), r.seq());
  }

  /** The attribute row as the inode {@code inodeId} had it. */
  public XAttrRow toXAttr(long inodeId) {
    return new XAttrRow(inodeId, namespace, name, value, seq);
  }
}
