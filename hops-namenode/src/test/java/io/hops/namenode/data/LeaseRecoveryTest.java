package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.concat;
import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.leases.LeaseManager;
import java.io.IOException;
import java.util.Arrays;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSOutputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;

/**
 * A writer dies with its file open: recoverLease from another client, or the hard limit of its
 * lease, recovers the last block on the datanodes (BlockRecoveryCommand, then the primary's
 * commitBlockSynchronization) and closes the file with the bytes that reached every replica.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class LeaseRecoveryTest {
  private static final int BLOCK = 1024 * 1024;
  private static final int HARD_LIMIT_SECONDS = 4;
  private static final long RECOVERY_TIMEOUT_MS = 5000;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong("dfs.namenode.lease-hard-limit-sec", HARD_LIMIT_SECONDS);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 500);
    conf.setLong(LeaseManager.BLOCK_RECOVERY_TIMEOUT_MS, RECOVERY_TIMEOUT_MS);
    cluster = new HopsTestCluster(conf);
    // A recovery that meets a stopped datanode gives up on it quickly.
    Configuration dn = new Configuration(false);
    dn.setInt("ipc.client.connect.max.retries", 1);
    dn.setInt("ipc.client.connect.retry.interval", 200);
    cluster.startDatanodes(3, dn);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  /**
   * A writer that hflushes {@code flushed}, writes {@code unflushed} more, and dies: its streams
   * are aborted (nothing completes) and it stops renewing its lease.
   */
  private static void writeAndDie(Path p, byte[] flushed, byte[] unflushed) throws IOException {
    DistributedFileSystem writer = cluster.client();
    FSDataOutputStream out = writer.create(p, true, 4096, (short) 3, BLOCK);
    out.write(flushed);
    out.hflush();
    out.write(unflushed);
    writer.getClient().closeOutputStreams(true);
    writer.close();
  }

  /** The file holds a prefix of what was written, at least every hflushed byte. */
  private static void assertRecovered(
      DistributedFileSystem client, Path p, byte[] flushed, byte[] all) throws IOException {
    assertThat(client.isFileClosed(p)).isTrue();
    byte[] back = read(client, p);
    assertThat(back.length).isBetween(flushed.length, all.length);
    assertThat(back).isEqualTo(Arrays.copyOf(all, back.length));
    assertThat(client.getFileStatus(p).getLen()).isEqualTo(back.length);
  }

  private static LeaseRow lease(String holder) throws IOException {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED);
    }
  }

  @Test
  void recoverLeaseOfADeadWritersFileReturnsFalseThenTrue() throws Exception {
    Path p = new Path("/recovery/dead-writer");
    byte[] flushed = bytes(BLOCK + 300 * 1024, 1);
    byte[] unflushed = bytes(70 * 1024, 2);
    writeAndDie(p, flushed, unflushed);
    try (DistributedFileSystem other = cluster.client()) {
      assertThat(other.recoverLease(p)).as("recovery needs the datanodes").isFalse();
      assertThat(other.isFileClosed(p)).isFalse();
      eventually(30, "recoverLease of " + p + " answers true", () -> other.recoverLease(p));
      assertRecovered(other, p, flushed, concat(flushed, unflushed));
      // The file is an ordinary closed file again: it can be appended to.
      byte[] before = read(other, p);
      byte[] more = bytes(1000, 3);
      try (FSDataOutputStream out = other.append(p)) {
        out.write(more);
      }
      assertThat(read(other, p)).isEqualTo(concat(before, more));
    }
  }

  @Test
  void theHardLimitClosesAFileWithBlocksThroughHousekeeping() throws Exception {
    Path p = new Path("/recovery/hard-limit");
    byte[] flushed = bytes(200 * 1024, 4);
    byte[] unflushed = bytes(10 * 1024, 5);
    writeAndDie(p, flushed, unflushed);
    try (DistributedFileSystem other = cluster.client()) {
      eventually(
          HARD_LIMIT_SECONDS + 30,
          p + " closed by lease expiry and block recovery",
          () -> other.isFileClosed(p));
      assertRecovered(other, p, flushed, concat(flushed, unflushed));
    }
  }

  @Test
  void aRecoveryStartedOnAnotherNamenodeIsSentByTheLeader() throws Exception {
    Path p = new Path("/recovery/non-leader");
    byte[] flushed = bytes(100 * 1024, 6);
    byte[] unflushed = bytes(1000, 7);
    writeAndDie(p, flushed, unflushed);
    HopsNameNode second = cluster.startAnotherNamenode();
    try (DistributedFileSystem viaSecond = cluster.client(second)) {
      assertThat(viaSecond.recoverLease(p)).isFalse();
      eventually(
          30, "recoverLease through the non-leader answers true", () -> viaSecond.recoverLease(p));
      assertRecovered(viaSecond, p, flushed, concat(flushed, unflushed));
    } finally {
      second.close();
    }
  }

  @Test
  void aLastBlockNoDatanodeWroteToIsDeletedByItsRecovery() throws Exception {
    String path = "/recovery/empty-last-block";
    ClientProtocol nn = fs.getClient().getNamenode();
    String deadClient = "DFSClient_dead_" + System.nanoTime();
    HdfsFileStatus st =
        nn.create(
            path,
            FsPermission.getFileDefault(),
            deadClient,
            new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
            true,
            (short) 3,
            BLOCK,
            CryptoProtocolVersion.supported(),
            null,
            null);
    nn.addBlock(path, deadClient, null, null, st.getFileId(), null, null);
    try (DistributedFileSystem other = cluster.client()) {
      // The block has a pipeline, so its datanodes are asked; none has a replica, and the
      // primary's commitBlockSynchronization deletes the block and closes the file.
      assertThat(other.recoverLease(new Path(path))).isFalse();
      eventually(30, path + " closed", () -> other.recoverLease(new Path(path)));
      assertThat(other.getFileStatus(new Path(path)).getLen()).isZero();
      assertThat(other.getFileBlockLocations(new Path(path), 0, 1)).isEmpty();
    }
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      assertThat(
              tx.findByPartition(
                  io.hops.dal.rows.LeasePathRow.TABLE, deadClient, LockMode.READ_COMMITTED))
          .as("the dead client has no open file left")
          .isEmpty();
    }
  }

  /** The last block row of a file, read from the store. */
  private static BlockInfoRow lastBlock(Path p) throws IOException {
    long id = fileId(p);
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.findByPartition(BlockInfoRow.TABLE, id, LockMode.READ_COMMITTED).stream()
          .max(java.util.Comparator.comparingInt(BlockInfoRow::blockIndex))
          .orElseThrow();
    }
  }

  private static long fileId(Path p) throws IOException {
    return fs.getClient().getFileInfo(p.toUri().getPath()).getFileId();
  }

  /** The datanode uuid of the primary chosen for the last block's recovery. */
  private static String primaryOf(Path p) throws IOException {
    BlockInfoRow b = lastBlock(p);
    assertThat(b.underConstructionState()).isEqualTo(BlockState.UNDER_RECOVERY);
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      for (ReplicaUnderConstructionRow r :
          tx.findByPartition(
              ReplicaUnderConstructionRow.TABLE, b.inodeId(), LockMode.READ_COMMITTED)) {
        if (r.blockId() == b.blockId() && r.replicaIndex() == b.primaryNodeIndex()) {
          StorageRef s =
              cluster.namenode().namesystem().blocks().datanodes().storage(r.storageId());
          return s.datanodeUuid();
        }
      }
    }
    throw new AssertionError("no primary for " + p);
  }

  /** Runs last: it stops a datanode. */
  @Test
  @Order(Integer.MAX_VALUE)
  void aRecoveryWhosePrimaryDiedStartsAgainWithAnotherPrimaryAfterTheTimeout() throws Exception {
    Path p = new Path("/recovery/primary-died");
    byte[] flushed = bytes(150 * 1024, 8);
    DistributedFileSystem writer = cluster.client();
    FSDataOutputStream out = writer.create(p, true, 4096, (short) 3, BLOCK);
    out.write(flushed);
    out.hflush();
    DatanodeInfo first = ((DFSOutputStream) out.getWrappedStream()).getPipeline()[0];
    writer.getClient().closeOutputStreams(true);
    writer.close();
    // The namenode still counts the stopped datanode as live: it is the first primary.
    for (DataNode dn : cluster.datanodes()) {
      if (dn.getDatanodeUuid().equals(first.getDatanodeUuid())) {
        dn.shutdown();
      }
    }
    try (DistributedFileSystem other = cluster.client()) {
      assertThat(other.recoverLease(p)).isFalse();
      assertThat(primaryOf(p)).isEqualTo(first.getDatanodeUuid());
      long firstId = lastBlock(p).blockRecoveryId();
      eventually(
          (int) (RECOVERY_TIMEOUT_MS / 1000) + 40,
          p + " closed by a second recovery",
          () -> other.isFileClosed(p));
      assertThat(lastBlock(p).generationStamp()).isGreaterThan(firstId);
      assertRecovered(other, p, flushed, flushed);
    }
  }
}
