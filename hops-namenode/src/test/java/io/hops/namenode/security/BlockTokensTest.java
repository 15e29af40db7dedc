package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.BufferedOutputStream;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.datatransfer.DataTransferProtoUtil;
import org.apache.hadoop.hdfs.protocol.datatransfer.Sender;
import org.apache.hadoop.hdfs.protocol.proto.DataTransferProtos.BlockOpResponseProto;
import org.apache.hadoop.hdfs.protocolPB.PBHelperClient;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.datanode.CachingStrategy;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;

/**
 * Block access tokens (issue 56, item 4) with stock DataNodes: every namenode signs with the keys
 * the leader keeps in the database, so a token of one namenode verifies on a datanode that got its
 * keys from another; forged, tampered, misdirected and expired tokens are refused by the datanode
 * as HDFS's are (side by side with a MiniDFSCluster); keys roll under a writer; tokens outlive the
 * leader that made their key.
 */
class BlockTokensTest {
  private static final long SECOND = 1000;

  private static Configuration tokensOn(long rollMs, long lifetimeMs) {
    Configuration c = new Configuration(false);
    c.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    if (rollMs > 0) {
      c.setLong(NamenodeConfig.BLOCK_KEY_UPDATE_INTERVAL_MS, rollMs);
    }
    if (lifetimeMs > 0) {
      c.setLong(NamenodeConfig.BLOCK_TOKEN_LIFETIME_MS, lifetimeMs);
    }
    c.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 200);
    return c;
  }

  private static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  private static void write(FileSystem fs, String path, byte[] data, short replication)
      throws IOException {
    try (FSDataOutputStream out =
        fs.create(new Path(path), true, 4096, replication, fs.getDefaultBlockSize(new Path("/")))) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, String path) throws IOException {
    try (FSDataInputStream in = fs.open(new Path(path))) {
      return IOUtils.readFullyToByteArray(in);
    }
  }

  private static LocatedBlock firstBlock(DistributedFileSystem fs, String path) throws IOException {
    return fs.getClient().getLocatedBlocks(path, 0).get(0);
  }

  private static BlockTokenIdentifier identifier(Token<BlockTokenIdentifier> t) throws IOException {
    BlockTokenIdentifier id = new BlockTokenIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(t.getIdentifier())));
    return id;
  }

  /**
   * Asks the first datanode of {@code located} for {@code block} with {@code token}, as a stock
   * client's block reader does, and says what a client gets: "ok" or the exception class and
   * message of the answer.
   */
  private static String readWith(
      LocatedBlock located, ExtendedBlock block, Token<BlockTokenIdentifier> token)
      throws IOException {
    InetSocketAddress dn = NetUtils.createSocketAddr(located.getLocations()[0].getXferAddr());
    try (Socket s = new Socket()) {
      s.connect(dn, 10_000);
      s.setSoTimeout(10_000);
      DataOutputStream out = new DataOutputStream(new BufferedOutputStream(s.getOutputStream()));
      new Sender(out)
          .readBlock(
              block,
              token,
              "block-tokens-test",
              0,
              block.getNumBytes(),
              true,
              CachingStrategy.newDefaultStrategy());
      out.flush();
      BlockOpResponseProto answer =
          BlockOpResponseProto.parseFrom(
              PBHelperClient.vintPrefixed(new DataInputStream(s.getInputStream())));
      try {
        DataTransferProtoUtil.checkBlockOpStatus(answer, "for the test");
        return "ok";
      } catch (IOException e) {
        return e.getClass().getName() + ": " + e.getMessage();
      }
    }
  }

  private static Token<BlockTokenIdentifier> tampered(Token<BlockTokenIdentifier> t) {
    byte[] password = t.getPassword().clone();
    password[0] ^= 1;
    return new Token<>(t.getIdentifier(), password, t.getKind(), t.getService());
  }

  /** A token claiming {@code other}'s block id, with the password of {@code t}. */
  private static Token<BlockTokenIdentifier> forgedFor(Token<BlockTokenIdentifier> t, long other)
      throws IOException {
    BlockTokenIdentifier id = identifier(t);
    BlockTokenIdentifier forged =
        new BlockTokenIdentifier(
            id.getUserId(),
            id.getBlockPoolId(),
            other,
            id.getAccessModes(),
            id.getStorageTypes(),
            id.getStorageIds(),
            false);
    forged.setExpiryDate(id.getExpiryDate());
    forged.setKeyId(id.getKeyId());
    return new Token<>(forged.getBytes(), t.getPassword(), t.getKind(), t.getService());
  }

  /** Datanodes that know only {@code nn}: their keys come from its registration answers alone. */
  private static List<DataNode> datanodesOf(HopsNameNode nn, int n, java.nio.file.Path root)
      throws IOException {
    return datanodesOf(nn, n, root, new Configuration(false));
  }

  /** As above, each datanode also with {@code extra}'s keys. */
  private static List<DataNode> datanodesOf(
      HopsNameNode nn, int n, java.nio.file.Path root, Configuration extra) throws IOException {
    List<DataNode> started = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      Configuration base = new Configuration(extra);
      base.set("dfs.heartbeat.interval", "1");
      base.set("dfs.blockreport.initialDelay", "0");
      started.add(
          DatanodeLauncher.start(
              DatanodeLauncher.configure(
                  base, List.of(nn.address()), root.resolve("dn" + i).toFile(), "127.0.0.1")));
    }
    long deadline = System.currentTimeMillis() + 60 * SECOND;
    while (nn.namesystem().blocks().datanodes().heardFromLive().size() < n) {
      assertThat(System.currentTimeMillis()).as("datanodes up").isLessThan(deadline);
      sleep(100);
    }
    return started;
  }

  private static void sleep(long ms) {
    try {
      Thread.sleep(ms);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new AssertionError(e);
    }
  }

  private static Set<Integer> keyIds(ExportedBlockKeys keys) {
    return Arrays.stream(keys.getAllKeys())
        .map(k -> k.getKeyId())
        .collect(Collectors.toCollection(TreeSet::new));
  }

  @Test
  void aTokenOfOneNamenodeVerifiesOnDatanodesRegisteredThroughAnother() throws Exception {
    java.nio.file.Path root = Files.createTempDirectory("hops-dn-tokens-");
    List<DataNode> dns = List.of();
    try (HopsTestCluster cluster = new HopsTestCluster(tokensOn(0, 0))) {
      HopsNameNode b = cluster.startAnotherNamenode();
      HopsNameNode c = null;
      try {
        dns = datanodesOf(b, 2, root);
        byte[] data = bytes(300_000, 1);
        write(cluster.client(b), "/f", data, (short) 2);
        // C starts after the datanodes registered through B: it knows them from the database
        // only, and they never heard from C.
        c = cluster.startAnotherNamenode();
        DistributedFileSystem viaC = cluster.client(c);
        LocatedBlock fromC = firstBlock(viaC, "/f");
        assertThat(fromC.getBlockToken().getIdentifier()).as("C signs the block").isNotEmpty();
        assertThat(readWith(fromC, fromC.getBlock(), fromC.getBlockToken())).isEqualTo("ok");
        assertThat(readWith(fromC, fromC.getBlock(), tampered(fromC.getBlockToken())))
            .startsWith("org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException");
        assertThat(read(viaC, "/f")).isEqualTo(data);
        LocatedBlock fromB = firstBlock(cluster.client(b), "/f");
        assertThat(identifier(fromB.getBlockToken()).getKeyId())
            .isEqualTo(identifier(fromC.getBlockToken()).getKeyId());
        assertThat(keyIds(c.namesystem().blockTokens().exportKeys()))
            .isEqualTo(keyIds(b.namesystem().blockTokens().exportKeys()))
            .isEqualTo(keyIds(cluster.namenode().namesystem().blockTokens().exportKeys()))
            .hasSize(2);
      } finally {
        dns.forEach(DataNode::shutdown);
        b.close();
        if (c != null) {
          c.close();
        }
      }
    } finally {
      FileUtil.fullyDelete(root.toFile());
    }
  }

  /**
   * Encrypted data transfer needs block tokens, not Kerberos (as in HDFS): the server defaults turn
   * it on in the client, whose key a datanode that registered with another namenode accepts.
   */
  @Test
  void encryptedDataTransferWithoutKerberos() throws Exception {
    Configuration conf = tokensOn(0, 0);
    conf.setBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, true);
    java.nio.file.Path root = Files.createTempDirectory("hops-dn-encrypt-");
    List<DataNode> dns = List.of();
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      HopsNameNode b = cluster.startAnotherNamenode();
      HopsNameNode c = null;
      try {
        Configuration encrypt = new Configuration(false);
        encrypt.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
        encrypt.setBoolean(DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY, true);
        dns = datanodesOf(b, 2, root, encrypt);
        byte[] data = bytes(300_000, 11);
        write(cluster.client(b), "/enc", data, (short) 2);
        // C starts after the datanodes registered through B: it knows them from the database.
        c = cluster.startAnotherNamenode();
        DistributedFileSystem viaC = cluster.client(c);
        assertThat(viaC.getServerDefaults(new Path("/")).getEncryptDataTransfer()).isTrue();
        assertThat(viaC.getClient().newDataEncryptionKey()).isNotNull();
        assertThat(read(viaC, "/enc")).isEqualTo(data);
      } finally {
        dns.forEach(DataNode::shutdown);
        b.close();
        if (c != null) {
          c.close();
        }
      }
    } finally {
      FileUtil.fullyDelete(root.toFile());
    }
  }

  /**
   * What a client gets for: the genuine token, a tampered password, a token of another block, an
   * identifier rewritten for another block, and the genuine token once expired.
   */
  private static List<String> refusals(DistributedFileSystem fs) throws Exception {
    write(fs, "/a", bytes(10_000, 2), (short) 1);
    write(fs, "/b", bytes(10_000, 3), (short) 1);
    LocatedBlock a = firstBlock(fs, "/a");
    LocatedBlock b = firstBlock(fs, "/b");
    List<String> seen = new ArrayList<>();
    seen.add(readWith(a, a.getBlock(), a.getBlockToken()));
    seen.add(readWith(a, a.getBlock(), tampered(a.getBlockToken())));
    seen.add(readWith(b, b.getBlock(), a.getBlockToken()));
    seen.add(readWith(b, b.getBlock(), forgedFor(a.getBlockToken(), b.getBlock().getBlockId())));
    // A stream opened now reads after its tokens expired: the client fetches new ones.
    try (FSDataInputStream open = fs.open(new Path("/a"))) {
      sleep(
          Math.max(0, identifier(a.getBlockToken()).getExpiryDate() - System.currentTimeMillis())
              + 500);
      seen.add(readWith(a, a.getBlock(), a.getBlockToken()));
      seen.add(
          Arrays.equals(IOUtils.readFullyToByteArray(open), bytes(10_000, 2))
              ? "read after expiry"
              : "wrong bytes");
    }
    return seen;
  }

  @Test
  void forgedTamperedMisdirectedAndExpiredTokensAreRefusedLikeHdfs() throws Exception {
    long lifetime = 4 * SECOND;
    List<String> hops;
    try (HopsTestCluster cluster = new HopsTestCluster(tokensOn(0, lifetime))) {
      cluster.startDatanodes(1);
      hops = refusals(cluster.client());
    }
    Configuration on = new Configuration(false);
    on.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    MiniDFSCluster hdfs = ApacheHdfs.start("block-tokens", on, 1);
    List<String> apache;
    try {
      hdfs.getNamesystem()
          .getBlockManager()
          .getBlockTokenSecretManager()
          .setTokenLifetime(lifetime);
      apache = refusals((DistributedFileSystem) FileSystem.get(ApacheHdfs.clientConf(hdfs, 1)));
    } finally {
      hdfs.shutdown();
    }
    String refused =
        "org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException: Got access token"
            + " error, status message , for the test";
    assertThat(hops)
        .containsExactly("ok", refused, refused, refused, refused, "read after expiry")
        .isEqualTo(apache);
  }

  @Test
  void keysRollWhileAClientWritesALongFile() throws Exception {
    Configuration conf = tokensOn(2 * SECOND, 0);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      cluster.startDatanodes(2);
      Configuration client = cluster.clientConf();
      client.setLong(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 1 << 20);
      DistributedFileSystem fs = (DistributedFileSystem) FileSystem.get(cluster.uri(), client);
      byte[] data = bytes(10 << 20, 4);
      long start = System.currentTimeMillis();
      try (FSDataOutputStream out = fs.create(new Path("/long"), (short) 2)) {
        for (int at = 0; at < data.length; at += 256 << 10) {
          out.write(data, at, 256 << 10);
          out.hflush();
          sleep(250);
        }
      }
      assertThat(System.currentTimeMillis() - start).isGreaterThan(8 * SECOND);
      assertThat(read(fs, "/long")).isEqualTo(data);
      Set<Integer> keys = new TreeSet<>();
      for (LocatedBlock b : fs.getClient().getLocatedBlocks("/long", 0).getLocatedBlocks()) {
        keys.add(identifier(b.getBlockToken()).getKeyId());
      }
      // Tokens signed now all use the current key; the keys rolled about four times meanwhile.
      assertThat(keys).hasSize(1);
      assertThat(keys.iterator().next()).isGreaterThan(BlockTokens.FIRST_KEY_ID + 2);
    }
  }

  @Test
  void tokensIssuedBeforeTheLeaderDiesStillVerify() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(tokensOn(2 * SECOND, 0))) {
      HopsNameNode leader = cluster.namenode();
      HopsNameNode other = cluster.startAnotherNamenode();
      try {
        cluster.startDatanodes(2, new Configuration(false), other);
        byte[] data = bytes(100_000, 5);
        write(cluster.client(), "/f", data, (short) 2);
        LocatedBlock before = firstBlock(cluster.client(), "/f");
        int keyBefore = identifier(before.getBlockToken()).getKeyId();

        leader.close();
        DistributedFileSystem viaOther = cluster.client(other);
        long deadline = System.currentTimeMillis() + 60 * SECOND;
        while (!other.namesystem().blocks().isLeader()
            || identifier(firstBlock(viaOther, "/f").getBlockToken()).getKeyId() <= keyBefore + 1) {
          assertThat(System.currentTimeMillis()).as("the new leader rolls").isLessThan(deadline);
          sleep(200);
        }
        assertThat(readWith(before, before.getBlock(), before.getBlockToken())).isEqualTo("ok");
        assertThat(read(viaOther, "/f")).isEqualTo(data);
      } finally {
        other.close();
      }
    }
  }

  @Test
  void theDatabaseFileBlockServerChecksTheSameTokens() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(tokensOn(0, 0))) {
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/db"));
      fs.setStoragePolicy(new Path("/db"), "DB");
      byte[] data = bytes(3000, 6);
      byte[] other = bytes(2000, 7);
      var smallFiles =
          new io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB(
              cluster.namenode().address(), cluster.clientConf());
      try {
        smallFiles.createSmallFile(
            "/db/f", (short) 0644, "DFSClient_tokens", false, true, (short) 1, 1 << 20, data);
        smallFiles.createSmallFile(
            "/db/g", (short) 0644, "DFSClient_tokens", false, true, (short) 1, 1 << 20, other);
      } finally {
        smallFiles.close();
      }
      LocatedBlock f = firstBlock(fs, "/db/f");
      LocatedBlock g = firstBlock(fs, "/db/g");
      assertThat(
              cluster
                  .namenode()
                  .namesystem()
                  .smallFiles()
                  .isDatabaseFile(fs.getClient().getLocatedBlocks("/db/f", 0)))
          .as("served by the namenode")
          .isTrue();
      assertThat(readWith(f, f.getBlock(), f.getBlockToken())).isEqualTo("ok");
      String refused =
          "org.apache.hadoop.hdfs.security.token.block.InvalidBlockTokenException: Got access"
              + " token error, status message , for the test";
      assertThat(readWith(f, f.getBlock(), tampered(f.getBlockToken()))).isEqualTo(refused);
      assertThat(readWith(g, g.getBlock(), f.getBlockToken())).isEqualTo(refused);
      assertThat(readWith(f, f.getBlock(), new Token<>())).isEqualTo(refused);
      assertThat(read(fs, "/db/f")).isEqualTo(data);
    }
  }

  @Test
  void anAppendAnsweredFromTheRetryCacheCarriesAFreshToken() throws Exception {
    long lifetime = 3 * SECOND;
    try (HopsTestCluster cluster = new HopsTestCluster(tokensOn(0, lifetime))) {
      cluster.startDatanodes(1);
      write(cluster.client(), "/r", bytes(1000, 8), (short) 1);
      Configuration conf = cluster.clientConf();
      org.apache.hadoop.ipc.RPC.setProtocolEngine(
          conf,
          org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB.class,
          org.apache.hadoop.ipc.ProtobufRpcEngine2.class);
      var nn =
          new org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolTranslatorPB(
              org.apache.hadoop.ipc.RPC.getProxy(
                  org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB.class,
                  org.apache.hadoop.ipc.RPC.getProtocolVersion(
                      org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB.class),
                  cluster.namenode().address(),
                  conf));
      var flags =
          new org.apache.hadoop.io.EnumSetWritable<>(
              java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.APPEND));
      int callId = 1_600_000_001; // far from the ids the JVM's shared IPC client hands out
      org.apache.hadoop.ipc.Client.setCallIdAndRetryCount(callId, 0, null);
      LocatedBlock first = nn.append("/r", "DFSClient_replayed_append", flags).getLastBlock();
      sleep(identifier(first.getBlockToken()).getExpiryDate() - System.currentTimeMillis() + 500);
      org.apache.hadoop.ipc.Client.setCallIdAndRetryCount(callId, 1, null);
      LocatedBlock replayed = nn.append("/r", "DFSClient_replayed_append", flags).getLastBlock();
      org.apache.hadoop.ipc.RPC.stopProxy(nn);

      assertThat(replayed.getBlock()).as("the first outcome").isEqualTo(first.getBlock());
      BlockTokens tokens = cluster.namenode().namesystem().blockTokens();
      var write = BlockTokenIdentifier.AccessMode.WRITE;
      org.assertj.core.api.Assertions.assertThatThrownBy(
              () -> tokens.checkAccess(first.getBlockToken(), null, first.getBlock(), write))
          .hasMessageContaining("is expired");
      tokens.checkAccess(replayed.getBlockToken(), null, replayed.getBlock(), write);
    }
  }

  @Test
  void keysRollAndVerifyOnMariadb() throws Exception {
    try (HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(tokensOn(SECOND, 0))) {
      if (cluster == null) {
        return; // HOPS_TEST_MYSQL_URL not set: the embedded tests above cover the rest
      }
      cluster.startDatanodes(1);
      DistributedFileSystem fs = cluster.client();
      byte[] data = bytes(50_000, 9);
      write(fs, "/m", data, (short) 1);
      int before = identifier(firstBlock(fs, "/m").getBlockToken()).getKeyId();
      sleep(3 * SECOND);
      LocatedBlock after = firstBlock(fs, "/m");
      assertThat(identifier(after.getBlockToken()).getKeyId()).isGreaterThan(before);
      assertThat(readWith(after, after.getBlock(), after.getBlockToken())).isEqualTo("ok");
      assertThat(read(fs, "/m")).isEqualTo(data);
    }
  }
}
