package io.hops.namenode.blocks;

/** One storage of a datanode, as its last heartbeat reported it. */
public final class StorageStat {
  public final StorageRef ref;
  public volatile long capacity;
  public volatile long dfsUsed;
  public volatile long remaining;
  public volatile long blockPoolUsed;
  public volatile boolean failed;

  StorageStat(StorageRef ref) {
    this.ref = ref;
  }
}
