package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.eventually;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A namenode that restarts over the metadata of a cluster whose datanodes live on (as after a
 * SIGKILL of the namenode's process) behaves as HDFS's does for writers: it starts in safe mode and
 * answers writes with a retriable {@code SafeModeException} until the datanodes' blocks are
 * reported and the extension has passed, gives no writer a datanode it has not heard from since it
 * started, and a writer running across the restart loses no write and leaves no file open.
 */
class NamenodeRestartTest {
  private static final int BLOCK = 64 * 1024;

  @Test
  void aRestartedNamenodeIsInSafeModeUntilItsBlocksAreReportedAndAWriterLosesNothing()
      throws Exception {
    Path dir = Files.createTempDirectory("hops-restart-");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    conf.setInt(NamenodeConfig.RPC_PORT, port);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setLong("dfs.namenode.safemode.extension", 5000);
    List<DataNode> dns = new ArrayList<>();
    HopsNameNode second = null;
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      HopsNameNode first = HopsNameNode.start(conf, storage);
      InetSocketAddress address = first.address();
      dns.addAll(BlockFiles.startDatanodes(dir, address, 3));
      Configuration client = haClient(address);
      List<org.apache.hadoop.fs.Path> written = new CopyOnWriteArrayList<>();
      List<Throwable> failed = new CopyOnWriteArrayList<>();
      AtomicBoolean stop = new AtomicBoolean();
      Thread writer = writer(client, written, failed, stop);
      try (DistributedFileSystem fs = plainClient(address)) {
        eventually(30, "the datanodes are live", () -> fs.getDataNodeStats().length == 3);
        writer.start();
        eventually(30, "some files written", () -> written.size() >= 5);

        // The namenode dies; a new one starts over the same metadata, at the same address.
        first.crash();
        second = HopsNameNode.start(conf, storage);
        assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_GET)).as("safe mode at start").isTrue();
        assertThatThrownBy(() -> fs.create(new org.apache.hadoop.fs.Path("/refused")).close())
            .isInstanceOf(RemoteException.class)
            .satisfies(
                e ->
                    assertThat(((RemoteException) e).getClassName())
                        .isEqualTo(RetriableException.class.getName()))
            .hasMessageContaining("SafeModeException")
            .hasMessageContaining("Name node is in safe mode");
        HopsNameNode restarted = second;
        eventually(
            60,
            "the restarted namenode leaves safe mode",
            () ->
                !restarted.namesystem().blocks().datanodes().heardFromLive().isEmpty()
                    && !fs.setSafeMode(SafeModeAction.SAFEMODE_GET));
        int before = written.size();
        eventually(30, "the writer goes on", () -> written.size() >= before + 5);
        stop.set(true);
        writer.join(120_000);
        assertThat(failed).as("writes that failed").isEmpty();
        for (org.apache.hadoop.fs.Path p : written) {
          assertThat(read(fs, p)).isEqualTo(bytes(2 * BLOCK + 7, seed(p)));
        }
        assertThat(fs.listOpenFiles(java.util.EnumSet.of(OpenFilesType.ALL_OPEN_FILES)).hasNext())
            .as("files left open")
            .isFalse();
        assertThat(fs.exists(new org.apache.hadoop.fs.Path("/refused"))).isFalse();
      } finally {
        stop.set(true);
        writer.join(60_000);
        for (DataNode dn : dns) {
          dn.shutdown();
        }
        if (second != null) {
          second.close();
        }
      }
    } finally {
      FileUtil.fullyDelete(dir.toFile());
    }
  }

  /**
   * A namenode that joins a serving cluster leaves startup safe mode before it says it serves, and
   * so does one joining a cluster whose leader runs a release that never wrote the startup row.
   */
  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void aNamenodeJoiningAServingClusterServesAtOnce(boolean olderLeader) throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      assertThat(cluster.namenode().safeMode().inStartupSafeMode()).isFalse();
      if (olderLeader) {
        try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
          tx.delete(VariableRow.TABLE, VariableRow.TABLE.key("startup_safe_mode"));
          tx.commit();
        }
      }
      try (HopsNameNode second = cluster.startAnotherNamenode();
          DistributedFileSystem fs = cluster.client(second)) {
        assertThat(second.safeMode().inStartupSafeMode()).isFalse();
        assertThat(fs.mkdirs(new org.apache.hadoop.fs.Path("/joined"))).isTrue();
      }
    }
  }

  private static long seed(org.apache.hadoop.fs.Path p) {
    return Long.parseLong(p.getName().substring(1));
  }

  /** Writes files of three blocks, one after another, until told to stop or one fails. */
  private static Thread writer(
      Configuration client,
      List<org.apache.hadoop.fs.Path> written,
      List<Throwable> failed,
      AtomicBoolean stop) {
    return new Thread(
        () -> {
          try (FileSystem fs = FileSystem.get(URI.create("hdfs://hops"), client)) {
            for (int n = 0; !stop.get(); n++) {
              org.apache.hadoop.fs.Path p = new org.apache.hadoop.fs.Path("/w/f" + n);
              try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 3, BLOCK)) {
                out.write(bytes(2 * BLOCK + 7, n));
              }
              written.add(p);
            }
          } catch (Throwable t) {
            failed.add(t);
          }
        },
        "writer");
  }

  /**
   * A stock client of the namenode as an HA nameservice of one, so that it retries what HDFS's
   * client retries against an HA namenode (a refused connection, a retriable error).
   */
  private static Configuration haClient(InetSocketAddress address) {
    Configuration c = new Configuration(false);
    c.set("dfs.nameservices", "hops");
    c.set("dfs.ha.namenodes.hops", "nn0");
    c.set("dfs.namenode.rpc-address.hops.nn0", "127.0.0.1:" + address.getPort());
    c.set(
        "dfs.client.failover.proxy.provider.hops",
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    c.set("fs.defaultFS", "hdfs://hops");
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 1);
    c.setInt("ipc.client.connect.retry.interval", 100);
    c.setInt("dfs.client.failover.sleep.base.millis", 100);
    c.setInt("dfs.client.failover.sleep.max.millis", 1000);
    c.setInt("dfs.client.failover.max.attempts", 60);
    c.setInt("dfs.client.retry.max.attempts", 60);
    return c;
  }

  private static DistributedFileSystem plainClient(InetSocketAddress address) throws IOException {
    Configuration c = new Configuration(false);
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 50);
    c.setInt("ipc.client.connect.retry.interval", 200);
    return (DistributedFileSystem)
        FileSystem.get(URI.create("hdfs://127.0.0.1:" + address.getPort()), c);
  }
}
