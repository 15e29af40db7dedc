package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolTranslatorPB;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The retry cache in the database: a non-idempotent call retried with the same client id and call
 * id on another namenode (as a failing-over client does) answers the first outcome and changes
 * nothing, where running it again would answer wrongly; a new call runs as usual.
 */
class RetryCacheTest {
  private static final long SOFT_LIMIT_MS = 1_000;

  private static HopsTestCluster cluster;
  private static HopsNameNode second;
  private static ClientProtocol viaFirst;
  private static ClientProtocol viaSecond;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration small = new Configuration(false);
    // Small, so that a tree of a few dozen inodes takes the subtree protocol.
    small.setInt(io.hops.namenode.config.NamenodeConfig.MAX_SUBTREE_INODES, 10);
    // Short, so that a writer's lease passes it within a test (clients renew every 30 s).
    small.setLong(io.hops.namenode.leases.LeaseManager.SOFT_LIMIT_MS, SOFT_LIMIT_MS);
    cluster = new HopsTestCluster(small);
    second = cluster.startAnotherNamenode();
    // One datanode, known to both, for the blocks of the pipeline test.
    cluster.startDatanodes(1, new Configuration(false), second);
    cluster.waitForLive(1);
    // One configuration, so one IPC client, so one client id for calls to both namenodes.
    Configuration conf = cluster.clientConf();
    RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    viaFirst = proxy(cluster.namenode().address(), conf);
    viaSecond = proxy(second.address(), conf);
    fs = cluster.client();
  }

  private static ClientProtocol proxy(InetSocketAddress address, Configuration conf)
      throws IOException {
    return new ClientNamenodeProtocolTranslatorPB(
        RPC.getProxy(
            ClientNamenodeProtocolPB.class,
            RPC.getProtocolVersion(ClientNamenodeProtocolPB.class),
            address,
            conf));
  }

  @AfterAll
  static void stop() throws IOException {
    fs.close();
    second.close();
    cluster.close();
  }

  /**
   * Where this test's call ids start. The clients of one JVM share one IPC client, so one client
   * id, and number their own calls from 0; the namenode looks every call up in the retry cache, as
   * HDFS does, so a small fixed id could meet the outcome of an earlier, unrelated call (which
   * depended on how many calls the test classes before this one made).
   */
  private static final int IDS = 1_500_000_000;

  /** This test's call id {@code n}. */
  private static int id(int n) {
    return IDS + n;
  }

  /** The next call on this thread goes out with this call id and retry count, as a retry does. */
  private static void asCall(int callId, int retry) {
    Client.setCallIdAndRetryCount(id(callId), retry, null);
  }

  @Test
  void aRetriedDeleteOnAnotherNamenodeAnswersTrueAgain() throws Exception {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/d"));
    asCall(101, 0);
    assertThat(viaFirst.delete("/retry/d", true)).isTrue();
    asCall(101, 1);
    assertThat(viaSecond.delete("/retry/d", true))
        .as("the retry answers the first outcome")
        .isTrue();
    asCall(102, 0);
    assertThat(viaSecond.delete("/retry/d", true)).as("a new call runs").isFalse();
  }

  @Test
  void aRetriedSubtreeDeleteAndMoveToTrashAnswerTheirFirstOutcomeOnce() throws Exception {
    for (int d = 0; d < 3; d++) {
      for (int f = 0; f < 5; f++) {
        fs.create(new org.apache.hadoop.fs.Path("/retry/big/d" + d + "/f" + f)).close();
        fs.create(new org.apache.hadoop.fs.Path("/retry/tt/d" + d + "/f" + f)).close();
      }
    }
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/trash"));
    asCall(501, 0);
    assertThat(viaFirst.delete("/retry/big", true)).isTrue();
    asCall(501, 1);
    assertThat(viaSecond.delete("/retry/big", true)).as("answered from the retry cache").isTrue();
    asCall(502, 0);
    assertThat(viaSecond.delete("/retry/big", true)).as("a new call runs").isFalse();

    asCall(503, 0);
    viaFirst.rename2("/retry/tt", "/retry/trash/tt", Options.Rename.TO_TRASH);
    asCall(503, 1);
    viaSecond.rename2("/retry/tt", "/retry/trash/tt", Options.Rename.TO_TRASH); // no error
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/retry/trash/tt/d2/f4"))).isTrue();
    try (var tx = cluster.namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(RetryCacheRow.TABLE, io.hops.dal.LockMode.READ_COMMITTED))
          .extracting(RetryCacheRow::callId)
          .as("one outcome kept per call")
          .containsOnlyOnce(id(501), id(503));
    }
  }

  @Test
  void aRetriedRenameOnAnotherNamenodeAnswersTrueAgainAndMovesNothing() throws Exception {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/r/a"));
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/r/c"));
    asCall(201, 0);
    assertThat(viaFirst.rename("/retry/r/a", "/retry/r/b")).isTrue();
    // Meanwhile someone else moves it on: the retry must not move it back or anywhere.
    fs.rename(
        new org.apache.hadoop.fs.Path("/retry/r/b"), new org.apache.hadoop.fs.Path("/retry/r/c/b"));
    asCall(201, 1);
    assertThat(viaSecond.rename("/retry/r/a", "/retry/r/b")).isTrue();
    assertThat(fs.exists(new org.apache.hadoop.fs.Path("/retry/r/c/b"))).isTrue();
    asCall(202, 0);
    assertThat(viaSecond.rename("/retry/r/a", "/retry/r/b")).as("a new call runs").isFalse();
  }

  /**
   * {@code updatePipeline} is at-most-once in HDFS: a writer whose namenode committed the update
   * and died before answering resends it, and the resend must not fail on the generation stamp the
   * first attempt already set (that would fail the writer's pipeline recovery).
   */
  @Test
  void aRetriedUpdatePipelineOnAnotherNamenodeSucceedsAgain() throws Exception {
    String client = "DFSClient_retry_pipeline";
    HdfsFileStatus file = create(viaFirst, "/retry/p/f", client);
    LocatedBlock block =
        viaFirst.addBlock("/retry/p/f", client, null, null, file.getFileId(), null, null);
    ExtendedBlock old = block.getBlock();
    long stamp = viaFirst.updateBlockForPipeline(old, client).getBlock().getGenerationStamp();
    ExtendedBlock updated =
        new ExtendedBlock(old.getBlockPoolId(), old.getBlockId(), old.getNumBytes(), stamp);
    asCall(601, 0);
    viaFirst.updatePipeline(client, old, updated, block.getLocations(), block.getStorageIDs());
    asCall(601, 1);
    viaSecond.updatePipeline(client, old, updated, block.getLocations(), block.getStorageIDs());
    asCall(602, 0);
    assertThatThrownBy(
            () ->
                viaSecond.updatePipeline(
                    client, old, updated, block.getLocations(), block.getStorageIDs()))
        .as("a new call runs, and the block is already at that generation stamp")
        .isInstanceOf(IOException.class);
    assertThat(
            viaSecond
                .getBlockLocations("/retry/p/f", 0, 1)
                .getLastLocatedBlock()
                .getBlock()
                .getGenerationStamp())
        .isEqualTo(stamp);
  }

  /**
   * An append refused after it started the recovery of the file's last block (its writer's lease
   * past the soft limit) commits that start and raises {@code RecoveryInProgressException}, as HDFS
   * does. The refusal is not kept: a retry of the call finds no outcome and runs again.
   */
  @Test
  void anAppendRefusedAfterStartingARecoveryCommitsItAndKeepsNoOutcome() throws Exception {
    org.apache.hadoop.fs.Path f = new org.apache.hadoop.fs.Path("/retry/recovering/f");
    try (DistributedFileSystem writer = cluster.client()) {
      String holder = writer.getClient().getClientName();
      org.apache.hadoop.fs.FSDataOutputStream out = writer.create(f, (short) 1);
      out.write(new byte[100]);
      out.hflush();
      Thread.sleep(SOFT_LIMIT_MS + 200);
      asCall(701, 0);
      assertThatThrownBy(
              () ->
                  viaFirst.append(
                      f.toString(),
                      "DFSClient_retry_append",
                      new EnumSetWritable<>(EnumSet.of(CreateFlag.APPEND))))
          .isInstanceOfSatisfying(
              RemoteException.class,
              e ->
                  assertThat(e.getClassName())
                      .isEqualTo(RecoveryInProgressException.class.getName()))
          .hasMessageContaining("lease recovery is in progress");
      try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
        assertThat(tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED))
            .as("the takeover committed: the file left its writer's lease")
            .isEmpty();
        assertThat(tx.scanAll(RetryCacheRow.TABLE, LockMode.READ_COMMITTED))
            .extracting(RetryCacheRow::callId)
            .as("no outcome kept for the refused call")
            .doesNotContain(id(701));
      }
      writer.getClient().closeAllFilesBeingWritten(true);
    }
  }

  /**
   * A call sent twice as a first attempt (retry count 0 both times, as a client that sends one call
   * to two namenodes at once does) takes effect once. A first attempt does not read the cache: the
   * second one runs, fails at commit on the first one's retry-cache row, and answers the first
   * outcome. Run twice, the delete would answer false and the create would replace the file.
   */
  @Test
  void aFirstAttemptSentTwiceAnswersTheFirstOutcomeAndTakesEffectOnce() throws Exception {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/twice/d"));
    asCall(801, 0);
    assertThat(viaFirst.delete("/retry/twice/d", true)).isTrue();
    asCall(801, 0);
    assertThat(viaSecond.delete("/retry/twice/d", true)).as("the first outcome").isTrue();

    String client = "DFSClient_retry_twice";
    EnumSet<CreateFlag> overwrite = EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE);
    asCall(802, 0);
    HdfsFileStatus first = create(viaFirst, "/retry/twice/f", client, overwrite);
    asCall(802, 0);
    HdfsFileStatus again = create(viaSecond, "/retry/twice/f", client, overwrite);
    assertThat(again.getFileId()).as("the first outcome").isEqualTo(first.getFileId());
    assertThat(viaFirst.getFileInfo("/retry/twice/f").getFileId())
        .as("the file the first attempt made, not replaced")
        .isEqualTo(first.getFileId());
  }

  @Test
  void aRetriedCreateOnAnotherNamenodeAnswersTheSameFile() throws Exception {
    String client = "DFSClient_retry_test";
    asCall(301, 0);
    HdfsFileStatus first = create(viaFirst, "/retry/c/f", client);
    asCall(301, 1);
    HdfsFileStatus again = create(viaSecond, "/retry/c/f", client);
    assertThat(again.getFileId()).isEqualTo(first.getFileId());
    assertThat(again.getPermission()).isEqualTo(first.getPermission());
    asCall(302, 0);
    assertThatThrownBy(() -> create(viaSecond, "/retry/c/f", client))
        .as("a new call runs: the file is already being created")
        .isInstanceOf(IOException.class);
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      assertThat(tx.scanAll(RetryCacheRow.TABLE, LockMode.READ_COMMITTED))
          .extracting(RetryCacheRow::callId)
          .contains(id(301))
          .doesNotContain(id(302));
    }
  }

  @Test
  void aRetriedSmallFileCreateOnAnotherNamenodeAnswersTrueAndKeepsTheFirstFile() throws Exception {
    fs.mkdirs(new org.apache.hadoop.fs.Path("/retry/db"));
    fs.setStoragePolicy(new org.apache.hadoop.fs.Path("/retry/db"), "DB");
    Configuration conf = cluster.clientConf();
    SmallFilesProtocolTranslatorPB first =
        new SmallFilesProtocolTranslatorPB(cluster.namenode().address(), conf);
    SmallFilesProtocolTranslatorPB other =
        new SmallFilesProtocolTranslatorPB(second.address(), conf);
    try {
      byte[] data = "one round trip".getBytes(java.nio.charset.StandardCharsets.UTF_8);
      asCall(401, 0);
      assertThat(smallFile(first, "/retry/db/f", data)).isTrue();
      long id = fs.getClient().getFileInfo("/retry/db/f").getFileId();
      asCall(401, 1);
      assertThat(smallFile(other, "/retry/db/f", data)).as("the first outcome").isTrue();
      assertThat(fs.getClient().getFileInfo("/retry/db/f").getFileId()).isEqualTo(id);
      java.nio.ByteBuffer read = other.readSmallFile("/retry/db/f");
      byte[] got = new byte[read.remaining()];
      read.get(got);
      assertThat(got).isEqualTo(data);
      asCall(402, 0);
      assertThatThrownBy(() -> smallFile(other, "/retry/db/f", data))
          .as("a new call runs")
          .isInstanceOf(org.apache.hadoop.ipc.RemoteException.class)
          .hasMessageContaining("already exists");
    } finally {
      first.close();
      other.close();
    }
  }

  private static boolean smallFile(SmallFilesProtocol nn, String path, byte[] data)
      throws IOException {
    return nn.createSmallFile(
        path, (short) 0644, "DFSClient_retry_test", false, true, (short) 1, 1024 * 1024, data);
  }

  @Test
  void aNewLeaderRemovesExpiredEntriesAndKeepsLiveOnes() throws Exception {
    // Entries a former leader left: expired one to three minutes ago, and one still live.
    String store = "mem:retry-expiry-" + System.nanoTime();
    Configuration conf = new Configuration(false);
    conf.set(io.hops.common.HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(io.hops.common.HopsConfig.EMBEDDED_DIR, store);
    byte[] client = new byte[16];
    client[0] = 42;
    try (io.hops.dal.Storage storage = io.hops.dal.Storages.open(NamenodeConfig.dalConfig(conf))) {
      storage.schema().createOrUpgrade();
      long now = System.currentTimeMillis();
      try (Transaction tx = storage.begin()) {
        for (int call = 0; call < 1200; call++) {
          long expires = io.hops.namenode.tx.RetryCache.ceilMinute(now) - (call % 3 + 1) * 60_000L;
          tx.insert(
              RetryCacheRow.TABLE, new RetryCacheRow(client, call, (byte) 1, expires, new byte[1]));
        }
        tx.insert(
            RetryCacheRow.TABLE,
            new RetryCacheRow(client, 5000, (byte) 1, now + 600_000, new byte[1]));
        tx.commit();
      }
      try (HopsTestCluster leader = new HopsTestCluster(conf)) {
        leader.namenode().housekeeping().runOnce();
        try (Transaction tx = storage.begin()) {
          assertThat(tx.findByPartition(RetryCacheRow.TABLE, client, LockMode.READ_COMMITTED))
              .extracting(RetryCacheRow::callId)
              .containsExactly(5000);
        }
      }
    }
  }

  private static HdfsFileStatus create(ClientProtocol nn, String path, String client)
      throws IOException {
    return create(nn, path, client, EnumSet.of(CreateFlag.CREATE));
  }

  private static HdfsFileStatus create(
      ClientProtocol nn, String path, String client, EnumSet<CreateFlag> flags) throws IOException {
    return nn.create(
        path,
        new FsPermission((short) 0644),
        client,
        new EnumSetWritable<>(flags),
        true,
        (short) 1,
        1024 * 1024,
        CryptoProtocolVersion.supported(),
        null,
        null);
  }
}
