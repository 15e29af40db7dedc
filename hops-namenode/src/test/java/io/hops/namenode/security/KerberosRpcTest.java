package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.shell.ToolProcess;
import java.io.ByteArrayOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.apache.hadoop.hdfs.tools.DFSAdmin;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Kerberos on the namenode's RPC port, side by side with a kerberized MiniDFSCluster over the same
 * KDC ({@code hadoop-minikdc}): logins from keytabs, refusals of clients without a ticket or with
 * simple authentication, {@code hadoop.rpc.protection}, proxy users, service ACLs and their refresh
 * through the database, and the audit line of a proxied call (a client principal posing as a
 * datanode: {@link SecureDatanodeRefusalsLikeHdfsTest}). Both namenodes share one service principal
 * ({@code hdfs/localhost}), as Hadoop's own tests do in one JVM: a process has one login user. No
 * datanode: a stock DataNode needs block access tokens to start with Kerberos (issue 56, item 4).
 */
class KerberosRpcTest {
  private static TestKdc kdc;
  private static File policy;
  private static HopsTestCluster hops;
  private static HopsNameNode second;
  private static MiniDFSCluster hdfs;
  private static Configuration serverConf;

  @BeforeAll
  static void start() throws Exception {
    kdc =
        TestKdc.start("hops-kerberos", "hdfs/localhost", "HTTP/localhost", "alice", "bob", "hive");
    // The ACLs and proxy users, in a file the namenodes re-read when a refresh is asked.
    policy = new File(kdc.dir(), "security-site.xml");
    writePolicy("*", "alice");
    Configuration conf = kdc.rpc("authentication");
    conf.setBoolean("hadoop.security.authorization", true);
    conf.addResource(new org.apache.hadoop.fs.Path(policy.toURI()));
    conf.setLong(NamenodeConfig.SECURITY_REFRESH_POLL_MS, 200);
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, Recorder.class.getName());
    serverConf = conf;
    UserGroupInformation.setConfiguration(conf);
    hops = new HopsTestCluster(conf);
    second = hops.startAnotherNamenode();
    Configuration hdfsConf = new Configuration(conf);
    // HDFS reads its service ACLs from its own configuration: the same ACL for the client
    // protocol as hops will have after the refresh below.
    hdfsConf.set("security.client.protocol.acl", "alice,hive,hdfs");
    hdfs = TestKdc.hdfs("kerberos", hdfsConf);
  }

  @AfterAll
  static void stop() throws Exception {
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (second != null) {
      second.close();
    }
    if (hops != null) {
      hops.close();
    }
    if (kdc != null) {
      kdc.close(); // the JVM's later tests run with simple authentication and no proxy users
    }
  }

  private static void writePolicy(String clientAcl, String hiveMayImpersonate) throws IOException {
    String xml =
        "<configuration>\n"
            + property("security.client.protocol.acl", clientAcl)
            + property("hadoop.proxyuser.hive.hosts", "*")
            + property("hadoop.proxyuser.hive.users", hiveMayImpersonate)
            + "</configuration>\n";
    Files.writeString(policy.toPath(), xml, StandardCharsets.UTF_8);
  }

  /** A client's configuration: Hadoop's defaults and the security settings. */
  private static Configuration clientConf(String protection) {
    return TestKdc.client(kdc.rpc(protection));
  }

  private static String property(String name, String value) {
    return "<property><name>" + name + "</name><value>" + value + "</value></property>\n";
  }

  /** A stock client of {@code uri}, made and used as {@code ugi}. */
  private static <T> T as(UserGroupInformation ugi, String uri, FsCall<T> call) throws Exception {
    return as(ugi, uri, clientConf("authentication"), call);
  }

  private static <T> T as(UserGroupInformation ugi, String uri, Configuration c, FsCall<T> call)
      throws Exception {
    return ugi.doAs(
        (PrivilegedExceptionAction<T>)
            () -> {
              Configuration conf = new Configuration(c);
              conf.setBoolean("fs.hdfs.impl.disable.cache", true);
              conf.setInt("ipc.client.connect.max.retries", 0);
              try (FileSystem fs = FileSystem.newInstance(URI.create(uri), conf)) {
                return call.run(fs);
              }
            });
  }

  @FunctionalInterface
  private interface FsCall<T> {
    T run(FileSystem fs) throws Exception;
  }

  private static String hdfsUri() {
    return hdfs.getURI().toString();
  }

  /** The refusal a call meets: its class and message, with addresses and ports normalised. */
  private static String refusal(UserGroupInformation ugi, String uri) {
    try {
      as(ugi, uri, fs -> fs.listStatus(new Path("/")));
      return "allowed";
    } catch (Exception e) {
      return e.getClass().getName() + ": " + normalise(e.getMessage());
    }
  }

  private static String normalise(String s) {
    return TestKdc.normalise(s);
  }

  @Test
  void clientWithKeytabCreatesListsAndReads() throws Exception {
    UserGroupInformation alice = kdc.login("alice");
    aliceHome();
    FileStatus[] listed =
        as(
            alice,
            hops.namenode().uri(),
            fs -> {
              try (FSDataOutputStream out = fs.create(new Path("/user/alice/empty"))) {
                assertThat(out).isNotNull();
              }
              fs.mkdirs(new Path("/user/alice/dir"));
              try (var in = fs.open(new Path("/user/alice/empty"))) {
                assertThat(in.read()).isEqualTo(-1);
              }
              return fs.listStatus(new Path("/user/alice"));
            });
    assertThat(listed).extracting(s -> s.getPath().getName()).contains("dir", "empty");
    assertThat(listed).extracting(FileStatus::getOwner).containsOnly("alice");
    // The superuser is the namenode's short principal name: hdfs owns the root.
    FileStatus root = as(alice, hops.namenode().uri(), fs -> fs.getFileStatus(new Path("/")));
    assertThat(root.getOwner()).isEqualTo("hdfs");
  }

  /** The superuser (the namenode's short principal name, hdfs) makes alice's home. */
  private static void aliceHome() throws Exception {
    as(
        kdc.login("hdfs/localhost"),
        hops.namenode().uri(),
        fs -> fs.mkdirs(new Path("/user/alice")) && setOwner(fs, "/user/alice", "alice"));
  }

  private static boolean setOwner(FileSystem fs, String path, String owner) throws IOException {
    fs.setOwner(new Path(path), owner, null);
    return true;
  }

  @Test
  void clientWithoutTicketIsRefusedLikeHdfs() throws Exception {
    // A user the JVM knows by name only: no Kerberos credentials to offer.
    UserGroupInformation noTicket = UserGroupInformation.createRemoteUser("alice");
    String onHops = refusal(noTicket, hops.namenode().uri());
    assertThat(onHops).contains("Client cannot authenticate via:[TOKEN, KERBEROS]");
    assertThat(onHops).isEqualTo(refusal(noTicket, hdfsUri()));
  }

  @Test
  void simpleAuthClientIsRefusedLikeHdfs() throws Exception {
    // A client process configured for simple authentication, as the stock shell runs.
    ToolProcess tool = new ToolProcess(new File(kdc.dir(), "shell"));
    List<String> outputs = new ArrayList<>();
    for (String uri : List.of(hops.namenode().uri(), hdfsUri())) {
      ToolProcess.Result r =
          tool.run(
              "org.apache.hadoop.fs.FsShell",
              List.of("-Dhadoop.log.dir=" + kdc.dir()),
              List.of("hadoop.security.authentication=simple", "ipc.client.connect.max.retries=0"),
              "simple",
              "-ls",
              uri + "/");
      assertThat(r.exit()).isNotZero();
      outputs.add(normalise(r.err()));
    }
    assertThat(outputs.get(0))
        .contains("SIMPLE authentication is not enabled.  Available:[TOKEN, KERBEROS]");
    assertThat(outputs.get(0)).isEqualTo(outputs.get(1));
  }

  @ParameterizedTest
  @ValueSource(strings = {"authentication", "integrity", "privacy"})
  void everyRpcProtectionWorks(String protection) throws Exception {
    Configuration conf = kdc.rpc(protection);
    // The namenode logs in by itself, not as whoever this JVM logged in last.
    UserGroupInformation.setLoginUser(null);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      UserGroupInformation superuser = kdc.login("hdfs/localhost");
      Configuration client = clientConf(protection);
      boolean served =
          as(
              superuser,
              cluster.namenode().uri(),
              client,
              fs -> fs.mkdirs(new Path("/tmp/" + protection)) && fs.exists(new Path("/tmp")));
      assertThat(served).isTrue();
      // A client that insists on another quality of protection finds none in common (a new login:
      // a user's connection is shared by its clients).
      String other = protection.equals("privacy") ? "authentication" : "privacy";
      try {
        as(
            kdc.login("hdfs/localhost"),
            cluster.namenode().uri(),
            clientConf(other),
            fs -> fs.exists(new Path("/")));
        throw new AssertionError("a client requiring " + other + " was served");
      } catch (IOException e) {
        assertThat(e).hasStackTraceContaining("No common protection layer");
      }
    } finally {
      UserGroupInformation.setConfiguration(serverConf); // the class's settings again
    }
  }

  @Test
  void proxyUsersAllowedAndRefusedAsConfigured() throws Exception {
    UserGroupInformation hive = kdc.login("hive");
    UserGroupInformation hiveAsAlice = UserGroupInformation.createProxyUser("alice", hive);
    boolean asAlice = as(hiveAsAlice, hops.namenode().uri(), fs -> fs.exists(new Path("/")));
    assertThat(asAlice).isTrue();
    UserGroupInformation hiveAsBob = UserGroupInformation.createProxyUser("bob", hive);
    String onHops = refusal(hiveAsBob, hops.namenode().uri());
    assertThat(onHops).contains("is not allowed to impersonate bob");
    assertThat(onHops).isEqualTo(refusal(hiveAsBob, hdfsUri()));
    // Allowed once the file says so and dfsadmin asks any namenode to refresh.
    writePolicy("*", "alice,bob");
    try {
      assertThat(dfsAdmin(second, "-refreshSuperUserGroupsConfiguration")).isZero();
      UserGroupInformation hiveAgain =
          UserGroupInformation.createProxyUser("bob", kdc.login("hive"));
      boolean asBob = as(hiveAgain, hops.namenode().uri(), fs -> fs.exists(new Path("/")));
      assertThat(asBob).isTrue();
    } finally {
      writePolicy("*", "alice");
      assertThat(dfsAdmin(second, "-refreshSuperUserGroupsConfiguration")).isZero();
    }
  }

  @Test
  void serviceAclRefusesAUserAndItsRefreshReachesEveryNamenode() throws Exception {
    assertThat(refusal(kdc.login("bob"), second.uri())).isEqualTo("allowed");
    writePolicy("alice,hive,hdfs", "alice");
    try {
      // Asked of the first namenode: it applies the ACL at once, the second within a poll.
      assertThat(dfsAdmin(hops.namenode(), "-refreshServiceAcl")).isZero();
      String onHops = refusal(kdc.login("bob"), hops.namenode().uri());
      assertThat(onHops).contains("is not authorized for protocol interface");
      assertThat(onHops).isEqualTo(refusal(kdc.login("bob"), hdfsUri()));
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (refusal(kdc.login("bob"), second.uri()).equals("allowed")) {
        assertThat(System.nanoTime() - deadline).as("second namenode refreshed").isNegative();
        Thread.sleep(100);
      }
      assertThat(refusal(kdc.login("bob"), second.uri())).isEqualTo(onHops);
      assertThat(refusal(kdc.login("alice"), second.uri())).isEqualTo("allowed");
    } finally {
      writePolicy("*", "alice");
      assertThat(dfsAdmin(hops.namenode(), "-refreshServiceAcl")).isZero();
    }
  }

  @Test
  void unknownTokenIsRefusedLikeHdfsAndLogged() throws Exception {
    PrintStream saved = System.err;
    ByteArrayOutputStream captured = new ByteArrayOutputStream();
    List<String> refusals = new ArrayList<>();
    System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
    try {
      for (String uri : List.of(hops.namenode().uri(), hdfsUri())) {
        refusals.add(refusal(withForgedToken(uri), uri));
      }
    } finally {
      System.setErr(saved);
    }
    assertThat(refusals.get(0)).contains("can't be found in cache");
    assertThat(refusals.get(0)).isEqualTo(refusals.get(1));
    // Hadoop's RPC server logs a refused authentication on its security logger, as in HDFS.
    assertThat(captured.toString(StandardCharsets.UTF_8))
        .contains("Auth failed for")
        .contains("alice (auth:TOKEN)");
  }

  /** A user with no ticket but a delegation token for {@code uri} that no namenode issued. */
  private static UserGroupInformation withForgedToken(String uri) {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser("alice");
    Text alice = new Text("alice");
    DelegationTokenIdentifier id = new DelegationTokenIdentifier(alice, alice, alice);
    Token<DelegationTokenIdentifier> token =
        new Token<>(
            id.getBytes(),
            "forged".getBytes(StandardCharsets.UTF_8),
            DelegationTokenIdentifier.HDFS_DELEGATION_KIND,
            SecurityUtil.buildTokenService(
                NetUtils.createSocketAddr(URI.create(uri).getAuthority())));
    ugi.addToken(token);
    return ugi;
  }

  @Test
  void auditLineOfAProxiedCallNamesBothUsersLikeHdfs() throws Exception {
    UserGroupInformation hiveAsAlice =
        UserGroupInformation.createProxyUser("alice", kdc.login("hive"));
    List<String> lines = new ArrayList<>();
    for (String uri : List.of(hops.namenode().uri(), hdfsUri())) {
      Recorder.UGIS.clear();
      as(hiveAsAlice, uri, fs -> fs.getFileStatus(new Path("/")));
      long deadline = System.nanoTime() + 10_000_000_000L;
      while (Recorder.UGIS.isEmpty() && System.nanoTime() < deadline) {
        Thread.sleep(20);
      }
      lines.add(Recorder.UGIS.isEmpty() ? "none" : Recorder.UGIS.get(0));
    }
    assertThat(lines.get(0))
        .isEqualTo("alice (auth:PROXY) via hive@" + kdc.realm() + " (auth:KERBEROS)");
    assertThat(lines.get(0)).isEqualTo(lines.get(1));
  }

  /** Runs the stock {@code dfsadmin} in this JVM, as the superuser, against {@code nn}. */
  private static int dfsAdmin(HopsNameNode nn, String command) throws Exception {
    Configuration c = clientConf("authentication");
    c.set("fs.defaultFS", nn.uri());
    return UserGroupInformation.getLoginUser()
        .doAs(
            (PrivilegedExceptionAction<Integer>) () -> new DFSAdmin(c).run(new String[] {command}));
  }

  /** An audit logger both namenodes load: the UGI of each {@code getfileinfo} on {@code /}. */
  public static final class Recorder implements AuditLogger {
    static final List<String> UGIS = Collections.synchronizedList(new ArrayList<>());

    @Override
    public void initialize(Configuration conf) {}

    @Override
    public void logAuditEvent(
        boolean succeeded,
        String userName,
        InetAddress addr,
        String cmd,
        String src,
        String dst,
        FileStatus stat) {
      if ("getfileinfo".equals(cmd) && "/".equals(src) && userName.contains("PROXY")) {
        UGIS.add(userName);
      }
    }
  }
}
