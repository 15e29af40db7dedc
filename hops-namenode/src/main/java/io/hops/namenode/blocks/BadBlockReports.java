package io.hops.namenode.blocks;

import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code reportBadBlocks} of ClientProtocol and DatanodeProtocol (HDFS
 * FSNamesystem.reportBadBlocks): every named location of every block is marked corrupt, one {@link
 * MarkCorrupt} transaction each.
 */
public final class BadBlockReports {
  private static final Logger LOG = LoggerFactory.getLogger(BadBlockReports.class);

  /** HDFS gives this reason whoever reports. */
  private static final String REASON = "client machine reported it";

  private BadBlockReports() {}

  public static void report(BlockManager bm, TransactionRunner runner, LocatedBlock[] blocks)
      throws IOException {
    DatanodeManager dm = bm.datanodes();
    for (LocatedBlock lb : blocks) {
      ExtendedBlock blk = lb.getBlock();
      DatanodeInfo[] nodes = lb.getLocations();
      String[] storageIds = lb.getStorageIDs();
      for (int j = 0; j < nodes.length; j++) {
        DatanodeInfo dn = nodes[j];
        LOG.info("*DIR* reportBadBlocks for block: {} on datanode: {}", blk, dn.getXferAddr());
        DatanodeState node = dn.getDatanodeUuid() == null ? null : dm.node(dn.getDatanodeUuid());
        if (node == null) {
          throw new IOException(
              "Cannot mark "
                  + blk
                  + " as corrupt because datanode "
                  + dn
                  + " ("
                  + dn.getDatanodeUuid()
                  + ") does not exist");
        }
        StorageRef named = named(dm, storageIds, j, node.uuid());
        runner.run(() -> new MarkCorrupt(bm, blk.getBlockId(), node.uuid(), named, REASON));
      }
    }
  }

  /** The storage the report names, if it is one of that datanode's. */
  private static StorageRef named(DatanodeManager dm, String[] ids, int j, String datanodeUuid)
      throws IOException {
    if (ids == null || j >= ids.length || ids[j] == null || ids[j].isEmpty()) {
      return null;
    }
    StorageRef ref = dm.findStorage(ids[j]);
    return ref != null && ref.datanodeUuid().equals(datanodeUuid) ? ref : null;
  }
}
