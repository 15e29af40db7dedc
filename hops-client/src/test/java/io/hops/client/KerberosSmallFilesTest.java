package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.security.TestKdc;
import io.hops.namenode.tx.OperationMetrics;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
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
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.server.namenode.AuditLogger;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small files in the database under Kerberos (issue 56, item 6): hops-client's small-file calls go
 * through the same SASL authentication, service ACL ({@code security.client.protocol.acl}) and
 * audit as {@code ClientProtocol}'s, with each {@code hadoop.rpc.protection}; a client holding only
 * a delegation token reads too. The stock IPC client carries them (hops-client's own read
 * connections speak simple authentication only and step aside).
 */
class KerberosSmallFilesTest {
  private static final String DB = "/db";

  private static TestKdc kdc;
  private static HopsTestCluster cluster;

  @BeforeAll
  static void start() throws Exception {
    kdc =
        TestKdc.start(
            "hops-kerberos-small", "hdfs/localhost", "HTTP/localhost", "alice", "bob", "hive");
    Configuration conf = kdc.rpc("authentication,privacy");
    conf.setBoolean("hadoop.security.authorization", true);
    conf.set("security.client.protocol.acl", "alice,hive,hdfs");
    conf.set("hadoop.proxyuser.hive.hosts", "*");
    conf.set("hadoop.proxyuser.hive.users", "alice");
    conf.set(DFSConfigKeys.DFS_NAMENODE_AUDIT_LOGGERS_KEY, Recorder.class.getName());
    UserGroupInformation.setConfiguration(conf);
    cluster = new HopsTestCluster(conf);
    as(
        login("hdfs/localhost"),
        "authentication",
        fs -> {
          fs.mkdirs(new Path(DB));
          fs.setPermission(new Path(DB), new org.apache.hadoop.fs.permission.FsPermission("777"));
          fs.setStoragePolicy(new Path(DB), "DB");
          return null;
        });
  }

  @AfterAll
  static void stop() throws Exception {
    if (cluster != null) {
      cluster.close();
    }
    if (kdc != null) {
      kdc.close(); // and the JVM's later tests run with simple authentication, no proxy users
    }
  }

  private static UserGroupInformation login(String principal) throws IOException {
    return kdc.login(principal);
  }

  @FunctionalInterface
  private interface FsCall<T> {
    T run(FileSystem fs) throws Exception;
  }

  /** A hops-client file system made and used as {@code ugi}, with {@code protection}. */
  private static <T> T as(UserGroupInformation ugi, String protection, FsCall<T> call)
      throws Exception {
    return ugi.doAs(
        (PrivilegedExceptionAction<T>)
            () -> {
              Configuration c = new Configuration(cluster.clientConf());
              kdc.rpc(protection).forEach(e -> c.set(e.getKey(), e.getValue()));
              c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
              c.setBoolean("fs.hdfs.impl.disable.cache", true);
              c.setInt("ipc.client.connect.max.retries", 0);
              try (FileSystem fs = FileSystem.newInstance(cluster.uri(), c)) {
                assertThat(fs).isInstanceOf(HopsDistributedFileSystem.class);
                return call.run(fs);
              }
            });
  }

