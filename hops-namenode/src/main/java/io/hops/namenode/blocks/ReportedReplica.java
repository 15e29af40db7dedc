package io.hops.namenode.blocks;

/**
 * What a datanode reported of one replica on one of its storages: an entry of an incremental report
 * (received, {@code added}, or deleted), or a difference a full report shows against the stored
 * replicas. Plain data, so that a transaction's attempts each build fresh {@link ReplicaChange}s
 * from it.
 */
public record ReportedReplica(
    StorageRef storage, long blockId, long genStamp, long numBytes, boolean added) {

  /** The operation applying it, fresh for a transaction's attempt. */
  ReplicaChange change(BlockManager bm) {
    return new ReplicaChange(bm, storage, blockId, genStamp, numBytes, added);
  }
}
