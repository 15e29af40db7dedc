package io.hops.namenode.blocks;

/**
 * What a datanode reported of one replica on one of its storages: an entry of an incremental report
 * (received, {@code added}, or deleted), or a difference a full report shows against the stored
 * replicas. Plain data, so that a transaction's attempts each build fresh {@link ReplicaChange}s
 * from it. {@code onEmptyStorage}: a replica a full report adds to a storage whose index held no
 * replica when the report was compared with it (see {@link ReplicaChange}).
 */
public record ReportedReplica(
    StorageRef storage,
    long blockId,
    long genStamp,
    long numBytes,
    boolean added,
    boolean onEmptyStorage) {

  public ReportedReplica(
      StorageRef storage, long blockId, long genStamp, long numBytes, boolean added) {
    this(storage, blockId, genStamp, numBytes, added, false);
  }

  /** The operation applying it, fresh for a transaction's attempt. */
  ReplicaChange change(BlockManager bm) {
    return new ReplicaChange(bm, storage, blockId, genStamp, numBytes, added, onEmptyStorage);
  }
}
