-- Schema of MySQL 8 / MariaDB 10.11 with InnoDB. One of two DDL files, one per SQL engine
-- (mysql.sql, ndb.sql; the embedded engine derives its layout from the row types), kept in step
-- with each other and with the DAL row types (io.hops.dal.rows) by SchemaFilesAgreeTest: same
-- tables in the same order, same columns, keys and indexes.
--
-- Tables come in the global lock order of Tables.ALL (docs/architecture.md, "Lock order").
-- Strings are VARBINARY holding UTF-8, so comparison is byte-exact and case-sensitive with no
-- trailing-space padding, as HDFS path components need. No column is textual: the default
-- charset only matters to columns added later.
-- Every table is partitioned by the DAL's partition column (docs/architecture.md, "Metadata schema"), so a partition-pruned
-- scan reads one partition, as it reads one shard on NDB.
-- Every statement is idempotent (IF NOT EXISTS), so running the file again is harmless.

-- Files, directories and symlinks. partition_id is the parent's id, or a hash of the name
-- for children of the root, so top-level directories spread over shards (docs/architecture.md, "Metadata schema").
-- name holds the UTF-8 bytes with the top bit of each byte flipped (the DAL's @SignedByteOrder):
-- VARBINARY compares unsigned and HDFS orders names as signed bytes, so the primary key is
-- then listing order and a listing page is one range scan.
-- InnoDB refuses a unique index without the partition column, so inodes.id has a
-- plain index here. Ids come from the id allocator and are unique by construction.
CREATE TABLE IF NOT EXISTS inodes (
  partition_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL,
  name VARBINARY(255) NOT NULL,
  id BIGINT NOT NULL,
  is_dir BOOLEAN NOT NULL,
  permission SMALLINT NOT NULL,
  user_id INT NOT NULL,
  group_id INT NOT NULL,
  modification_time BIGINT NOT NULL,
  access_time BIGINT NOT NULL,
  size BIGINT NOT NULL,
  replication SMALLINT NOT NULL,
  preferred_block_size BIGINT NOT NULL,
  under_construction BOOLEAN NOT NULL,
  client_name VARBINARY(3064),
  client_machine VARBINARY(1024),
  subtree_locked BOOLEAN NOT NULL,
  subtree_lock_owner BIGINT NOT NULL,
  file_stored_in_db BOOLEAN NOT NULL,
  storage_policy TINYINT NOT NULL,
  children_count INT NOT NULL,
  has_quota BOOLEAN NOT NULL,
  symlink VARBINARY(8000),
  snapshottable BOOLEAN NOT NULL DEFAULT FALSE,
  snapshot_id BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (partition_id, parent_id, name),
  KEY inodes_parent_id_idx (parent_id),
  KEY inodes_id_idx (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (partition_id) PARTITIONS 8;

-- A client's write lease.
CREATE TABLE IF NOT EXISTS leases (
  holder VARBINARY(3064) NOT NULL,
  last_update BIGINT NOT NULL,
  count INT NOT NULL,
  PRIMARY KEY (holder),
  KEY leases_last_update_idx (last_update)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (holder) PARTITIONS 8;

-- The files under construction each lease covers, a holder's files together: the file's inode
-- names its holder, so a file's row is read by key, and no index is kept.
CREATE TABLE IF NOT EXISTS lease_paths (
  holder VARBINARY(3064) NOT NULL,
  inode_id BIGINT NOT NULL,
  path VARBINARY(8000),
  last_block_id BIGINT NOT NULL,
  penultimate_block_id BIGINT NOT NULL,
  PRIMARY KEY (holder, inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (holder) PARTITIONS 8;

-- The file-related tables from here on are partitioned by the file's inode id, so one file's
-- blocks and replicas share a shard.
CREATE TABLE IF NOT EXISTS block_infos (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  block_index INT NOT NULL,
  start_offset BIGINT NOT NULL,
  num_bytes BIGINT NOT NULL,
  generation_stamp BIGINT NOT NULL,
  under_construction_state TINYINT NOT NULL,
  timestamp BIGINT NOT NULL,
  primary_node_index INT NOT NULL,
  block_recovery_id BIGINT NOT NULL,
  PRIMARY KEY (inode_id, block_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Where each block of a file begins, in file order: the blocks of a byte range are one bounded
-- range scan of the file's partition (getBlockLocations). One row per block_infos row.
CREATE TABLE IF NOT EXISTS block_offsets (
  inode_id BIGINT NOT NULL,
  start_offset BIGINT NOT NULL,
  block_index INT NOT NULL,
  block_id BIGINT NOT NULL,
  PRIMARY KEY (inode_id, start_offset, block_index)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Block id to file, for datanode reports that name only the block.
CREATE TABLE IF NOT EXISTS block_lookup (
  block_id BIGINT NOT NULL,
  inode_id BIGINT NOT NULL,
  PRIMARY KEY (block_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (block_id) PARTITIONS 8;

-- Finalized replicas, by datanode storage.
CREATE TABLE IF NOT EXISTS replicas (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  storage_id INT NOT NULL,
  replica_index INT NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id),
  KEY replicas_storage_id_idx (storage_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS corrupt_replicas (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  storage_id INT NOT NULL,
  timestamp BIGINT NOT NULL,
  reason VARBINARY(255),
  PRIMARY KEY (inode_id, block_id, storage_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS excess_replicas (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  storage_id INT NOT NULL,
  timestamp BIGINT NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS replica_under_constructions (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  storage_id INT NOT NULL,
  state TINYINT NOT NULL,
  replica_index INT NOT NULL,
  generation_stamp BIGINT NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS invalidated_blocks (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  storage_id INT NOT NULL,
  generation_stamp BIGINT NOT NULL,
  num_bytes BIGINT NOT NULL,
  PRIMARY KEY (inode_id, block_id, storage_id),
  KEY invalidated_blocks_storage_id_idx (storage_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS under_replicated_blocks (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  level INT NOT NULL,
  timestamp BIGINT NOT NULL,
  expected_replicas INT NOT NULL,
  PRIMARY KEY (inode_id, block_id),
  KEY under_replicated_blocks_level_idx (level)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS pending_blocks (
  inode_id BIGINT NOT NULL,
  block_id BIGINT NOT NULL,
  timestamp BIGINT NOT NULL,
  num_replicas_in_progress INT NOT NULL,
  targets VARBINARY(2000),
  PRIMARY KEY (inode_id, block_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Deleted files whose blocks are still being released, a batch per transaction, by the leader.
CREATE TABLE IF NOT EXISTS released_files (
  inode_id BIGINT NOT NULL,
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Quota usage snapshots keep charged: what a delete below snapshottable directory dir_id left in
-- quota directory quota_id's usage for the snapshots up to snapshot_id; at snapshot_id 2^63-1,
-- a subtree detached below a snapshot, charged until its reclaim (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS snapshot_kept_usage (
  dir_id BIGINT NOT NULL,
  snapshot_id BIGINT NOT NULL,
  inode_id BIGINT NOT NULL,
  quota_id BIGINT NOT NULL,
  ns BIGINT NOT NULL,
  ds BIGINT NOT NULL,
  PRIMARY KEY (dir_id, snapshot_id, inode_id, quota_id),
  KEY snapshot_kept_usage_quota_id_idx (quota_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (dir_id) PARTITIONS 8;

-- Quota and usage of directories that have a quota, and the usage changes not yet applied to them.
CREATE TABLE IF NOT EXISTS quota (
  inode_id BIGINT NOT NULL,
  ns_quota BIGINT NOT NULL,
  ds_quota BIGINT NOT NULL,
  ns_count BIGINT NOT NULL,
  ds_count BIGINT NOT NULL,
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Outcomes of non-idempotent calls by (client_id, call_id), so a client retrying on another
-- namenode gets the original outcome.
CREATE TABLE IF NOT EXISTS retry_cache (
  client_id VARBINARY(16) NOT NULL,
  call_id INT NOT NULL,
  state TINYINT NOT NULL,
  expiration_time BIGINT NOT NULL,
  payload VARBINARY(4000),
  PRIMARY KEY (client_id, call_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (client_id) PARTITIONS 8;

-- Subtree operations in progress (docs/architecture.md, "Subtree operations"), all in one partition.
CREATE TABLE IF NOT EXISTS on_going_subtree_ops (
  partition_id INT NOT NULL,
  inode_id BIGINT NOT NULL,
  path VARBINARY(8000),
  namenode_id BIGINT NOT NULL,
  op_type TINYINT NOT NULL,
  start_time BIGINT NOT NULL,
  user_name VARBINARY(3064),
  client_name VARBINARY(3064),
  PRIMARY KEY (partition_id, inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (partition_id) PARTITIONS 8;

-- Small-file data tiers (docs/architecture.md, "Small files in the database"): <= 1 KB, <= 2 KB, <= 4 KB, and 8 KB pieces up to 64 KB.
CREATE TABLE IF NOT EXISTS inmemory_file_data (
  inode_id BIGINT NOT NULL,
  data VARBINARY(1024),
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS ondisk_small_file_data (
  inode_id BIGINT NOT NULL,
  data VARBINARY(2048),
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS ondisk_medium_file_data (
  inode_id BIGINT NOT NULL,
  data VARBINARY(4096),
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS ondisk_large_file_data (
  inode_id BIGINT NOT NULL,
  piece_index INT NOT NULL,
  data VARBINARY(8192),
  PRIMARY KEY (inode_id, piece_index)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- Extended attributes (and, in a hidden namespace, ACLs) of an inode, partitioned with it.
CREATE TABLE IF NOT EXISTS xattrs (
  inode_id BIGINT NOT NULL,
  namespace TINYINT NOT NULL,
  name VARBINARY(1024) NOT NULL,
  value VARBINARY(16384),
  seq BIGINT NOT NULL,
  PRIMARY KEY (inode_id, namespace, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- The snapshots of a snapshottable directory, partitioned by it (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS snapshots (
  dir_id BIGINT NOT NULL,
  snapshot_id BIGINT NOT NULL,
  name VARBINARY(3064),
  modification_time BIGINT NOT NULL,
  access_time BIGINT NOT NULL,
  permission SMALLINT NOT NULL,
  user_id INT NOT NULL,
  group_id INT NOT NULL,
  children_count INT NOT NULL,
  PRIMARY KEY (dir_id, snapshot_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (dir_id) PARTITIONS 8;

-- The snapshottable directories, by inode id: what getSnapshottableDirListing scans.
CREATE TABLE IF NOT EXISTS snapshottable_dirs (
  dir_id BIGINT NOT NULL,
  PRIMARY KEY (dir_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (dir_id) PARTITIONS 8;

-- An inode entry (a directory's child by name) as it was at a snapshot, partitioned by the
-- directory (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS inode_versions (
  parent_id BIGINT NOT NULL,
  name VARBINARY(255) NOT NULL,
  snapshot_id BIGINT NOT NULL,
  present BOOLEAN NOT NULL,
  id BIGINT NOT NULL,
  is_dir BOOLEAN NOT NULL,
  permission SMALLINT NOT NULL,
  user_id INT NOT NULL,
  group_id INT NOT NULL,
  modification_time BIGINT NOT NULL,
  access_time BIGINT NOT NULL,
  size BIGINT NOT NULL,
  replication SMALLINT NOT NULL,
  preferred_block_size BIGINT NOT NULL,
  under_construction BOOLEAN NOT NULL,
  file_stored_in_db BOOLEAN NOT NULL,
  storage_policy TINYINT NOT NULL,
  children_count INT NOT NULL,
  has_quota BOOLEAN NOT NULL,
  symlink VARBINARY(8000),
  PRIMARY KEY (parent_id, name, snapshot_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (parent_id) PARTITIONS 8;

-- A file deleted or overwritten while a snapshot of directory dir_id had it: its blocks are kept
-- until the directory has no snapshot with an id up to snapshot_id (docs/architecture.md,
-- "Snapshots").
CREATE TABLE IF NOT EXISTS snapshot_kept_files (
  dir_id BIGINT NOT NULL,
  snapshot_id BIGINT NOT NULL,
  inode_id BIGINT NOT NULL,
  PRIMARY KEY (dir_id, snapshot_id, inode_id),
  KEY snapshot_kept_files_inode_id_idx (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (dir_id) PARTITIONS 8;

-- The xattrs and ACL (hidden namespace) of an inode entry as they were at a snapshot, written with
-- the entry's version in inode_versions (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS xattr_versions (
  parent_id BIGINT NOT NULL,
  entry_name VARBINARY(255) NOT NULL,
  snapshot_id BIGINT NOT NULL,
  namespace TINYINT NOT NULL,
  name VARBINARY(1024) NOT NULL,
  value VARBINARY(16384),
  seq BIGINT NOT NULL,
  PRIMARY KEY (parent_id, entry_name, snapshot_id, namespace, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (parent_id) PARTITIONS 8;

-- Blocks a file's snapshots have that truncates after them took from the live file
-- (copy-on-truncate), kept under tail_id; copy_id: a copy of the last block in progress
-- (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS snapshot_file_tails (
  inode_id BIGINT NOT NULL,
  snapshot_id BIGINT NOT NULL,
  tail_id BIGINT NOT NULL,
  copy_id BIGINT NOT NULL,
  PRIMARY KEY (inode_id, snapshot_id),
  KEY snapshot_file_tails_tail_id_idx (tail_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- The replication of a file kept for snapshots, which the replication check expects of its blocks
-- once no live inode has its id (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS snapshot_kept_replication (
  inode_id BIGINT NOT NULL,
  replication SMALLINT NOT NULL,
  PRIMARY KEY (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- An entry a file left by a rename while a snapshot of dir_id had it there (HDFS's WithName
-- reference): where its snapshots have it (docs/architecture.md, "Snapshots").
CREATE TABLE IF NOT EXISTS snapshot_earlier_entries (
  inode_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL,
  name VARBINARY(255) NOT NULL,
  dir_id BIGINT NOT NULL,
  PRIMARY KEY (inode_id, parent_id, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (inode_id) PARTITIONS 8;

-- An inode that left entry (parent_id, name) by a rename while the entry's latest snapshot,
-- snapshot_id, had it there (HDFS's WithName reference): what a diff report follows
-- (docs/architecture.md, "Snapshots", "Diff reports").
CREATE TABLE IF NOT EXISTS snapshot_renamed_entries (
  parent_id BIGINT NOT NULL,
  name VARBINARY(255) NOT NULL,
  snapshot_id BIGINT NOT NULL,
  inode_id BIGINT NOT NULL,
  PRIMARY KEY (parent_id, name, snapshot_id),
  KEY snapshot_renamed_entries_inode_id_idx (inode_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (parent_id) PARTITIONS 8;

-- The versions (inode_versions) written below directory dir_id (the snapshottable or held one
-- whose snapshots read them) at snapshot snapshot_id, in snapshot order: what a deleteSnapshot
-- judges to reclaim versions no snapshot reads. Partition 0: reclaims not finished yet
-- (docs/architecture.md, "Snapshots", "Reclaiming versions").
CREATE TABLE IF NOT EXISTS snapshot_version_log (
  dir_id BIGINT NOT NULL,
  snapshot_id BIGINT NOT NULL,
  parent_id BIGINT NOT NULL,
  name VARBINARY(255) NOT NULL,
  PRIMARY KEY (dir_id, snapshot_id, parent_id, name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (dir_id) PARTITIONS 8;

-- User and group names, stored once and referenced by id.
CREATE TABLE IF NOT EXISTS hdfs_users (
  id INT NOT NULL,
  name VARBINARY(3064),
  PRIMARY KEY (id),
  KEY hdfs_users_name_idx (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (id) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS hdfs_groups (
  id INT NOT NULL,
  name VARBINARY(3064),
  PRIMARY KEY (id),
  KEY hdfs_groups_name_idx (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (id) PARTITIONS 8;

-- The text of names too wide to be keys, in 8 KB pieces, under their digest keys.
CREATE TABLE IF NOT EXISTS long_names (
  name_key VARBINARY(80) NOT NULL,
  piece INT NOT NULL,
  data VARBINARY(8192),
  PRIMARY KEY (name_key, piece)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (name_key) PARTITIONS 8;

-- Registered datanodes and their storages.
CREATE TABLE IF NOT EXISTS datanodes (
  datanode_uuid VARBINARY(64) NOT NULL,
  hostname VARBINARY(255),
  ip_address VARBINARY(64),
  xfer_port INT NOT NULL,
  info_port INT NOT NULL,
  info_secure_port INT NOT NULL,
  ipc_port INT NOT NULL,
  network_location VARBINARY(255),
  admin_state TINYINT NOT NULL,
  registered_at BIGINT NOT NULL,
  PRIMARY KEY (datanode_uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (datanode_uuid) PARTITIONS 8;

CREATE TABLE IF NOT EXISTS storages (
  storage_id INT NOT NULL,
  storage_uuid VARBINARY(64),
  datanode_uuid VARBINARY(64),
  storage_type TINYINT NOT NULL,
  state TINYINT NOT NULL,
  PRIMARY KEY (storage_id),
  KEY storages_storage_uuid_idx (storage_uuid),
  KEY storages_datanode_uuid_idx (datanode_uuid)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (storage_id) PARTITIONS 8;

-- The hosts lists of the last refreshNodes (dfs.hosts: list 0, dfs.hosts.exclude: list 1).
CREATE TABLE IF NOT EXISTS datanode_hosts (
  hosts_list TINYINT NOT NULL,
  entry VARBINARY(255) NOT NULL,
  PRIMARY KEY (hosts_list, entry)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (hosts_list) PARTITIONS 2;

-- Leader election heartbeats, one row per namenode (docs/architecture.md, "Leader election").
CREATE TABLE IF NOT EXISTS le_descriptors (
  id BIGINT NOT NULL,
  counter BIGINT NOT NULL,
  hostname VARBINARY(255),
  rpc_address VARBINARY(255),
  http_address VARBINARY(255),
  start_time BIGINT NOT NULL,
  incarnation BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (id) PARTITIONS 8;

-- Block access keys of each block pool: made and rolled by the leader, read by every namenode.
CREATE TABLE IF NOT EXISTS block_keys (
  block_pool_id VARBINARY(64) NOT NULL,
  key_id INT NOT NULL,
  expiry_date BIGINT NOT NULL,
  made_current BIGINT NOT NULL,
  secret VARBINARY(256),
  PRIMARY KEY (block_pool_id, key_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (block_pool_id) PARTITIONS 8;

-- Delegation token master keys of the namespace: made and rolled by the leader, read by every namenode.
CREATE TABLE IF NOT EXISTS delegation_keys (
  block_pool_id VARBINARY(64) NOT NULL,
  key_id INT NOT NULL,
  expiry_date BIGINT NOT NULL,
  made_current BIGINT NOT NULL,
  secret VARBINARY(256),
  PRIMARY KEY (block_pool_id, key_id)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (block_pool_id) PARTITIONS 8;

-- Delegation tokens issued and not cancelled: any namenode verifies, renews and cancels them.
CREATE TABLE IF NOT EXISTS delegation_tokens (
  block_pool_id VARBINARY(64) NOT NULL,
  sequence_number INT NOT NULL,
  identifier VARBINARY(2048),
  renew_date BIGINT NOT NULL,
  max_date BIGINT NOT NULL,
  PRIMARY KEY (block_pool_id, sequence_number)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (block_pool_id) PARTITIONS 8;

-- Named values: id counters handed out in ranges, namespace ids, settings.
CREATE TABLE IF NOT EXISTS variables (
  name VARBINARY(64) NOT NULL,
  long_value BIGINT NOT NULL,
  bytes_value VARBINARY(4000),
  PRIMARY KEY (name)
) ENGINE=InnoDB DEFAULT CHARSET=utf8mb4 ROW_FORMAT=DYNAMIC
  PARTITION BY KEY (name) PARTITIONS 8;
