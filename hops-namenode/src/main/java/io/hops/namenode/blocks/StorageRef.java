package io.hops.namenode.blocks;

import org.apache.hadoop.fs.StorageType;

/**
 * A datanode storage as the block tables name it: a small integer id (the {@code storage_id} of
 * {@code replicas} and friends) for the datanode's storage uuid. The mapping never changes once
 * made, so namenodes cache it freely.
 */
public record StorageRef(int id, String storageUuid, String datanodeUuid, StorageType type) {}