  private static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(data);
    }
  }

  private static byte[] read(FileSystem fs, Path p) throws IOException {
    try (InputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static long committed(String op) {
    OperationMetrics.Stats s = cluster.namenode().namesystem().runner().metrics().get(op);
    return s == null ? 0 : s.count() - s.failures();
  }

  private static byte[] bytes(int n, int seed) {
    byte[] b = new byte[n];
    new java.util.Random(seed).nextBytes(b);
    return b;
  }

  @ParameterizedTest
  @ValueSource(strings = {"authentication", "privacy"})
  void aKerberosClientWritesAndReadsSmallFilesInTheDatabase(String protection) throws Exception {
    Path p = new Path(DB + "/alice-" + protection);
    byte[] data = bytes(3_000, protection.length());
    long creates = committed("createSmallFile");
    long reads = committed("readSmallFile");
    byte[] back =
        as(
            login("alice"),
            protection,
            fs -> {
              write(fs, p, data);
              return read(fs, p);
            });
    assertThat(back).isEqualTo(data);
    assertThat(committed("createSmallFile")).as("small-file creates").isEqualTo(creates + 1);
    assertThat(committed("readSmallFile")).as("small-file reads").isEqualTo(reads + 1);
    FileStatus st = as(login("alice"), protection, fs -> fs.getFileStatus(p));
    assertThat(st.getOwner()).isEqualTo("alice");
  }

  /** The refusal one call meets: its class and message, or "allowed". */
  private static String refusal(UserGroupInformation ugi, FsCall<?> call) {
    try {
      as(ugi, "authentication", call);
      return "allowed";
    } catch (Exception e) {
      return e.getClass().getName() + ": " + e.getMessage().replaceAll(":\\d+", ":PORT");
    }
  }

  @Test
  void withoutATicketASmallFileReadIsRefusedAsAStatIs() throws Exception {
    Path p = new Path(DB + "/no-ticket");
    as(
        login("alice"),
        "authentication",
        fs -> {
          write(fs, p, bytes(100, 1));
          return null;
        });
    long reads = committed("readSmallFile");
    UserGroupInformation mallory = UserGroupInformation.createRemoteUser("mallory");
    String read = refusal(mallory, fs -> read(fs, p));
    String stat = refusal(mallory, fs -> fs.getFileStatus(p));
    assertThat(read).isNotEqualTo("allowed").isEqualTo(stat);
    assertThat(read).contains(AccessControlException.class.getSimpleName());
    assertThat(committed("readSmallFile")).isEqualTo(reads);
  }

  @Test
  void theClientProtocolAclGuardsSmallFilesToo() throws Exception {
    Path p = new Path(DB + "/acl");
    as(
        login("alice"),
        "authentication",
        fs -> {
          write(fs, p, bytes(100, 2));
          return null;
        });
    long reads = committed("readSmallFile");
    long creates = committed("createSmallFile");
    UserGroupInformation bob = login("bob");
    String read = refusal(bob, fs -> read(fs, p));
    String create =
        refusal(
            bob,
            fs -> {
              write(fs, new Path(DB + "/bob"), bytes(10, 3));
              return null;
            });
    String stat = refusal(bob, fs -> fs.getFileStatus(p));
    // The stock client's answer to an ACL refusal, naming the protocol called.
    String denied = " is not authorized for protocol interface %s: denied by configured ACL";
    String bobs =
        RemoteException.class.getName() + ": User bob@" + kdc.realm() + " (auth:KERBEROS)";
    assertThat(stat).isEqualTo(bobs + denied.formatted(ClientProtocol.class.getName()));
    assertThat(read).isEqualTo(bobs + denied.formatted(io.hops.SmallFilesProtocol.class.getName()));
    assertThat(create).isEqualTo(read);
    assertThat(committed("readSmallFile")).isEqualTo(reads);
    assertThat(committed("createSmallFile")).isEqualTo(creates);
  }

  @Test
  void aClientHoldingOnlyADelegationTokenReadsASmallFile() throws Exception {
    Path p = new Path(DB + "/token");
    byte[] data = bytes(2_000, 4);
    Token<?> token =
        as(
            login("alice"),
            "authentication",
            fs -> {
              write(fs, p, data);
              return fs.getDelegationToken("alice");
            });
    UserGroupInformation holder = UserGroupInformation.createRemoteUser("alice");
    holder.addToken(token);
    long reads = committed("readSmallFile");
    byte[] back = as(holder, "authentication", fs -> read(fs, p));
    assertThat(back).isEqualTo(data);
    assertThat(committed("readSmallFile")).isEqualTo(reads + 1);
  }

  @Test
  void theAuditLineOfASmallFileCallNamesHowItsCallerAuthenticated() throws Exception {
    Path p = new Path(DB + "/audited");
    Recorder.EVENTS.clear();
    as(
        login("alice"),
        "authentication",
        fs -> {
          write(fs, p, bytes(100, 5));
          return null;
        });
    UserGroupInformation proxied = UserGroupInformation.createProxyUser("alice", login("hive"));
    as(proxied, "authentication", fs -> read(fs, p));
    // A read's audit line may be written just after its answer went out.
    String open =
        "true open " + p + " alice (auth:PROXY) via hive@" + kdc.realm() + " (auth:KERBEROS)";
    long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
    while (!Recorder.EVENTS.contains(open) && System.nanoTime() < deadline) {
      Thread.sleep(10);
    }
    assertThat(Recorder.EVENTS)
        .contains("true create " + p + " alice@" + kdc.realm() + " (auth:KERBEROS)", open);
    // Refused: bob is not in the client protocol's ACL, so his call never reaches the audit.
    assertThatThrownBy(() -> as(login("bob"), "authentication", fs -> read(fs, p)))
        .hasMessageContaining("not authorized");
  }

  /** An audit logger: each small-file event under {@code /db}, as "allowed cmd src ugi". */
  public static final class Recorder implements AuditLogger {
    static final List<String> EVENTS = Collections.synchronizedList(new ArrayList<>());

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
      if (src != null && src.startsWith(DB + "/")) {
        EVENTS.add(succeeded + " " + cmd + " " + src + " " + userName);
      }
    }
  }
}
