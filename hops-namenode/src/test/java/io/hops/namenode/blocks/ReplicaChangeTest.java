package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/** A datanode's receipt of a block, as the namenode applies it. */
class ReplicaChangeTest {

  /**
   * Copies of a block are on their way to two datanodes; the receipt of one is applied twice (the
   * datanode retried it, or the writer's namenode and the owner of its reports both applied it):
   * one copy arrived, the other is still pending.
   */
  @Test
  void aReceiptAppliedTwiceCountsOneArrivedCopy() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      List<DataNode> datanodes = cluster.startDatanodes(3);
      Namesystem ns = cluster.namenode().namesystem();
      BlockManager bm = ns.blocks();
      Path file = new Path("/pending/f");
      try (DistributedFileSystem fs = cluster.client()) {
        try (FSDataOutputStream out = fs.create(file, (short) 1)) {
          out.write(new byte[100]);
        }
        LocatedBlock located = fs.getClient().getLocatedBlocks(file.toString(), 0).get(0);
        ExtendedBlock block = located.getBlock();
        String holder = located.getLocations()[0].getDatanodeUuid();
        List<StorageRef> targets = new ArrayList<>();
        for (DataNode dn : datanodes) {
          if (!dn.getDatanodeUuid().equals(holder)) {
            targets.add(bm.datanodes().storagesOf(dn.getDatanodeUuid()).get(0));
          }
        }
        Storage storage = ns.storage();
        long inode;
        try (Transaction tx = storage.begin()) {
          inode =
              tx.find(
                      BlockLookupRow.TABLE,
                      BlockLookupRow.TABLE.key(block.getBlockId()),
                      LockMode.READ_COMMITTED)
                  .inodeId();
          // As the leader's replication check leaves it, having scheduled two copies.
          tx.insert(
              PendingBlockRow.TABLE,
              new PendingBlockRow(
                  inode,
                  block.getBlockId(),
                  bm.now(),
                  2,
                  targets.get(0).id() + "," + targets.get(1).id()));
          tx.commit();
        }

        for (int i = 0; i < 2; i++) {
          ns.run(
              () ->
                  new ReplicaChange(
                      bm,
                      targets.get(0),
                      block.getBlockId(),
                      block.getGenerationStamp(),
                      block.getNumBytes(),
                      true));
        }

        try (Transaction tx = storage.begin()) {
          PendingBlockRow pending =
              tx.find(
                  PendingBlockRow.TABLE,
                  PendingBlockRow.TABLE.key(inode, block.getBlockId()),
                  LockMode.READ_COMMITTED);
          assertThat(pending).isNotNull();
          assertThat(pending.numReplicasInProgress()).isEqualTo(1);
          assertThat(pending.targets()).isEqualTo(Integer.toString(targets.get(1).id()));
        }
      }
    }
  }
}
