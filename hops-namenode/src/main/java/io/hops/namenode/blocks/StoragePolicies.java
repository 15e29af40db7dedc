package io.hops.namenode.blocks;

import io.hops.dal.rows.InodeRow;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.blockmanagement.BlockStoragePolicySuite;

/**
 * The storage policies a hops namenode knows: HDFS's built-in suite as Hadoop 3.5.0 reports it,
 * plus {@code DB}, hops's policy for directories whose small files live in the database
 * (docs/architecture.md, "Small files in the database"; its blocks, once a file outgrows the
 * database, go to DISK as under HOT). A policy is inherited as in HDFS: an inode without one of its
 * own takes its nearest ancestor's.
 */
public final class StoragePolicies {
  /**
   * The id of {@code DB}: one HDFS's suite leaves free (ids are 4 bits, HDFS uses 1..15 sparsely).
   */
  public static final byte DB_POLICY_ID = 9;

  public static final String DB_POLICY_NAME = "DB";

  private static final BlockStoragePolicySuite HDFS = BlockStoragePolicySuite.createDefaultSuite();
  private static final BlockStoragePolicy DB =
      new BlockStoragePolicy(
          DB_POLICY_ID,
          DB_POLICY_NAME,
          new StorageType[] {StorageType.DISK},
          StorageType.EMPTY_ARRAY,
          new StorageType[] {StorageType.ARCHIVE});

  private StoragePolicies() {}

  /** Every policy, in id order as HDFS lists them. */
  public static BlockStoragePolicy[] all() {
    List<BlockStoragePolicy> out = new ArrayList<>(List.of(HDFS.getAllPolicies()));
    out.add(DB);
    out.sort((a, b) -> Byte.compare(a.getId(), b.getId()));
    return out.toArray(new BlockStoragePolicy[0]);
  }

  /** The policy of this name, or null (matched ignoring case, as HDFS does). */
  public static BlockStoragePolicy byName(String name) {
    if (DB_POLICY_NAME.equalsIgnoreCase(name)) {
      return DB;
    }
    return HDFS.getPolicy(name);
  }

  /** The policy of this id; unspecified means the default (HOT), as in HDFS's BlockManager. */
  public static BlockStoragePolicy byId(byte id) {
    return id == DB_POLICY_ID ? DB : HDFS.getPolicy(id);
  }

  /** The policy files get when nothing on their path names one: HOT, as in HDFS. */
  public static BlockStoragePolicy defaultPolicy() {
    return HDFS.getDefaultPolicy();
  }

  /**
   * The effective policy id of the last of {@code path} (root first): its own, else its nearest
   * ancestor's, else unspecified.
   */
  public static byte effective(List<InodeRow> path) {
    for (int i = path.size() - 1; i >= 0; i--) {
      byte id = path.get(i).storagePolicy();
      if (id != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED) {
        return id;
      }
    }
    return HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED;
  }

  /**
   * The policy that places the blocks of {@code file}, whose path (root first) is {@code path} if
   * it ends at the file: the effective one, or the default; a file found off that path (renamed
   * while open) has only its own.
   */
  public static BlockStoragePolicy ofFile(List<InodeRow> path, InodeRow file) {
    boolean onPath = !path.isEmpty() && path.get(path.size() - 1).id() == file.id();
    return byId(onPath ? effective(path) : file.storagePolicy());
  }

  /** {@code own} if set, else {@code inherited} (a child's policy in a listing). */
  public static byte orInherited(byte own, byte inherited) {
    return own != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED ? own : inherited;
  }
}
