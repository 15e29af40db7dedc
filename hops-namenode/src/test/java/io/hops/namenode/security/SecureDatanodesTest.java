package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.shell.Processes;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.IOStreamPair;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.datatransfer.TrustedChannelResolver;
import org.apache.hadoop.hdfs.protocol.datatransfer.sasl.DataTransferSaslUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.sasl.SaslDataTransferClient;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.ssl.KeyStoreTestUtil;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Secure stock DataNodes (issue 56, item 2): two kerberized namenodes over one store (Kerberos RPC,
 * service ACLs, block tokens) and three stock Apache DataNodes, each a process of its own logged in
 * from its own keytab as {@code dn/_HOST} (one host here: {@code dn/localhost}), with SASL data
 * transfer protection ({@code dfs.data.transfer.protection}), {@code dfs.http.policy=HTTPS_ONLY}
 * from a generated keystore and ssl-server.xml, on ports above 1024. A kerberized client writes and
 * reads multi-block files through a three-replica pipeline; the datanodes refuse tampered,
 * misdirected and expired block tokens during or after the SASL handshake; a stopped datanode's
 * blocks are copied between the others; the namenode's database-file block server speaks the same
 * SASL; datanodes run as {@code nobody} when the test runs as root.
 */
class SecureDatanodesTest {
  private static final long TOKEN_LIFETIME_MS = 6_000;
  private static final int BLOCK = 1 << 20;

  /** What the stock client gets when a datanode's SASL handshake finds a wrong token password. */
  private static final String MISMATCH =
      "java.io.IOException: DIGEST-MD5: digest response format violation. Mismatched response.";

