package io.hops.namenode.rpc;

import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.util.DataChecksum;

/**
 * The answer to {@code getServerDefaults}: what HDFS's FSNamesystem reports from its settings,
 * except that hops has no key provider and no snapshots. The default storage policy is HOT, as in
 * HDFS. Whether data transfer is encrypted is {@code dfs.encrypt.data.transfer} with block tokens
 * on.
 */
final class ServerDefaults {
  private ServerDefaults() {}

  static FsServerDefaults of(Configuration conf, boolean encryptDataTransfer) throws IOException {
    String checksum =
        conf.get(DFSConfigKeys.DFS_CHECKSUM_TYPE_KEY, DFSConfigKeys.DFS_CHECKSUM_TYPE_DEFAULT);
    DataChecksum.Type checksumType;
    try {
      checksumType = DataChecksum.Type.valueOf(checksum);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "Invalid checksum type in " + DFSConfigKeys.DFS_CHECKSUM_TYPE_KEY + ": " + checksum, e);
    }
    return new FsServerDefaults(
        conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_DEFAULT),
        conf.getInt(
            HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_KEY,
            HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_DEFAULT),
        (short)
            conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT),
        conf.getInt(
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_KEY,
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_DEFAULT),
        encryptDataTransfer,
        conf.getLong(
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_KEY,
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_DEFAULT),
        checksumType,
        "",
        HdfsConstants.HOT_STORAGE_POLICY_ID,
        false);
  }
}
