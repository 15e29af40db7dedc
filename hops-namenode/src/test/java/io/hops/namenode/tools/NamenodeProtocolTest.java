package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.lang.reflect.Constructor;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.NameNodeProxies;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.balancer.ExitStatus;
import org.apache.hadoop.hdfs.server.balancer.NameNodeConnector;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.Tool;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code NamenodeProtocol} over the wire with Hadoop's own proxy: the calls the Balancer makes
 * answer as HDFS's would, the blocks of a datanode come with all their live locations, and the
 * stock Balancer runs against a balanced cluster and exits cleanly.
 */
class NamenodeProtocolTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static NamenodeProtocol nn;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, TimeUnit.HOURS.toMillis(1));
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
    byte[] data = new byte[3 * BLOCK];
    new Random(3).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path("/np/f"), true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
    nn =
        NameNodeProxies.createNonHAProxy(
                cluster.clientConf(),
                cluster.namenode().address(),
                NamenodeProtocol.class,
                UserGroupInformation.getCurrentUser(),
                false)
            .getProxy();
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

  @Test
  void versionKeysAndUpgradeStateAnswerAsHdfsWithoutTokens() throws Exception {
    NamespaceInfo info = nn.versionRequest();
    assertThat(info.getBlockPoolID())
        .isEqualTo(cluster.namenode().namesystem().blocks().blockPoolId());
    assertThat(info.getClusterID()).startsWith("CID-");
    assertThat(nn.getBlockKeys().isBlockTokenEnabled()).isFalse();
    long t1 = nn.getTransactionID();
    long t2 = nn.getTransactionID();
    assertThat(t2).isGreaterThanOrEqualTo(t1).isPositive();
    assertThat(nn.getMostRecentCheckpointTxId()).isGreaterThanOrEqualTo(t2);
    assertThat(nn.isUpgradeFinalized()).isTrue();
    assertThat(nn.isRollingUpgrade()).isFalse();
    assertThat(nn.getNextSPSPath()).isNull();
  }

  @Test
  void checkpointCallsAreRefusedByName() {
    assertThatThrownBy(() -> nn.rollEditLog())
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining("NamenodeProtocol.rollEditLog is not supported by hops")
        .satisfies(
            e ->
                assertThat(((RemoteException) e).getClassName())
                    .isEqualTo(UnsupportedOperationException.class.getName()));
    assertThatThrownBy(() -> nn.getEditLogManifest(0))
        .hasMessageContaining("NamenodeProtocol.getEditLogManifest is not supported by hops");
  }

  @Test
  void getBlocksGivesTheDatanodesBlocksWithAllLiveLocations() throws Exception {
    DatanodeInfo dn = fs.getDataNodeStats()[0];
    BlocksWithLocations all = nn.getBlocks(dn, 100L * BLOCK, 0, 0, null);
    LocatedBlock[] written =
        fs.getClient().getLocatedBlocks("/np/f", 0).getLocatedBlocks().toArray(new LocatedBlock[0]);
    assertThat(all.getBlocks()).hasSize(3);
    assertThat(Arrays.stream(all.getBlocks()).map(b -> b.getBlock().getBlockId()))
        .containsExactlyInAnyOrderElementsOf(
            Arrays.stream(written).map(b -> b.getBlock().getBlockId()).toList());
    for (BlockWithLocations b : all.getBlocks()) {
      assertThat(b.getBlock().getNumBytes()).isEqualTo(BLOCK);
      assertThat(b.getDatanodeUuids()).hasSize(3).contains(dn.getDatanodeUuid());
      assertThat(b.getStorageIDs()).allMatch(s -> s.startsWith("DS-"));
    }
    // It stops once it has the size asked for, and skips blocks below the minimum size.
    assertThat(nn.getBlocks(dn, 1, 0, 0, null).getBlocks()).hasSize(1);
    assertThat(nn.getBlocks(dn, 100L * BLOCK, 2L * BLOCK, 0, null).getBlocks()).isEmpty();
    // Recently written files' blocks still come, after the others.
    assertThat(nn.getBlocks(dn, 100L * BLOCK, 0, TimeUnit.HOURS.toMillis(1), null).getBlocks())
        .hasSize(3);
  }

  @Test
  void getBlocksRefusesBadArgumentsLikeHdfs() throws Exception {
    DatanodeInfo dn = fs.getDataNodeStats()[0];
    assertThatThrownBy(() -> nn.getBlocks(dn, 0, 0, 0, null))
        .hasMessageContaining("Unexpected not positive size: 0");
    DatanodeInfo unknown =
        new DatanodeInfo.DatanodeInfoBuilder()
            .setNodeID(
                new org.apache.hadoop.hdfs.protocol.DatanodeID(
                    "127.0.0.9", "nowhere", "no-such-uuid", 1, 2, 3, 4))
            .build();
    assertThatThrownBy(() -> nn.getBlocks(unknown, BLOCK, 0, 0, null))
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining("not found");
  }

  @Test
  void theStockBalancerFindsTheClusterBalancedAndExits() throws Exception {
    // The balancer's lock file would be written with hflush; it is created and removed all the
    // same, which is what keeps a second balancer out.
    NameNodeConnector.setWrite2IdFile(false);
    try {
      Class<?> cli = Class.forName("org.apache.hadoop.hdfs.server.balancer.Balancer$Cli");
      Constructor<?> make = cli.getDeclaredConstructor();
      make.setAccessible(true);
      Tool balancer = (Tool) make.newInstance();
      balancer.setConf(cluster.clientConf());
      StockTool.Output r = StockTool.run(out -> balancer, "-threshold", "10");
      assertThat(r.rc()).as(r.out() + r.err()).isEqualTo(ExitStatus.SUCCESS.getExitCode());
      assertThat(r.out()).contains("The cluster is balanced. Exiting...");
      assertThat(fs.exists(new Path("/system/balancer.id"))).isFalse();
    } finally {
      NameNodeConnector.setWrite2IdFile(true);
    }
  }
}
