package io.hops.namenode.rpc;

import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;

/**
 * Encryption zones as HDFS answers without a key provider: no zone anywhere, and none can be made
 * ({@link FeaturesOff}).
 */
final class EncryptionZonesOff extends AbsentFeature {

  private final BlockTokens blockTokens;

  EncryptionZonesOff(
      TransactionRunner runner, PermissionCheckers checkers, BlockTokens blockTokens) {
    super(runner, checkers);
    this.blockTokens = blockTokens;
  }

  EncryptionZone getEZForPath(String src) throws IOException {
    return checkPath("getEZForPath", src, FsAction.READ, p -> null);
  }

  /** The root, as for every path outside an encryption zone (HDFS's answer without a mount). */
  Path getEnclosingRoot(String src) throws IOException {
    getEZForPath(src);
    return new Path("/");
  }

  BatchedEntries<EncryptionZone> listEncryptionZones(long prevId) throws IOException {
    superuser("listEncryptionZones");
    return none();
  }

  void createEncryptionZone(String src, String keyName) throws IOException {
    superuser("createEncryptionZone");
    throw new IOException(
        "Can't create an encryption zone for " + src + " since no key provider is available.");
  }

  void reencryptEncryptionZone(String zone, HdfsConstants.ReencryptAction action)
      throws IOException {
    superuser("reencryptEncryptionZone");
    throw new IOException("No key provider configured, re-encryption operation is rejected");
  }

  BatchedEntries<ZoneReencryptionStatus> listReencryptionStatus(long prevId) throws IOException {
    superuser("listReencryptionStatus");
    return none();
  }

  /**
   * Null, as HDFS answers, unless {@code dfs.encrypt.data.transfer} and block tokens are on: then a
   * key from the block keys in the database ({@link io.hops.namenode.security.BlockTokens}).
   */
  DataEncryptionKey getDataEncryptionKey() throws IOException {
    return blockTokens.dataEncryptionKey();
  }
}
