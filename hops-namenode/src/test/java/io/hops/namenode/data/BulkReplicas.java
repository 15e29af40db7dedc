package io.hops.namenode.data;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.blocks.BlockState;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.util.UUID;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.BlockMetadataHeader;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.datanode.DatanodeUtil;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.util.DataChecksum;
import org.apache.hadoop.util.VersionInfo;

/**
 * Blocks and replicas at a real datanode's size (hundreds of thousands), made in bulk: the blocks
 * written straight into the metadata store, their replicas as the files a stock DataNode keeps in a
 * volume, so that the datanode finds them when it starts and reports them over real RPC. The blocks
 * are complete and empty (a block file of no bytes and a checksum header), which is all a block
 * report carries.
 */
public final class BulkReplicas {
  /** The generation stamp of every block made here. */
  public static final long GENERATION_STAMP = 1001;

  private static final int INSERT_BATCH = 2000;

  private BulkReplicas() {}

  /**
   * The registration of a new datanode (a fresh uuid) of namespace {@code ns}, for a test that
   * calls the datanode protocol itself ({@link io.hops.namenode.rpc.DatanodeRpc}) with a report of
   * bulk replicas.
   */
  public static DatanodeRegistration registration(NamespaceInfo ns) {
    StorageInfo storage =
        new StorageInfo(
            DataNodeLayoutVersion.getCurrentLayoutVersion(),
            ns.getNamespaceID(),
            ns.getClusterID(),
            ns.getCTime(),
            NodeType.DATA_NODE);
    return new DatanodeRegistration(
        new DatanodeID("127.0.0.1", "localhost", UUID.randomUUID().toString(), 9866, 9864, 0, 9867),
        storage,
        new ExportedBlockKeys(),
        VersionInfo.getVersion());
  }

  /**
   * Adds {@code count} complete, empty blocks with ids {@code first, first + 1, ...} to file {@code
   * inode} (after any it has), with the lookup rows a block report resolves them by.
   */
  public static void addBlocks(Storage storage, long inode, long first, int count)
      throws IOException {
    for (int done = 0; done < count; done += INSERT_BATCH) {
      try (Transaction tx = storage.begin()) {
        for (int i = done; i < Math.min(count, done + INSERT_BATCH); i++) {
          long id = first + i;
          tx.insert(
              BlockInfoRow.TABLE,
              new BlockInfoRow(
                  inode, id, i, 0, 0, GENERATION_STAMP, BlockState.COMPLETE, 0, -1, 0));
          tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(id, inode));
        }
        tx.commit();
      }
    }
  }

  /**
   * Writes finalized replicas of blocks {@code first, first + 1, ...} into the volume of a stopped
   * DataNode of block pool {@code poolId}, where its dataset looks for them (HDFS's {@code
   * finalized/subdirX/subdirY} layout), and drops the replica list the datanode saved at shutdown,
   * so that it scans the volume when it starts.
   */
  public static void writeFinalized(File volume, String poolId, long first, int count)
      throws IOException {
    File current = new File(volume, "current/" + poolId + "/current");
    File finalized = new File(current, "finalized");
    Files.deleteIfExists(new File(current, "replicas").toPath());
    byte[] header = metaHeader();
    File dir = null;
    for (int i = 0; i < count; i++) {
      long id = first + i;
      File d = DatanodeUtil.idToBlockDir(finalized, id);
      if (!d.equals(dir)) {
        Files.createDirectories(d.toPath());
        dir = d;
      }
      // A replica the leader had copied here before this restart (the block short of replicas while
      // the other datanodes restart) is the same empty block: written over, not refused.
      Files.write(new File(d, "blk_" + id).toPath(), new byte[0]);
      try (OutputStream out =
          Files.newOutputStream(
              new File(d, "blk_" + id + "_" + GENERATION_STAMP + ".meta").toPath())) {
        out.write(header);
      }
    }
  }

  /** The checksum header of a block's meta file: for an empty block, the whole file. */
  private static byte[] metaHeader() throws IOException {
    var bytes = new java.io.ByteArrayOutputStream();
    try (DataOutputStream out = new DataOutputStream(bytes)) {
      BlockMetadataHeader.writeHeader(
          out, DataChecksum.newDataChecksum(DataChecksum.Type.CRC32C, 512));
    }
    return bytes.toByteArray();
  }

  /** How many replicas the store records on storage {@code storageId}. */
  public static int recordedOn(Storage storage, int storageId) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.findKeysByIndex(ReplicaRow.TABLE, "storage_id", storageId).size();
    }
  }
}
