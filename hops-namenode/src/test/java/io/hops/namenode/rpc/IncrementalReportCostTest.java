package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo.BlockStatus;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.junit.jupiter.api.Test;

/**
 * An incremental block report ({@code blockReceivedAndDeleted}) is applied in one transaction per
 * message, not one per entry, and cut only where the row bound ({@code
 * hops.namenode.transaction.max-rows}) or a block named twice asks. The reports are sent over the
 * namenode's real RPC with a stock DataNode's registration and storages, for blocks the stock
 * client wrote to it; every committed transaction is seen by the runner's observer.
 */
class IncrementalReportCostTest {
  private static final int BLOCK = 1024;
  private static final String OP = "blockReceivedAndDeleted";

  /** One observed transaction: its operation and its rows read and written. */
  private record Seen(String op, AccessCounts counts) {}

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // no re-replication
    return conf;
  }

  @Test
  void receiptsAndDeletionsOfOneMessageAreAppliedInOneTransaction() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      DataNode dn = cluster.startDatanodes(1).get(0);
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/ibr/f");
        List<LocatedBlock> blocks = write(fs, p, 20);
        long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
        Storage storage = cluster.namenode().namesystem().storage();
        assertThat(replicas(storage, inode)).hasSize(20);
        String on = blocks.get(0).getStorageIDs()[0];
        TransactionRunner runner = cluster.namenode().namesystem().runner();

        List<Seen> seen = observe(runner);
        send(cluster, dn, entries(on, blocks, BlockStatus.DELETED_BLOCK));
        assertThat(ops(seen)).containsExactly(OP);
        assertThat(replicas(storage, inode)).isEmpty();

        seen = observe(runner);
        send(cluster, dn, entries(on, blocks, BlockStatus.RECEIVED_BLOCK));
        assertThat(ops(seen)).containsExactly(OP);
        assertThat(replicas(storage, inode)).hasSize(20);
      }
    }
  }

  @Test
  void aMessageOverTheRowBoundIsAppliedInTransactionsUnderIt() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      DataNode dn = cluster.startDatanodes(1).get(0);
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/ibr/f");
        List<LocatedBlock> blocks = write(fs, p, 25);
        long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
        Storage storage = cluster.namenode().namesystem().storage();
        String on = blocks.get(0).getStorageIDs()[0];
        TransactionRunner runner = cluster.namenode().namesystem().runner();
        int bound = 120; // ten entries a transaction
        runner.boundRows(bound);

        List<Seen> seen = observe(runner);
        send(cluster, dn, entries(on, blocks, BlockStatus.DELETED_BLOCK));
        assertThat(ops(seen)).containsExactly(OP, OP, OP);
        for (Seen s : seen) {
          assertThat(s.counts().rowsRead() + s.counts().rowsWritten()).isLessThanOrEqualTo(bound);
        }
        assertThat(replicas(storage, inode)).isEmpty();
      }
    }
  }

  /**
   * A replica moved from one storage of a datanode to another (HDFS's mover): one message says it
   * was received on the new storage and deleted on the old one. Both are applied, in order.
   */
  @Test
  void aReplicaMovedBetweenStoragesInOneMessageEndsOnTheNewStorage() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      DataNode dn = cluster.startTypedDatanodes(1, StorageType.DISK, StorageType.DISK).get(0);
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/ibr/f");
        List<LocatedBlock> blocks = write(fs, p, 1);
        long inode = fs.getClient().getFileInfo(p.toString()).getFileId();
        Storage storage = cluster.namenode().namesystem().storage();
        String from = blocks.get(0).getStorageIDs()[0];
        List<StorageRef> storages =
            cluster.namenode().namesystem().blocks().datanodes().storagesOf(dn.getDatanodeUuid());
        assertThat(storages).hasSize(2);
        StorageRef to =
            storages.stream().filter(s -> !s.storageUuid().equals(from)).findFirst().orElseThrow();

        List<StorageReceivedDeletedBlocks> message = new ArrayList<>();
        message.addAll(entries(to.storageUuid(), blocks, BlockStatus.RECEIVED_BLOCK));
        message.addAll(entries(from, blocks, BlockStatus.DELETED_BLOCK));
        send(cluster, dn, message);
        assertThat(replicas(storage, inode))
            .extracting(ReplicaRow::storageId)
            .containsExactly(to.id());
      }
    }
  }

  private static List<Seen> observe(TransactionRunner runner) {
    List<Seen> seen = Collections.synchronizedList(new ArrayList<>());
    runner.observe((op, c) -> seen.add(new Seen(op, c)));
    return seen;
  }

  /** The names of the replica-changing transactions seen. */
  private static List<String> ops(List<Seen> seen) {
    synchronized (seen) {
      return seen.stream()
          .map(Seen::op)
          .filter(op -> op.startsWith("block") && !op.equals("blockReportBatch"))
          .toList();
    }
  }

  /** Writes {@code n} blocks of one replica, waits until all are recorded, and locates them. */
  private static List<LocatedBlock> write(DistributedFileSystem fs, Path p, int n)
      throws Exception {
    try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, BLOCK)) {
      out.write(new byte[n * BLOCK]);
    }
    HopsTestCluster.awaitReplicas(fs, p, 1);
    List<LocatedBlock> blocks =
        fs.getClient().getLocatedBlocks(p.toString(), 0, Long.MAX_VALUE).getLocatedBlocks();
    assertThat(blocks).hasSize(n);
    return blocks;
  }

  /** One storage's entries of {@code status} for every block. */
  private static List<StorageReceivedDeletedBlocks> entries(
      String storageId, List<LocatedBlock> blocks, BlockStatus status) {
    ReceivedDeletedBlockInfo[] infos = new ReceivedDeletedBlockInfo[blocks.size()];
    for (int i = 0; i < infos.length; i++) {
      Block b = blocks.get(i).getBlock().getLocalBlock();
      infos[i] = new ReceivedDeletedBlockInfo(new Block(b), status, null);
    }
    return List.of(new StorageReceivedDeletedBlocks(new DatanodeStorage(storageId), infos));
  }

  /** Sends {@code message} as {@code dn}'s incremental report, over the namenode's RPC. */
  private static void send(
      HopsTestCluster cluster, DataNode dn, List<StorageReceivedDeletedBlocks> message)
      throws IOException {
    String pool = cluster.namenode().namesystem().blocks().blockPoolId();
    DatanodeRegistration reg = dn.getDNRegistrationForBP(pool);
    DatanodeProtocolClientSideTranslatorPB namenode =
        new DatanodeProtocolClientSideTranslatorPB(
            cluster.namenode().address(), new Configuration());
    try {
      namenode.blockReceivedAndDeleted(
          reg, pool, message.toArray(new StorageReceivedDeletedBlocks[0]));
    } finally {
      namenode.close();
    }
  }

  private static List<ReplicaRow> replicas(Storage storage, long inode) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(ReplicaRow.TABLE, inode, LockMode.READ_COMMITTED);
    }
  }
}
