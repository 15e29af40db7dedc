package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.security.PrivilegedExceptionAction;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSInputStream;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * hops-client's reads of database files on connections of their own ({@link
 * DirectReadConnections}): the same bytes, the same exceptions (class and message) and the same
 * caller as the reads over Hadoop's IPC client, many threads at once, connections that sat idle
 * past the idle time replaced, and a call without an answer ended at the RPC timeout.
 */
class DirectReadTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem stock;
  private static FileSystem direct;
  private static FileSystem viaIpc;
  private static FileSystem aliceDirect;
  private static FileSystem aliceIpc;

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", 1);
    c.setInt("ipc.client.connection.maxidletime", 300);
    Configuration ipc = new Configuration(c);
    ipc.setBoolean(SmallFilesClient.DIRECT_READ, false);
    direct = FileSystem.get(cluster.uri(), c);
    viaIpc = FileSystem.get(cluster.uri(), ipc);
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    aliceDirect =
        alice.doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.get(cluster.uri(), c));
    aliceIpc =
        alice.doAs(
            (PrivilegedExceptionAction<FileSystem>) () -> FileSystem.get(cluster.uri(), ipc));
    stock.mkdirs(new Path("/d"));
    stock.setPermission(new Path("/d"), new FsPermission((short) 0777));
    stock.setStoragePolicy(new Path("/d"), "DB");
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c :
        new AutoCloseable[] {aliceIpc, aliceDirect, viaIpc, direct, stock, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static long directCalls(FileSystem fs) {
    return ((HopsDistributedFileSystem) fs).smallFiles().directCalls();
  }

  @Test
  void readsTheBytesOnItsOwnConnections() throws Exception {
    Path p = new Path("/d/bytes");
    byte[] data = SmallFilesTest.bytes(4096, 1);
    SmallFilesTest.write(direct, p, data);
    long before = directCalls(direct);
    try (FSDataInputStream in = direct.open(p)) {
      assertThat(in.getWrappedStream()).isInstanceOf(InlineFileInputStream.class);
    }
    assertThat(SmallFilesTest.read(direct, p)).isEqualTo(data);
    assertThat(directCalls(direct)).isEqualTo(before + 2);
    long ipcBefore = directCalls(viaIpc);
    assertThat(SmallFilesTest.read(viaIpc, p)).isEqualTo(data);
    assertThat(directCalls(viaIpc)).isEqualTo(ipcBefore);
    // Empty files too, and a file on datanodes goes the stock way.
    SmallFilesTest.write(direct, new Path("/d/empty"), new byte[0]);
    assertThat(SmallFilesTest.read(direct, new Path("/d/empty"))).isEmpty();
    stock.mkdirs(new Path("/plain"));
    SmallFilesTest.write(stock, new Path("/plain/f"), data);
    try (FSDataInputStream in = direct.open(new Path("/plain/f"))) {
      assertThat(in.getWrappedStream()).isInstanceOf(DFSInputStream.class);
    }
    assertThat(SmallFilesTest.read(direct, new Path("/plain/f"))).isEqualTo(data);
  }

  @Test
  void raisesWhatTheIpcPathRaises() throws Exception {
    Throwable d = catchThrowable(() -> direct.open(new Path("/d/missing")));
    Throwable i = catchThrowable(() -> viaIpc.open(new Path("/d/missing")));
    assertThat(d).isInstanceOf(FileNotFoundException.class);
    assertThat(d.getClass()).isEqualTo(i.getClass());
    assertThat(d.getMessage()).isEqualTo(i.getMessage());

    // The caller is the file system's user: alice is refused a file only its owner can read.
    Path secret = new Path("/d/secret");
    SmallFilesTest.write(direct, secret, SmallFilesTest.bytes(100, 2));
    stock.setPermission(secret, new FsPermission((short) 0600));
    long before = directCalls(aliceDirect);
    d = catchThrowable(() -> aliceDirect.open(secret));
    i = catchThrowable(() -> aliceIpc.open(secret));
    assertThat(directCalls(aliceDirect)).isEqualTo(before + 1);
    assertThat(d).isInstanceOf(AccessControlException.class);
    assertThat(d.getClass()).isEqualTo(i.getClass());
    assertThat(d.getMessage()).isEqualTo(i.getMessage()).contains("user=alice");
    // The connection that carried the refusal still serves.
    SmallFilesTest.write(aliceDirect, new Path("/d/alices"), SmallFilesTest.bytes(10, 3));
    assertThat(SmallFilesTest.read(aliceDirect, new Path("/d/alices")))
        .isEqualTo(SmallFilesTest.bytes(10, 3));
    assertThat(SmallFilesTest.read(direct, secret)).isEqualTo(SmallFilesTest.bytes(100, 2));
  }

  /** A namenode that takes the call and never answers: the call ends at the RPC timeout. */
  @Test
  void aCallWithoutAnswerEndsAtTheRpcTimeout() throws Exception {
    try (ServerSocket silent = new ServerSocket(0, 5, InetAddress.getLoopbackAddress())) {
      Thread acceptor =
          new Thread(
              () -> {
                try (Socket s = silent.accept()) {
                  s.getInputStream().read(new byte[4096]);
                  Thread.sleep(30_000);
                } catch (Exception e) {
                  // done
                }
              });
      acceptor.setDaemon(true);
      acceptor.start();
      Configuration c = new Configuration(false);
      c.setInt("ipc.client.rpc-timeout.ms", 400);
      try (DirectReadConnections d =
          new DirectReadConnections(
              new InetSocketAddress(InetAddress.getLoopbackAddress(), silent.getLocalPort()),
              c,
              UserGroupInformation.getCurrentUser())) {
        long t0 = System.nanoTime();
        Throwable e =
            assertTimeoutPreemptively(
                Duration.ofSeconds(20), () -> catchThrowable(() -> d.readSmallFile("/x")));
        long ms = (System.nanoTime() - t0) / 1_000_000;
        assertThat(e).isInstanceOf(SocketTimeoutException.class).hasMessageContaining("400 millis");
        assertThat(ms).isBetween(350L, 5_000L);
      }
      acceptor.interrupt();
    }
  }

  /** An HA nameservice with a namenode down: the read goes on to the next one. */
  @Test
  void goesOnToTheNextNamenode() throws Exception {
    Path p = new Path("/d/ha");
    byte[] data = SmallFilesTest.bytes(2000, 9);
    SmallFilesTest.write(direct, p, data);
    int deadPort;
    try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      deadPort = s.getLocalPort();
    }
    String ns = "directns";
    Configuration conf = cluster.clientConf();
    conf.set("dfs.nameservices", ns);
    conf.set("dfs.ha.namenodes." + ns, "nn0,nn1");
    conf.set("dfs.namenode.rpc-address." + ns + ".nn0", "127.0.0.1:" + deadPort);
    var live = cluster.namenode().address();
    conf.set(
        "dfs.namenode.rpc-address." + ns + ".nn1", live.getHostString() + ":" + live.getPort());
    conf.set(
        "dfs.client.failover.proxy.provider." + ns,
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    // The first namenode tried is random: enough clients that both orders occur.
    for (int i = 0; i < 12; i++) {
      try (SmallFilesClient client = new SmallFilesClient(new java.net.URI("hdfs://" + ns), conf)) {
        java.nio.ByteBuffer got = client.read("/d/ha");
        byte[] bytes = new byte[got.remaining()];
        got.get(bytes);
        assertThat(bytes).isEqualTo(data);
        assertThat(client.directCalls()).isBetween(1L, 2L);
      }
    }
  }

  @Test
  void manyThreadsAndIdleConnections() throws Exception {
    int files = 32;
    for (int f = 0; f < files; f++) {
      SmallFilesTest.write(direct, new Path("/d/m" + f), SmallFilesTest.bytes(4096, 100 + f));
    }
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      for (int round = 0; round < 2; round++) {
        List<Future<Void>> all = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
          int seed = t;
          all.add(
              pool.submit(
                  () -> {
                    for (int k = 0; k < 200; k++) {
                      int f = (seed * 31 + k) % files;
                      byte[] got = SmallFilesTest.read(direct, new Path("/d/m" + f));
                      if (!java.util.Arrays.equals(got, SmallFilesTest.bytes(4096, 100 + f))) {
                        throw new IOException("wrong bytes for /d/m" + f);
                      }
                    }
                    return null;
                  }));
        }
        for (Future<Void> f : all) {
          f.get();
        }
        // Past the idle time (300 ms): the idle connections are replaced, the reads go on.
        Thread.sleep(700);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(SmallFilesTest.read(direct, new Path("/d/m0")))
        .isEqualTo(SmallFilesTest.bytes(4096, 100));
  }
}
