package io.hops.namenode.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tools.StockTool;
import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.URL;
import java.nio.file.Files;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * {@code dfs.http.policy} with {@code ssl-server.xml} (keystores made by Hadoop's {@code
 * KeyStoreTestUtil}): {@code HTTPS_ONLY} serves TLS only, to the stock {@code swebhdfs://} client;
 * {@code HTTP_AND_HTTPS} serves both; a missing {@code ssl-server.xml}, an unreadable keystore or
 * an unknown policy stop the namenode at start with a message that names what is wrong and no
 * password, and leave no port open.
 */
class HttpsPolicyTest {
  private static File keystores;
  private static String sslConfDir;
  private static Configuration ssl;

  @BeforeAll
  static void keystores() throws Exception {
    keystores = Files.createTempDirectory("hops-https").toFile();
    sslConfDir = KeyStoreTestUtil.getClasspathDir(HttpsPolicyTest.class);
    ssl = new Configuration(false);
    KeyStoreTestUtil.setupSSLConfig(keystores.getPath(), sslConfDir, ssl, false);
  }

  @AfterAll
  static void cleanup() throws Exception {
    KeyStoreTestUtil.cleanupSSLConfig(keystores.getPath(), sslConfDir);
  }

  private static Configuration withPolicy(String policy) {
    Configuration c = new Configuration(false);
    c.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, policy);
    c.set(
        DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getServerSSLConfigFileName());
    return c;
  }

  @Test
  void httpsOnlyServesTlsToTheStockSwebhdfsClient() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(withPolicy("HTTPS_ONLY"))) {
      HopsNameNode nn = cluster.namenode();
      InetSocketAddress https = nn.httpsAddress();
      assertThat(https).isNotNull();
      assertThat(nn.httpAddress()).isEqualTo(https);
      assertThat(nn.httpUri())
          .isEqualTo("https://" + https.getHostString() + ":" + https.getPort());
      Configuration client = new Configuration();
      ssl.forEach(e -> client.set(e.getKey(), e.getValue()));
      client.setBoolean("fs.swebhdfs.impl.disable.cache", true);
      try (FileSystem fs =
          FileSystem.newInstance(URI.create("swebhdfs://localhost:" + https.getPort()), client)) {
        assertThat(fs.mkdirs(new Path("/overtls"))).isTrue();
        assertThat(fs.getFileStatus(new Path("/overtls")).isDirectory()).isTrue();
      }
      // No plain HTTP on the TLS port.
      HttpURLConnection plain =
          (HttpURLConnection)
              new URL("http://localhost:" + https.getPort() + "/jmx").openConnection();
      assertThatThrownBy(plain::getResponseCode).isInstanceOf(IOException.class);
    }
  }

  @Test
  void stockFsckReachesTheNamenodeOverTlsUnderHttpsOnly() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(withPolicy("HTTPS_ONLY"))) {
      HopsNameNode nn = cluster.namenode();
      Configuration client = new Configuration(cluster.clientConf());
      ssl.forEach(e -> client.set(e.getKey(), e.getValue()));
      client.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, "HTTPS_ONLY");
      client.set(
          DFSConfigKeys.DFS_NAMENODE_HTTPS_ADDRESS_KEY, "localhost:" + nn.httpsAddress().getPort());
      // Where the stock tool would go over plain HTTP, nothing answers.
      client.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "localhost:1");
      try (FileSystem fs = FileSystem.newInstance(client)) {
        fs.mkdirs(new Path("/fscked/dir"));
      }
      StockTool.Output out = StockTool.run(o -> new DFSck(client, o), "/fscked", "-files");
      assertThat(out.rc()).as(out.out() + out.err()).isZero();
      assertThat(out.err())
          .contains("Connecting to namenode via https://localhost:" + nn.httpsAddress().getPort());
      assertThat(out.out())
          .contains("/fscked/dir <dir>")
          .contains("The filesystem under path '/fscked' is HEALTHY");
    }
  }

  @Test
  void httpAndHttpsServesBoth() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(withPolicy("HTTP_AND_HTTPS"))) {
      HopsNameNode nn = cluster.namenode();
      assertThat(nn.httpsAddress()).isNotNull();
      assertThat(nn.httpAddress().getPort()).isNotEqualTo(nn.httpsAddress().getPort());
      assertThat(nn.httpUri()).startsWith("http://");
      HttpURLConnection c = (HttpURLConnection) new URL(nn.httpUri() + "/jmx").openConnection();
      assertThat(c.getResponseCode()).isEqualTo(200);
    }
  }

  @Test
  void httpOnlyHasNoHttpsAddress() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(withPolicy("HTTP_ONLY"))) {
      assertThat(cluster.namenode().httpsAddress()).isNull();
    }
  }

  @Test
  void missingSslServerXmlStopsTheStartAndLeavesNoPortOpen() throws Exception {
    Configuration c = fixedPorts(withPolicy("HTTPS_ONLY"));
    c.set(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY, "no-such-ssl-server.xml");
    assertThatThrownBy(() -> HopsNameNode.start(c))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("no-such-ssl-server.xml")
        .hasMessageContaining(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY)
        .hasMessageContaining("HTTPS_ONLY");
    assertPortsFree(c);
  }

  @Test
  void unreadableKeystoreStopsTheStartWithoutItsPassword() throws Exception {
    File sslServer = new File(sslConfDir, "ssl-server-broken.xml");
    Configuration broken = new Configuration(false);
    broken.set("ssl.server.keystore.location", new File(keystores, "missing.jks").getPath());
    broken.set("ssl.server.keystore.password", "sesame-secret");
    try (var out = Files.newOutputStream(sslServer.toPath())) {
      broken.writeXml(out);
    }
    try {
      Configuration c = fixedPorts(withPolicy("HTTPS_ONLY"));
      c.set(DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY, sslServer.getName());
      assertThatThrownBy(() -> HopsNameNode.start(c))
          .isInstanceOf(IOException.class)
          .hasMessageContaining("missing.jks")
          .hasMessageNotContaining("sesame-secret");
      assertPortsFree(c);
    } finally {
      Files.delete(sslServer.toPath());
    }
  }

  @Test
  void unknownPolicyIsRefusedAsHdfsRefusesIt() {
    assertThatThrownBy(() -> new HopsTestCluster(withPolicy("HTTPS_PLEASE")).close())
        .isInstanceOf(HadoopIllegalArgumentException.class)
        .hasMessage("Unrecognized value 'HTTPS_PLEASE' for dfs.http.policy");
  }

  /** Fixed RPC, HTTP and HTTPS ports, so a test can see that a failed start left none open. */
  private static Configuration fixedPorts(Configuration c) throws IOException {
    c.set(HopsConfig.EMBEDDED_DIR, "mem:https-" + System.nanoTime());
    c.setInt(NamenodeConfig.RPC_PORT, freePort());
    c.setInt(NamenodeConfig.HTTP_PORT, freePort());
    c.setInt(NamenodeConfig.HTTPS_PORT, freePort());
    c.setInt(HopsConfig.SMALL_FILE_XFER_PORT, -1);
    return c;
  }

  /**
   * A port below the kernel's ephemeral range that nothing holds now. Below that range no other
   * test's port-0 listener and no outgoing connection can be given it while this test runs, so the
   * check that nothing listens there after a failed start sees only the namenode.
   */
  private static int freePort() throws IOException {
    int ephemeralLow = 32768;
    java.nio.file.Path range = java.nio.file.Path.of("/proc/sys/net/ipv4/ip_local_port_range");
    if (Files.isReadable(range)) {
      ephemeralLow = Integer.parseInt(Files.readString(range).trim().split("\\s+")[0]);
    }
    int low = Math.min(10_000, ephemeralLow / 2);
    for (int attempt = 0; attempt < 100; attempt++) {
      int port = ThreadLocalRandom.current().nextInt(low, ephemeralLow);
      try (ServerSocket s = new ServerSocket()) {
        s.bind(new InetSocketAddress("127.0.0.1", port));
        return port;
      } catch (IOException taken) {
        // Held by another process: try another.
      }
    }
    throw new IOException("no free port below " + ephemeralLow);
  }

  /**
   * This JVM listens on none of the namenode's ports any more. On Linux the test reads the kernel's
   * socket tables and this process's descriptors: a test in the other surefire fork (or a process
   * it starts) may bind the same port the moment the namenode released it, which failed this test
   * once in CI when it only tried to connect. Elsewhere a connection must be refused (binding the
   * port again would also fail while another process's outgoing connection happens to use it as its
   * local port, which is not what this asserts).
   */
  private static void assertPortsFree(Configuration c) throws IOException {
    for (String key :
        new String[] {
          NamenodeConfig.RPC_PORT, NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTPS_PORT
        }) {
      int port = c.getInt(key, -1);
      java.nio.file.Path fds = java.nio.file.Path.of("/proc/self/fd");
      if (Files.isDirectory(fds) && Files.isReadable(java.nio.file.Path.of("/proc/net/tcp"))) {
        Set<String> held = listeningSocketInodes(port);
        held.retainAll(socketsOfThisProcess(fds));
        assertThat(held)
            .as("%s %d is still listened on by this JVM after the failed start", key, port)
            .isEmpty();
        continue;
      }
      assertThatThrownBy(
              () -> {
                try (Socket s = new Socket()) {
                  s.connect(new InetSocketAddress("127.0.0.1", port), 2_000);
                }
              })
          .as("%s %d still accepts connections after the failed start", key, port)
          .isInstanceOf(ConnectException.class);
    }
  }

  /**
   * The inodes of the sockets listening on the port, from {@code /proc/net/tcp} and {@code tcp6}.
   */
  private static Set<String> listeningSocketInodes(int port) throws IOException {
    Set<String> inodes = new HashSet<>();
    for (String table : new String[] {"/proc/net/tcp", "/proc/net/tcp6"}) {
      java.nio.file.Path file = java.nio.file.Path.of(table);
      if (!Files.isReadable(file)) {
        continue;
      }
      List<String> lines = Files.readAllLines(file);
      for (String line : lines.subList(1, lines.size())) {
        // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode ...
        String[] f = line.trim().split("\\s+");
        String local = f[1];
        int localPort = Integer.parseInt(local.substring(local.indexOf(':') + 1), 16);
        if (localPort == port && f[3].equals("0A")) {
          inodes.add(f[9]);
        }
      }
    }
    return inodes;
  }

  /** The inodes of the sockets this process holds open. */
  private static Set<String> socketsOfThisProcess(java.nio.file.Path fds) throws IOException {
    Set<String> inodes = new HashSet<>();
    try (var entries = Files.list(fds)) {
      for (java.nio.file.Path fd : (Iterable<java.nio.file.Path>) entries::iterator) {
        try {
          String target = Files.readSymbolicLink(fd).toString();
          if (target.startsWith("socket:[")) {
            inodes.add(target.substring("socket:[".length(), target.length() - 1));
          }
        } catch (IOException closedMeanwhile) {
          // A descriptor closed between the listing and the read holds no port.
        }
      }
    }
    return inodes;
  }
}