  private static TestKdc kdc;
  private static File dnKeytab;
  private static File keystores;
  private static String sslConfDir;
  private static Configuration ssl;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("hops-secure-dn", "hdfs/localhost", "HTTP/localhost", "alice");
    dnKeytab = kdc.keytab("dn.keytab", "dn/localhost");
    keystores = new File(kdc.dir(), "keystores");
    assertThat(keystores.mkdirs()).isTrue();
    sslConfDir = KeyStoreTestUtil.getClasspathDir(SecureDatanodesTest.class);
    ssl = new Configuration(false);
    KeyStoreTestUtil.setupSSLConfig(keystores.getPath(), sslConfDir, ssl, false);
  }

  @AfterAll
  static void stop() throws Exception {
    if (keystores != null) {
      KeyStoreTestUtil.cleanupSSLConfig(keystores.getPath(), sslConfDir);
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  /** What namenodes, datanodes and clients share: Kerberos, block tokens, SASL, HTTPS. */
  private static Configuration secure(String protection) {
    Configuration c = kdc.rpc("authentication");
    c.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, "dn/_HOST@" + kdc.realm());
    c.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    c.set(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY, protection);
    c.set(DFSConfigKeys.DFS_HTTP_POLICY_KEY, "HTTPS_ONLY");
    c.set(
        DFSConfigKeys.DFS_SERVER_HTTPS_KEYSTORE_RESOURCE_KEY,
        KeyStoreTestUtil.getServerSSLConfigFileName());
    ssl.forEach(e -> c.set(e.getKey(), e.getValue()));
    return c;
  }

  /** Two namenodes over one store, the three datanode processes, and alice's client. */
  private static final class SecureCluster implements AutoCloseable {
    final Configuration settings;
    final HopsTestCluster cluster;
    final HopsNameNode second;
    final Path work;
    final List<Process> datanodes = new ArrayList<>();
    final List<Integer> xferPorts = new ArrayList<>();

    /** How each of {@link #datanodes} was started, to start it again on another port. */
    private final List<Runnable> restarts = new ArrayList<>();

    final UserGroupInformation alice;
    final boolean nobody;

    SecureCluster(String protection) throws Exception {
      this(protection, Map.of(), false);
    }

    /**
     * With {@code extra} set on namenodes, datanodes and clients alike; with {@code onlySecond} the
     * datanodes register with the second namenode only (their keys come from it alone).
     */
    SecureCluster(String protection, Map<String, String> extra, boolean onlySecond)
        throws Exception {
      this(protection, extra, onlySecond, false);
    }

    /** With {@code nobody}, a test run as root starts the datanodes as {@link Nobody}. */
    SecureCluster(String protection, Map<String, String> extra, boolean onlySecond, boolean nobody)
        throws Exception {
      this.nobody = nobody;
      settings = secure(protection);
      extra.forEach(settings::set);
      Configuration nn = new Configuration(settings);
      nn.setBoolean("hadoop.security.authorization", true);
      nn.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
      nn.setInt("dfs.heartbeat.interval", 1);
      nn.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
      nn.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
      nn.setLong(NamenodeConfig.BLOCK_TOKEN_LIFETIME_MS, TOKEN_LIFETIME_MS);
      UserGroupInformation.setConfiguration(nn);
      work = Files.createTempDirectory("hops-secure-dn-");
      cluster = new HopsTestCluster(nn);
      HopsNameNode other = null;
      try {
        other = cluster.startAnotherNamenode();
        List<HopsNameNode> nns = onlySecond ? List.of(other) : List.of(cluster.namenode(), other);
        for (int i = 1; i <= 3; i++) {
          int n = i;
          datanodes.add(startDatanode(n, nns, extra));
          restarts.add(
              () -> {
                try {
                  xferPorts.remove(n - 1);
                  datanodes.set(n - 1, startDatanode(n, nns, extra, dnKeytab, n - 1));
                } catch (IOException e) {
                  throw new java.io.UncheckedIOException(e);
                }
              });
        }
        if (!onlySecond) {
          waitForLive(cluster.namenode(), 3);
        }
        waitForLive(other, 3);
        // The superuser (this JVM's login, hdfs) opens the root to the test's user.
        cluster
            .client()
            .setPermission(
                new org.apache.hadoop.fs.Path("/"),
                new org.apache.hadoop.fs.permission.FsPermission((short) 0777));
      } catch (Exception | AssertionError e) {
        closeQuietly(other);
        throw e;
      }
      second = other;
      alice = kdc.login("alice");
    }

    private void closeQuietly(HopsNameNode other) {
      datanodes.forEach(Process::destroyForcibly);
      if (other != null) {
        other.close();
      }
      cluster.close();
    }

    /**
     * Datanode {@code i} as an operator runs it: {@code bin/hops datanode} with its own conf
     * directory (on the classpath ahead of the jars, as Hadoop's scripts put HADOOP_CONF_DIR, for
     * ssl-server.xml), its own keytab, and the KDC's krb5.conf.
     */
    private Process startDatanode(int i, List<HopsNameNode> nns, Map<String, String> extra)
        throws IOException {
      return startDatanode(i, nns, extra, dnKeytab);
    }

    /** As {@link #startDatanode(int, List, Map)}, with {@code dnKeytab} as its keytab. */
    Process startDatanode(int i, List<HopsNameNode> nns, Map<String, String> extra, File dnKeytab)
        throws IOException {
      return startDatanode(i, nns, extra, dnKeytab, xferPorts.size());
    }

    /** As {@link #startDatanode(int, List, Map, File)}, its port put at {@code slot} of ports. */
    private Process startDatanode(
        int i, List<HopsNameNode> nns, Map<String, String> extra, File dnKeytab, int slot)
        throws IOException {
      File conf = work.resolve("dn" + i + "-conf").toFile();
      Files.createDirectories(conf.toPath());
      File keytab = new File(conf, "dn.keytab");
      Files.copy(dnKeytab.toPath(), keytab.toPath(), StandardCopyOption.REPLACE_EXISTING);
      for (String f :
          List.of(
              KeyStoreTestUtil.getServerSSLConfigFileName(),
              KeyStoreTestUtil.getClientSSLConfigFileName())) {
        Files.copy(
            new File(sslConfDir, f).toPath(),
            new File(conf, f).toPath(),
            StandardCopyOption.REPLACE_EXISTING);
      }
      int xfer = Processes.freePort();
      xferPorts.add(slot, xfer);
      String[] site = {
        "hadoop.security.authentication",
        "kerberos",
        "hadoop.rpc.protection",
        settings.get("hadoop.rpc.protection"),
        DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY,
        settings.get(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY),
        DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY,
        "dn/_HOST@" + kdc.realm(),
        DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY,
        keytab.getPath(),
        DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
        "true",
        DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY,
        settings.get(DFSConfigKeys.DFS_DATA_TRANSFER_PROTECTION_KEY),
        DFSConfigKeys.DFS_HTTP_POLICY_KEY,
        "HTTPS_ONLY",
        "dfs.datanode.address",
        "127.0.0.1:" + xfer,
        "dfs.datanode.https.address",
        "127.0.0.1:0",
        "dfs.datanode.hostname",
        "localhost",
        "dfs.heartbeat.interval",
        "1",
        "dfs.blockreport.initialDelay",
        "0",
        "hadoop.ssl.server.conf",
        KeyStoreTestUtil.getServerSSLConfigFileName(),
        "hadoop.ssl.client.conf",
        KeyStoreTestUtil.getClientSSLConfigFileName(),
      };
      List<String> keys = new ArrayList<>(List.of(site));
      extra.forEach(
          (k, v) -> {
            keys.add(k);
            keys.add(v);
          });
      Files.writeString(
          new File(conf, "hdfs-site.xml").toPath(), Processes.site(keys.toArray(new String[0])));
      List<String> cmd = new ArrayList<>();
      String classpath = Processes.runtimeClasspath();
      String krb5conf = kdc.krb5conf().getPath();
      if (nobody && Nobody.needed()) {
        cmd.addAll(Nobody.SETPRIV);
        classpath = Nobody.readableClasspath(work);
        krb5conf = Nobody.readableCopy(kdc.krb5conf(), work);
        Nobody.openForReading(keystores);
        Nobody.own(work);
      }
      cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
      cmd.addAll(
          List.of(
              "-XX:+UseSerialGC",
              "-XX:TieredStopAtLevel=1",
              "-Xmx384m",
              "-Djava.security.krb5.conf=" + krb5conf,
              "-cp",
              conf.getPath() + File.pathSeparator + classpath,
              "io.hops.namenode.cli.HopsMain",
              "datanode",
              "--conf",
              conf.getPath(),
              "--data-dir",
              work.resolve("dn" + i).toString(),
              "--any-ports"));
      for (HopsNameNode nn : nns) {
        cmd.add("--namenode");
        cmd.add(nn.uri());
      }
      return new ProcessBuilder(cmd)
          .redirectErrorStream(true)
          .redirectOutput(work.resolve("dn" + i + ".log").toFile())
          .start();
    }

    private void waitForLive(HopsNameNode nn, int n) throws Exception {
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
      int rebinds = 0;
      while (nn.namesystem().blocks().datanodes().heardFromLive().size() < n) {
        for (int i = 0; i < datanodes.size(); i++) {
          if (!datanodes.get(i).isAlive()
              && i < restarts.size()
              && rebinds < 3
              && log(i + 1).contains("java.net.BindException")) {
            // The port chosen for it was taken (by any process) before the datanode bound it.
            rebinds++;
            restarts.get(i).run();
            continue;
          }
          assertThat(datanodes.get(i).isAlive())
              .as("datanode %d exited:\n%s", i + 1, log(i + 1))
              .isTrue();
        }
        assertThat(System.nanoTime()).as("datanodes up:\n%s", log(1)).isLessThan(deadline);
        Thread.sleep(200);
      }
    }

    String log(int i) {
      return Processes.tail(work.resolve("dn" + i + ".log"));
    }

    /** A client configuration of both namenodes as one nameservice, with 1 MB blocks. */
    Configuration clientConf() {
      return clientConf(cluster.namenode(), second);
    }

    /** A client configuration of {@code nns} as one nameservice, with 1 MB blocks. */
    Configuration clientConf(HopsNameNode... nns) {
      Configuration c = TestKdc.client(settings);
      List<InetSocketAddress> addresses = new ArrayList<>();
      for (HopsNameNode nn : nns) {
        addresses.add(nn.address());
      }
      DatanodeLauncher.setNamenodes(c, addresses);
      c.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, BLOCK);
      c.setBoolean("fs.hdfs.impl.disable.cache", true);
      return c;
    }

    <T> T asAlice(FsCall<T> call) throws Exception {
      return asAlice(clientConf(), call);
    }

    <T> T asAlice(Configuration conf, FsCall<T> call) throws Exception {
      return alice.doAs(
          (PrivilegedExceptionAction<T>)
              () -> {
                try (FileSystem fs = FileSystem.newInstance(conf)) {
                  return call.run((DistributedFileSystem) fs);
                }
              });
    }

    /** Stops datanode {@code i} (from 1) as a crash does. */
    void kill(int i) throws InterruptedException {
      datanodes.get(i - 1).destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }

    @Override
    public void close() throws Exception {
      closeQuietly(second);
      FileUtil.fullyDelete(work.toFile());
    }
  }

  /**
   * How a test run as root starts a datanode as {@code nobody}, as a secure DataNode with SASL data
   * transfer protection runs in production (no root, no privileged port, no jsvc): through {@code
   * setpriv} with that user's uid and gid and no groups, its classpath's jars hard-linked where
   * that user can read them (the build's repository is under root's home), the KDC's krb5.conf
   * copied, the keystores made readable, and the work directory (conf, keytab, data) its own.
   */
  private static final class Nobody {
    static final int UID = 65534;
    static final List<String> SETPRIV =
        List.of("setpriv", "--reuid=" + UID, "--regid=" + UID, "--clear-groups", "--inh-caps=-all");

    /** Whether this JVM is root: a datanode started as it is would run as root. */
    static boolean needed() throws IOException {
      return uid(ProcessHandle.current().pid()) == 0;
    }

    static String readableClasspath(Path work) throws IOException {
      Path lib = work.resolve("lib");
      if (Files.isDirectory(lib)) {
        return Files.readString(lib.resolve("classpath"));
      }
      Files.createDirectories(lib);
      List<String> entries = new ArrayList<>();
      for (String e : Processes.runtimeClasspath().split(File.pathSeparator)) {
        Path p = Path.of(e);
        if (!Files.isRegularFile(p)) {
          entries.add(e); // the modules' classes, in the world-readable worktree
          continue;
        }
        Path link = lib.resolve(entries.size() + "-" + p.getFileName());
        try {
          Files.createLink(link, p);
        } catch (IOException | UnsupportedOperationException e2) {
          Files.copy(p, link);
        }
        entries.add(link.toString());
      }
      String classpath = String.join(File.pathSeparator, entries);
      Files.writeString(lib.resolve("classpath"), classpath);
      return classpath;
    }

    static String readableCopy(File f, Path work) throws IOException {
      Path copy = work.resolve(f.getName());
      Files.copy(f.toPath(), copy, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
      return copy.toString();
    }

    /** {@code dir} and its files readable by others, its parent only passable. */
    static void openForReading(File dir) throws IOException {
      allow(dir.getParentFile(), PosixFilePermission.OTHERS_EXECUTE);
      allow(dir, PosixFilePermission.OTHERS_READ, PosixFilePermission.OTHERS_EXECUTE);
      for (File f : dir.listFiles()) {
        allow(f, PosixFilePermission.OTHERS_READ);
      }
    }

    private static void allow(File f, PosixFilePermission... more) throws IOException {
      Set<PosixFilePermission> perms =
          new java.util.HashSet<>(Files.getPosixFilePermissions(f.toPath()));
      perms.addAll(List.of(more));
      Files.setPosixFilePermissions(f.toPath(), perms);
    }

    static void own(Path work) throws IOException {
      try (var paths = Files.walk(work)) {
        for (Path p : paths.toList()) {
          Files.setAttribute(p, "unix:uid", UID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
          Files.setAttribute(p, "unix:gid", UID, java.nio.file.LinkOption.NOFOLLOW_LINKS);
        }
      }
    }

    /** The real uid of process {@code pid}, from {@code /proc}. */
    static int uid(long pid) throws IOException {
      for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
        if (line.startsWith("Uid:")) {
          return Integer.parseInt(line.split("\\s+")[1]);
        }
      }
      throw new IOException("no Uid line for process " + pid);
    }
  }

  @Test
  void datanodesRunWithoutRootOnUnprivilegedPorts() throws Exception {
    try (SecureCluster c = new SecureCluster("authentication", Map.of(), false, true)) {
      for (Process dn : c.datanodes) {
        assertThat(Nobody.uid(dn.pid())).as("datanode's uid").isNotZero();
      }
      byte[] data = bytes(BLOCK + 4_321, 3);
      c.asAlice(
          fs -> {
            write(fs, "/nobody", data, (short) 3);
            return null;
          });
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/nobody"))).isEqualTo(data);
      // Every port a datanode serves (transfer, HTTPS, IPC) is unprivileged: SASL, not a
      // privileged port, vouches for it, as HDFS's SecureDataNodeStarter allows.
      for (DatanodeInfo dn : c.cluster.client().getDataNodeStats()) {
        assertThat(List.of(dn.getXferPort(), dn.getInfoSecurePort(), dn.getIpcPort()))
            .allSatisfy(port -> assertThat(port).isGreaterThan(1023));
      }
    }
  }

  @Test
  void datanodeWithAKeytabNotOfItsPrincipalFailsToStartClearly() throws Exception {
    File wrong = kdc.keytab("other.keytab", "other/localhost");
    try (SecureCluster c = new SecureCluster("authentication")) {
      Process dn = c.startDatanode(4, List.of(c.cluster.namenode(), c.second), Map.of(), wrong);
      assertThat(dn.waitFor(120, TimeUnit.SECONDS)).as("datanode 4 exited").isTrue();
      String log = java.nio.file.Files.readString(c.work.resolve("dn4.log"));
      assertThat(dn.exitValue()).as(log).isNotZero();
      // Hadoop's login error, naming the principal and the keytab, and no key of the keytab.
      assertThat(log)
          .contains(
              "hops datanode: failure to login: for principal: dn/localhost@"
                  + kdc.realm()
                  + " from keytab "
                  + c.work.resolve("dn4-conf").resolve("dn.keytab"))
          .contains("LoginException: Unable to obtain password from user")
          .doesNotContain(keyOf(wrong));
      // Nothing half-started: the namenodes know only the three datanodes that logged in.
      assertThat(c.cluster.namenode().namesystem().blocks().datanodes().heardFromLive()).hasSize(3);
      assertThat(c.second.namesystem().blocks().datanodes().heardFromLive()).hasSize(3);
    }
  }

  /** The hex of the first key in {@code keytab}, as a log line that leaked it would show it. */
  private static String keyOf(File keytab) throws IOException {
    var k = org.apache.kerby.kerberos.kerb.keytab.Keytab.loadKeytab(keytab);
    byte[] key = k.getKeytabEntries(k.getPrincipals().get(0)).get(0).getKey().getKeyData();
    return java.util.HexFormat.of().formatHex(key);
  }

  @FunctionalInterface
  private interface FsCall<T> {
    T run(DistributedFileSystem fs) throws Exception;
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(FileSystem fs, String path, byte[] data, short replication)
      throws IOException {
    try (FSDataOutputStream out =
        fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, replication, BLOCK)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      return IOUtils.readFullyToByteArray(in);
    }
  }

  private static List<LocatedBlock> blocks(DistributedFileSystem fs, String path)
      throws IOException {
    return fs.getClient().getLocatedBlocks(path, 0).getLocatedBlocks();
  }

  private static BlockTokenIdentifier identifier(Token<BlockTokenIdentifier> t) throws IOException {
    BlockTokenIdentifier id = new BlockTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(t.getIdentifier())));
    return id;
  }

  private static Token<BlockTokenIdentifier> tampered(Token<BlockTokenIdentifier> t) {
    byte[] password = t.getPassword().clone();
    password[0] ^= 1;
    return new Token<>(t.getIdentifier(), password, t.getKind(), t.getService());
  }

  /**
   * Asks the first location of {@code located} for {@code block} with {@code token} as the stock
   * client's block reader does, SASL handshake first (Hadoop's {@link SaslDataTransferClient} with
   * {@code conf}), and says what a client gets: "ok", or the exception class and message.
   */
  private static String readWith(
      Configuration conf,
      LocatedBlock located,
      ExtendedBlock block,
      Token<BlockTokenIdentifier> token) {
    return readWith(conf, located, block, token, null).replaceFirst("^ok .*", "ok");
  }

  /**
   * As {@link #readWith(Configuration, LocatedBlock, ExtendedBlock, Token)}, with the encrypted
   * handshake of {@code key} when not null; "ok" is followed by the class of the stream the
   * handshake gave (CryptoInputStream: AES; SaslInputStream: SASL's cipher).
   */
  private static String readWith(
      Configuration conf,
      LocatedBlock located,
      ExtendedBlock block,
      Token<BlockTokenIdentifier> token,
      DataEncryptionKey key) {
    DatanodeInfo dn = located.getLocations()[0];
    InetSocketAddress addr = NetUtils.createSocketAddr(dn.getXferAddr());
    try (Socket s = new Socket()) {
      s.connect(addr, 10_000);
      s.setSoTimeout(10_000);
      SaslDataTransferClient sasl =
          new SaslDataTransferClient(
              conf,
              DataTransferSaslUtil.getSaslPropertiesResolver(conf),
              TrustedChannelResolver.getInstance(conf),
              new AtomicBoolean(false));
      IOStreamPair streams =
          sasl.socketSend(s, s.getOutputStream(), s.getInputStream(), () -> key, token, dn);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(streams.out));
      new Sender(out)
          .readBlock(
              block,
              token,
              "secure-datanodes-test",
              0,
              block.getNumBytes(),
              true,
              CachingStrategy.newDefaultStrategy());
      out.flush();
      BlockOpResponseProto answer =
          BlockOpResponseProto.parseFrom(
              PBHelperClient.vintPrefixed(new DataInputStream(streams.in)));
      DataTransferProtoUtil.checkBlockOpStatus(answer, "for the test");
      return "ok " + streams.in.getClass().getSimpleName();
    } catch (IOException e) {
      return e.getClass().getName() + ": " + e.getMessage();
    }
  }

  private static Set<Integer> ports(LocatedBlock b) {
    Set<Integer> out = new TreeSet<>();
    for (DatanodeInfo d : b.getLocations()) {
      out.add(d.getXferPort());
    }
    return out;
  }

  @Test
  void kerberizedClientWritesReadsAndReReplicatesThroughSaslDatanodes() throws Exception {
    try (SecureCluster c = new SecureCluster("authentication")) {
      Configuration conf = c.clientConf();
      byte[] data = bytes(3 * BLOCK + 12_345, 1);
      c.asAlice(
          fs -> {
            write(fs, "/big", data, (short) 3);
            return null;
          });
      List<LocatedBlock> located = c.asAlice(fs -> blocks(fs, "/big"));
      assertThat(located).hasSize(4);
      for (LocatedBlock b : located) {
        assertThat(b.getLocations()).as("a pipeline of three").hasSize(3);
        assertThat(identifier(b.getBlockToken()).getUserId()).isEqualTo("alice");
      }
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/big"))).isEqualTo(data);

      // Under SASL a token is the handshake's credential: a tampered password fails the
      // handshake, a token of another block passes it and is refused by the datanode's check.
      // Tokens fresh from the namenode: those of the write's read live TOKEN_LIFETIME_MS, which a
      // loaded machine can spend on the read of the whole file above.
      List<LocatedBlock> fresh = c.asAlice(fs -> blocks(fs, "/big"));
      LocatedBlock first = fresh.get(0);
      LocatedBlock second = fresh.get(1);
      String accessError =
          "org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException: Got access"
              + " token error, status message , for the test";
      assertThat(alice(c, () -> readWith(conf, first, first.getBlock(), first.getBlockToken())))
          .isEqualTo("ok");
      assertThat(
              alice(
                  c,
                  () -> readWith(conf, first, first.getBlock(), tampered(first.getBlockToken()))))
          .isEqualTo(MISMATCH);
      assertThat(alice(c, () -> readWith(conf, second, second.getBlock(), first.getBlockToken())))
          .isEqualTo(accessError);

      // Re-replication: a datanode holding a replica of /r stops; the namenode has it copied,
      // datanode to datanode over SASL with a token the source makes from the shared keys.
      Copied copy = reReplicated(c, "/r", bytes(BLOCK / 2, 2));
      Set<Integer> copiedTo = new TreeSet<>(copy.after());
      copiedTo.removeAll(copy.before());
      assertThat(copiedTo).hasSize(1);

      // An expired token is refused by the handshake (the datanode cannot compute its password).
      Thread.sleep(
          Math.max(
                  0, identifier(first.getBlockToken()).getExpiryDate() - System.currentTimeMillis())
              + 500);
      LocatedBlock live = c.asAlice(fs -> blocks(fs, "/big")).get(0);
      LocatedBlock expiredAt =
          new LocatedBlock(first.getBlock(), live.getLocations(), null, null, 0, false, null);
      assertThat(alice(c, () -> readWith(conf, expiredAt, first.getBlock(), first.getBlockToken())))
          .startsWith("org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException")
          .contains("is expired");
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/big"))).isEqualTo(data);
    }
  }

  /**
   * {@code dfs.data.transfer.protection=privacy} alone (no {@code dfs.encrypt.data.transfer}), with
   * AES offered by every side: a client that offers AES gets AES/CTR streams from a datanode and
   * from the database-file block server alike; one that does not gets SASL's own cipher from both.
   */
  @Test
  void privacyEncryptsThePipelineAndTheDatabaseFileBlockServerSpeaksSasl() throws Exception {
    try (SecureCluster c =
        new SecureCluster(
            "privacy",
            Map.of(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_CIPHER_SUITES_KEY, "AES/CTR/NoPadding"),
            false)) {
      byte[] data = bytes(2 * BLOCK + 777, 3);
      c.asAlice(
          fs -> {
            write(fs, "/p", data, (short) 3);
            return null;
          });
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/p"))).isEqualTo(data);
      assertThat(c.<DatanodeInfo[]>asAlice(fs -> blocks(fs, "/p").get(0).getLocations()))
          .hasSize(3);

      byte[] small = bytes(3000, 4);
      c.asAlice(
          fs -> {
            fs.mkdirs(new org.apache.hadoop.fs.Path("/db"));
            return null;
          });
      c.cluster.client().setStoragePolicy(new org.apache.hadoop.fs.Path("/db"), "DB");
      c.alice.doAs(
          (PrivilegedExceptionAction<Void>)
              () -> {
                var smallFiles =
                    new SmallFilesProtocolTranslatorPB(
                        c.cluster.namenode().address(), c.clientConf());
                try {
                  smallFiles.createSmallFile(
                      "/db/f",
                      (short) 0644,
                      "DFSClient_sasl",
                      false,
                      true,
                      (short) 1,
                      BLOCK,
                      small);
                } finally {
                  smallFiles.close();
                }
                return null;
              });
      LocatedBlock f = c.asAlice(fs -> blocks(fs, "/db/f")).get(0);
      // Either namenode answers (one nameservice); its database-file block server is no datanode.
      assertThat(f.getLocations()).hasSize(1);
      assertThat(c.xferPorts).doesNotContain(f.getLocations()[0].getXferPort());
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/db/f"))).isEqualTo(small);
      Configuration conf = c.clientConf();
      assertThat(alice(c, () -> readWith(conf, f, f.getBlock(), f.getBlockToken())))
          .isEqualTo("ok");
      assertThat(alice(c, () -> readWith(conf, f, f.getBlock(), tampered(f.getBlockToken()))))
          .isEqualTo(MISMATCH);

      Configuration saslCipher = new Configuration(conf);
      saslCipher.unset(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_CIPHER_SUITES_KEY);
      LocatedBlock b = c.asAlice(fs -> blocks(fs, "/p")).get(0);
      for (LocatedBlock at : List.of(b, f)) {
        assertThat(alice(c, () -> readWith(conf, at, at.getBlock(), at.getBlockToken(), null)))
            .as("a client offering AES")
            .isEqualTo("ok CryptoInputStream");
        assertThat(
                alice(c, () -> readWith(saslCipher, at, at.getBlock(), at.getBlockToken(), null)))
            .as("a client offering no cipher")
            .isEqualTo("ok SaslInputStream");
      }
    }
  }

  /** Writes {@code data} as a database file through {@code nn}'s small-files protocol. */
  private static void createDatabaseFile(SecureCluster c, HopsNameNode nn, String path, byte[] data)
      throws Exception {
    c.alice.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              var smallFiles = new SmallFilesProtocolTranslatorPB(nn.address(), c.clientConf());
              try {
                smallFiles.createSmallFile(
                    path, (short) 0644, "DFSClient_sasl", false, true, (short) 1, BLOCK, data);
              } finally {
                smallFiles.close();
              }
              return null;
            });
  }

  /** A copy of {@code k} with another key id, or with one bit of its encryption key flipped. */
  private static DataEncryptionKey altered(DataEncryptionKey k, int keyId, boolean flipBit) {
    byte[] secret = k.encryptionKey.clone();
    if (flipBit) {
      secret[0] ^= 1;
    }
    return new DataEncryptionKey(
        keyId, k.blockPoolId, k.nonce, secret, k.expiryDate, k.encryptionAlgorithm);
  }

  private static int currentBlockKey(HopsNameNode nn) throws IOException {
    return nn.namesystem().blockTokens().exportKeys().getCurrentKey().getKeyId();
  }

  /** What a client gets, with HDFS's message, for a key whose block key no datanode has. */
  private static String unknownKey(int keyId) {
    return "org.apache.hadoop.hdfs.protocol.datatransfer.InvalidEncryptionKeyException: Can't"
        + " re-compute encryption key for nonce, since the required block key (keyID="
        + keyId
        + ") doesn't exist.";
  }

  @Test
  void encryptedDataTransferWithKeysFromTheDatabaseWritesReadsAndReReplicates() throws Exception {
    try (SecureCluster c =
        new SecureCluster(
            "authentication", Map.of(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, "true"), false)) {
      Configuration conf = c.clientConf();
      // The server defaults turn encryption on in the client, which asks a namenode for a key.
      DataEncryptionKey key = c.asAlice(fs -> fs.getClient().newDataEncryptionKey());
      assertThat(key).isNotNull();
      assertThat(key.keyId).isEqualTo(currentBlockKey(c.cluster.namenode()));
      assertThat(key.blockPoolId)
          .isEqualTo(c.cluster.namenode().namesystem().blockTokens().blockPoolId());
      assertThat(key.encryptionAlgorithm).as("SASL's default cipher (3DES or RC4)").isNull();
      assertThat(key.expiryDate - System.currentTimeMillis())
          .isBetween(0L, TOKEN_LIFETIME_MS + 1000);

      byte[] data = bytes(3 * BLOCK + 12_345, 5);
      c.asAlice(
          fs -> {
            write(fs, "/e", data, (short) 3);
            return null;
          });
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/e"))).isEqualTo(data);
      List<LocatedBlock> located = c.asAlice(fs -> blocks(fs, "/e"));
      assertThat(located).hasSize(4);
      assertThat(located.get(3).getLocations()).hasSize(3);

      byte[] small = bytes(3000, 6);
      c.asAlice(fs -> fs.mkdirs(new org.apache.hadoop.fs.Path("/db")));
      c.cluster.client().setStoragePolicy(new org.apache.hadoop.fs.Path("/db"), "DB");
      createDatabaseFile(c, c.cluster.namenode(), "/db/e", small);
      assertThat(c.<byte[]>asAlice(fs -> read(fs, "/db/e"))).isEqualTo(small);

      // The encrypted handshake with a datanode and with the database-file block server: the
      // genuine key passes (SASL's cipher), a flipped bit and an unknown key id are refused by
      // both with the same answers.
      DataEncryptionKey fresh = c.asAlice(fs -> fs.getClient().newDataEncryptionKey());
      LocatedBlock b = c.asAlice(fs -> blocks(fs, "/e")).get(0);
      LocatedBlock f = c.asAlice(fs -> blocks(fs, "/db/e")).get(0);
      assertThat(c.xferPorts).doesNotContain(f.getLocations()[0].getXferPort());
      for (LocatedBlock at : List.of(b, f)) {
        assertThat(alice(c, () -> readWith(conf, at, at.getBlock(), at.getBlockToken(), fresh)))
            .isEqualTo("ok SaslInputStream");
        assertThat(
                alice(
                    c,
                    () ->
                        readWith(
                            conf,
                            at,
                            at.getBlock(),
                            at.getBlockToken(),
                            altered(fresh, fresh.keyId, true))))
            .isEqualTo(MISMATCH);
        assertThat(
                alice(
                    c,
                    () ->
                        readWith(
                            conf,
                            at,
                            at.getBlock(),
                            at.getBlockToken(),
                            altered(fresh, fresh.keyId + 1000, false))))
            .startsWith(unknownKey(fresh.keyId + 1000));
      }

      // Re-replication: datanode to datanode, with a key the source makes from the shared keys.
      reReplicated(c, "/er", bytes(BLOCK / 2, 7));
    }
  }

  @Test
  void aesKeysOfOneNamenodeWorkOnDatanodesOfAnotherUntilTheirBlockKeyExpires() throws Exception {
    try (SecureCluster c =
        new SecureCluster(
            "authentication",
            Map.of(
                DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY,
                "true",
                DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_CIPHER_SUITES_KEY,
                "AES/CTR/NoPadding",
                NamenodeConfig.BLOCK_KEY_UPDATE_INTERVAL_MS,
                "5000"),
            true)) {
      // The datanodes registered with the second namenode only: they hold the keys it sent. A
      // third namenode starts after them: it knows them from the database only.
      HopsNameNode a = c.cluster.startAnotherNamenode();
      try {
        aesKeysOfOneNamenodeOnDatanodesOfAnother(c, a);
      } finally {
        a.close();
      }
    }
  }

  private static void aesKeysOfOneNamenodeOnDatanodesOfAnother(SecureCluster c, HopsNameNode a)
      throws Exception {
    Configuration viaA = c.clientConf(a);
    Configuration viaB = c.clientConf(c.second);
    byte[] data = bytes(2 * BLOCK + 999, 8);
    c.asAlice(
        viaB,
        fs -> {
          write(fs, "/aes", data, (short) 3);
          return null;
        });
    assertThat(c.<byte[]>asAlice(viaA, fs -> read(fs, "/aes"))).isEqualTo(data);
    byte[] small = bytes(2000, 9);
    c.asAlice(viaA, fs -> fs.mkdirs(new org.apache.hadoop.fs.Path("/db")));
    c.cluster.client().setStoragePolicy(new org.apache.hadoop.fs.Path("/db"), "DB");
    createDatabaseFile(c, a, "/db/aes", small);
    assertThat(c.<byte[]>asAlice(viaA, fs -> read(fs, "/db/aes"))).isEqualTo(small);

    DataEncryptionKey fromA = c.asAlice(viaA, fs -> fs.getClient().newDataEncryptionKey());
    DataEncryptionKey fromB = c.asAlice(viaB, fs -> fs.getClient().newDataEncryptionKey());
    LocatedBlock b = c.asAlice(viaA, fs -> blocks(fs, "/aes")).get(0);
    LocatedBlock f = c.asAlice(viaA, fs -> blocks(fs, "/db/aes")).get(0);
    for (DataEncryptionKey key : List.of(fromA, fromB)) {
      for (LocatedBlock at : List.of(b, f)) {
        assertThat(alice(c, () -> readWith(viaA, at, at.getBlock(), at.getBlockToken(), key)))
            .as("AES negotiated")
            .isEqualTo("ok CryptoInputStream");
      }
    }

    // The leader rolls the block keys every 5 s: once fromA's key expired, every datanode and
    // the block server refuse it as unknown (the stock client then fetches a new key).
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    String answer;
    do {
      assertThat(System.nanoTime()).as("key %d expires", fromA.keyId).isLessThan(deadline);
      Thread.sleep(1000);
      LocatedBlock now = c.asAlice(viaA, fs -> blocks(fs, "/aes")).get(0);
      answer = alice(c, () -> readWith(viaA, now, now.getBlock(), now.getBlockToken(), fromA));
    } while (answer.startsWith("ok"));
    assertThat(answer).startsWith(unknownKey(fromA.keyId));
    LocatedBlock nowF = c.asAlice(viaA, fs -> blocks(fs, "/db/aes")).get(0);
    assertThat(alice(c, () -> readWith(viaA, nowF, nowF.getBlock(), nowF.getBlockToken(), fromA)))
        .startsWith(unknownKey(fromA.keyId));
    assertThat(c.<byte[]>asAlice(viaA, fs -> read(fs, "/aes"))).isEqualTo(data);
    assertThat(c.<byte[]>asAlice(viaA, fs -> read(fs, "/db/aes"))).isEqualTo(small);
  }

  /** The transfer ports of a block's holders before a kill and after its re-replication. */
  private record Copied(Set<Integer> before, Set<Integer> after) {}

  /**
   * Writes {@code data} as {@code path} with 2 replicas, kills a datanode holding its block, waits
   * (up to 90 s) until the block has 2 replicas again without it, and checks the file reads back.
   */
  private static Copied reReplicated(SecureCluster c, String path, byte[] data) throws Exception {
    c.asAlice(
        fs -> {
          write(fs, path, data, (short) 2);
          return null;
        });
    // close() returns once one replica is recorded; wait for the second datanode's receipt, or
    // the victim may be the only replica the namenode knew of and "copied" would count two.
    long recorded = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    Set<Integer> before = ports(c.asAlice(fs -> blocks(fs, path)).get(0));
    while (before.size() < 2) {
      assertThat(System.nanoTime()).as("both replicas of %s recorded", path).isLessThan(recorded);
      Thread.sleep(100);
      before = ports(c.asAlice(fs -> blocks(fs, path)).get(0));
    }
    int victim = c.xferPorts.indexOf(before.iterator().next()) + 1;
    c.kill(victim);
    int gone = c.xferPorts.get(victim - 1);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    Set<Integer> after = before;
    while (after.contains(gone) || after.size() < 2) {
      assertThat(System.nanoTime())
          .as("re-replicated away from %d: %s", gone, after)
          .isLessThan(deadline);
      Thread.sleep(300);
      after = ports(c.asAlice(fs -> blocks(fs, path)).get(0));
    }
    assertThat(c.<byte[]>asAlice(fs -> read(fs, path))).isEqualTo(data);
    return new Copied(before, after);
  }

  private static String alice(SecureCluster c, java.util.function.Supplier<String> call)
      throws Exception {
    return c.alice.doAs((PrivilegedExceptionAction<String>) call::get);
  }
}
