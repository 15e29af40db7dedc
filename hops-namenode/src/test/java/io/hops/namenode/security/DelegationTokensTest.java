package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DelegationKeyRow;
import io.hops.dal.rows.DelegationTokenRow;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.SecurityUtil;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Delegation tokens (issue 56, item 3) with two namenodes over one database and a KDC from {@code
 * hadoop-minikdc}: a token one namenode issues serves, renews and cancels on the other; a token
 * cancelled on one is refused by both; expiry, removal by the leader, and key rolls by the leader
 * only; a token for a logical nameservice. Refusals side by side with a kerberized MiniDFSCluster
 * over the same KDC, with short intervals on both sides.
 */
class DelegationTokensTest {
  private static final long ROLL_MS = 3000;
  private static final long RENEW_MS = 6000;
  private static final long LIFETIME_MS = 12000;

  private static TestKdc kdc;
  private static HopsTestCluster hops;
  private static HopsNameNode second;
  private static MiniDFSCluster hdfs;
  private static Configuration serverConf;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("hops-dtokens", "hdfs/localhost", "alice", "bob");
    Configuration conf = kdc.rpc("authentication");
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY, ROLL_MS);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY, RENEW_MS);
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY, LIFETIME_MS);
    // The test runs the housekeeping rounds itself (key rolls, removals), on both namenodes.
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    conf.setLong(NamenodeConfig.DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS, 0);
    conf.setLong(NamenodeConfig.DELEGATION_TOKEN_CACHE_MS, 1000);
    UserGroupInformation.setConfiguration(conf);
    serverConf = conf;
    // Over the MariaDB of HOPS_TEST_MYSQL_URL when one is configured, else the embedded store.
    hops = HopsTestCluster.onMariadbOrNull(conf);
    if (hops == null) {
      hops = new HopsTestCluster(conf);
    }
    second = hops.startAnotherNamenode();
    Configuration hdfsConf = new Configuration(conf);
    hdfsConf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    hdfs = ApacheHdfs.start("dtokens", hdfsConf);
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
      kdc.close(); // the JVM's later tests run with simple authentication
    }
  }

  /** A client's configuration: Hadoop's defaults, the security settings, no retries. */
  private static Configuration clientConf() {
    Configuration c = TestKdc.client(kdc.rpc("authentication"));
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 0);
    return c;
  }

  @FunctionalInterface
  private interface FsCall<T> {
    T run(FileSystem fs) throws Exception;
  }

  private static <T> T as(UserGroupInformation ugi, String uri, Configuration c, FsCall<T> call)
      throws Exception {
    return ugi.doAs(
        (PrivilegedExceptionAction<T>)
            () -> {
              try (FileSystem fs = FileSystem.newInstance(URI.create(uri), c)) {
                return call.run(fs);
              }
            });
  }

  private static <T> T as(UserGroupInformation ugi, String uri, FsCall<T> call) throws Exception {
    return as(ugi, uri, clientConf(), call);
  }

  @SuppressWarnings("unchecked")
  private static Token<DelegationTokenIdentifier> token(String uri, String renewer)
      throws Exception {
    return as(
        kdc.login("alice"),
        uri,
        fs -> (Token<DelegationTokenIdentifier>) fs.getDelegationToken(renewer));
  }

  private static String uriOf(MiniDFSCluster c) {
    return c.getURI().toString();
  }

  private static InetSocketAddress address(String uri) {
    return NetUtils.createSocketAddr(URI.create(uri).getAuthority());
  }

  /** A copy of {@code t} for the namenode of {@code uri}, as a client would select it. */
  private static Token<DelegationTokenIdentifier> forUri(
      Token<DelegationTokenIdentifier> t, String uri) {
    Token<DelegationTokenIdentifier> copy = new Token<>(t);
    SecurityUtil.setTokenService(copy, address(uri));
    return copy;
  }

  /** A user with no Kerberos credentials, only {@code t}: a fresh one per call, so a new login. */
  private static UserGroupInformation holding(Token<DelegationTokenIdentifier> t) {
    UserGroupInformation ugi = UserGroupInformation.createRemoteUser("alice");
    ugi.addToken(t);
    return ugi;
  }

  /** What listing the root with only {@code t} gives on {@code uri}: "allowed" or the refusal. */
  private static String listWith(Token<DelegationTokenIdentifier> t, String uri) {
    return outcome(() -> as(holding(forUri(t, uri)), uri, fs -> fs.listStatus(new Path("/"))));
  }

  private static long renew(UserGroupInformation ugi, Token<DelegationTokenIdentifier> t)
      throws Exception {
    return ugi.doAs((PrivilegedExceptionAction<Long>) () -> t.renew(clientConf()));
  }

  private static void cancel(UserGroupInformation ugi, Token<DelegationTokenIdentifier> t)
      throws Exception {
    ugi.doAs(
        (PrivilegedExceptionAction<Void>)
            () -> {
              t.cancel(clientConf());
              return null;
            });
  }

  @FunctionalInterface
  private interface Call {
    Object run() throws Exception;
  }

  /** "allowed", or the exception's class and normalised message. */
  private static String outcome(Call call) {
    try {
      call.run();
      return "allowed";
    } catch (Exception e) {
      String message = e.getMessage() == null ? "null" : e.getMessage().split("\n")[0];
      return e.getClass().getName() + ": " + normalise(message);
    }
  }

  /** Hosts, ports, dates and numbers that differ between two clusters by construction. */
  private static String normalise(String s) {
    return s == null
        ? "null"
        : s.replaceAll("(issueDate|maxDate|sequenceNumber|masterKeyId)=\\d+", "$1=N")
            .replaceAll("\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3}[+-]\\d{4}", "TIME")
            .replaceAll("[\\w.-]*/?127\\.0\\.0\\.1", "HOST")
            .replaceAll("localhost", "HOST")
            .replaceAll(":\\d+", ":PORT");
  }

  private static DelegationTokenIdentifier id(Token<DelegationTokenIdentifier> t)
      throws IOException {
    return t.decodeIdentifier();
  }

  private static Storage storage() {
    return hops.namenode().namesystem().storage();
  }

  private static DelegationTokenRow row(Token<DelegationTokenIdentifier> t) throws IOException {
    try (Transaction tx = storage().begin()) {
      return tx.find(
          DelegationTokenRow.TABLE,
          DelegationTokenRow.TABLE.key(
              hops.namenode().namesystem().delegationTokens().blockPoolId(),
              id(t).getSequenceNumber()),
          LockMode.READ_COMMITTED);
    }
  }

  private static void await(String what, long ms, Check check) throws Exception {
    long deadline = System.currentTimeMillis() + ms;
    while (!check.ok()) {
      assertThat(System.currentTimeMillis()).as(what).isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  @FunctionalInterface
  private interface Check {
    boolean ok() throws Exception;
  }

  @Test
  void tokenOfOneNamenodeServesRenewsAndCancelsOnAnother() throws Exception {
    String a = hops.namenode().uri();
    String b = second.uri();
    Token<DelegationTokenIdentifier> t = token(a, "alice");
    assertThat(t.getKind()).isEqualTo(DelegationTokenIdentifier.HDFS_DELEGATION_KIND);
    assertThat(t.getService().toString())
        .isEqualTo(SecurityUtil.buildTokenService(address(a)).toString());
    assertThat(id(t).getUser().getUserName()).isEqualTo("alice@" + kdc.realm());
    assertThat(id(t).getRenewer().toString()).isEqualTo("alice");
    assertThat(row(t).renewDate()).isEqualTo(id(t).getIssueDate() + RENEW_MS);

    assertThat(listWith(t, b)).isEqualTo("allowed");

    Thread.sleep(20); // a later renewal date
    long renewed = renew(kdc.login("alice"), forUri(t, b));
    assertThat(renewed).isGreaterThan(id(t).getIssueDate() + RENEW_MS);
    assertThat(row(t).renewDate()).isEqualTo(renewed);

    cancel(kdc.login("alice"), forUri(t, a));
    assertThat(row(t)).isNull();
    assertThat(listWith(t, a)).contains("can't be found in cache");
    // The second namenode trusted the token it read for at most its cache time.
    await("refused on the other namenode", 10_000, () -> !listWith(t, b).equals("allowed"));
    assertThat(listWith(t, b)).contains("can't be found in cache");
    assertThat(outcome(() -> renew(kdc.login("alice"), forUri(t, b))))
        .startsWith(
            "org.apache.hadoop.security.token.SecretManager$InvalidToken: Renewal request for"
                + " unknown token");
  }

  @Test
  void refusalsAreHdfsOwn() throws Exception {
    List<List<String>> sides = new ArrayList<>();
    for (String uri : List.of(hops.namenode().uri(), uriOf(hdfs))) {
      List<String> seen = new ArrayList<>();
      Token<DelegationTokenIdentifier> t = token(uri, "alice");
      // A caller authenticated by a token gets no other token.
      seen.add(outcome(() -> as(holding(t), uri, fs -> fs.getDelegationToken("alice"))));
      seen.add(outcome(() -> renew(kdc.login("bob"), t)));
      seen.add(outcome(() -> renew(holding(t), t)));
      seen.add(
          outcome(
              () -> {
                cancel(kdc.login("bob"), t);
                return null;
              }));
      Token<DelegationTokenIdentifier> tampered = new Token<>(t);
      byte[] password = tampered.getPassword().clone();
      password[0] ^= 1;
      tampered =
          new Token<>(
              tampered.getIdentifier(), password, tampered.getKind(), tampered.getService());
      seen.add(listWith(tampered, uri));
      Token<DelegationTokenIdentifier> wrongPassword = tampered;
      seen.add(outcome(() -> renew(kdc.login("alice"), wrongPassword)));
      Token<DelegationTokenIdentifier> noRenewer = token(uri, null);
      seen.add(outcome(() -> renew(kdc.login("alice"), noRenewer)));
      seen.add(
          outcome(
              () -> {
                cancel(kdc.login("alice"), t);
                return null;
              }));
      seen.add(
          outcome(
              () -> {
                cancel(kdc.login("alice"), t);
                return null;
              }));
      seen.add(outcome(() -> renew(kdc.login("alice"), t)));
      sides.add(seen);
    }
    List<String> onHops = sides.get(0);
    assertThat(onHops.get(0))
        .contains("Delegation Token can be issued only with kerberos or web authentication");
    assertThat(onHops.get(1))
        .startsWith("org.apache.hadoop.security.AccessControlException: bob tries to renew")
        .endsWith("with non-matching renewer alice");
    assertThat(onHops.get(2))
        .contains("Delegation Token can be renewed only with kerberos or web authentication");
    assertThat(onHops.get(3)).contains("is not authorized to cancel the token");
    assertThat(onHops.get(4)).isNotEqualTo("allowed");
    assertThat(onHops.get(5)).contains("with wrong password");
    assertThat(onHops.get(6)).contains("without a renewer");
    assertThat(onHops.get(7)).isEqualTo("allowed");
    assertThat(onHops.get(8)).contains("Token not found");
    assertThat(onHops.get(9)).contains("Renewal request for unknown token");
    assertThat(onHops).containsExactlyElementsOf(sides.get(1));
  }

  @Test
  void expiredTokensAreRefusedLikeHdfsAndTheLeaderRemovesThem() throws Exception {
    String a = hops.namenode().uri();
    Token<DelegationTokenIdentifier> onHops = token(a, "alice");
    Token<DelegationTokenIdentifier> onHdfs = token(uriOf(hdfs), "alice");
    assertThat(listWith(onHops, second.uri())).isEqualTo("allowed");
    Thread.sleep(RENEW_MS + 500);
    // Not renewed in time: refused on every namenode, as by HDFS.
    String refused = listWith(onHops, second.uri());
    assertThat(refused).isNotEqualTo("allowed");
    assertThat(listWith(onHops, a)).isEqualTo(refused);
    assertThat(refused).isEqualTo(listWith(onHdfs, uriOf(hdfs)));
    // Only the leader removes it, at its next scan.
    second.housekeeping().runOnce();
    assertThat(row(onHops)).isNotNull();
    hops.namenode().housekeeping().runOnce();
    assertThat(row(onHops)).isNull();
    await(
        "unknown once no longer cached",
        10_000,
        () -> listWith(onHops, a).contains("can't be found in cache"));
    // Past its maximum date no renewal helps.
    long maxDate = Math.max(id(onHops).getMaxDate(), id(onHdfs).getMaxDate());
    Thread.sleep(Math.max(0, maxDate - System.currentTimeMillis() + 200));
    String late = outcome(() -> renew(kdc.login("alice"), onHdfs));
    assertThat(late).contains("alice tried to renew an expired token");
    assertThat(outcome(() -> renew(kdc.login("alice"), forUri(onHops, second.uri()))))
        .isEqualTo(late);
  }

  @Test
  void onlyTheLeaderRollsKeysAndOldTokensStayValid() throws Exception {
    String a = hops.namenode().uri();
    String b = second.uri();
    Token<DelegationTokenIdentifier> old = token(b, "alice");
    int oldKey = id(old).getMasterKeyId();
    List<Token<DelegationTokenIdentifier>> newer = new ArrayList<>();
    await(
        "a token signed with a newer key",
        6 * ROLL_MS,
        () -> {
          second.housekeeping().runOnce();
          hops.namenode().housekeeping().runOnce();
          Token<DelegationTokenIdentifier> t = token(b, "alice");
          newer.add(t);
          return id(t).getMasterKeyId() > oldKey;
        });
    Token<DelegationTokenIdentifier> fresh = newer.get(newer.size() - 1);
    renew(kdc.login("alice"), forUri(old, a));
    assertThat(listWith(old, a)).isEqualTo("allowed");
    assertThat(listWith(old, b)).isEqualTo("allowed");
    assertThat(listWith(fresh, a)).isEqualTo("allowed");
    // One roll per interval, by one namenode: ids follow each other, made an interval apart.
    List<DelegationKeyRow> keys;
    try (Transaction tx = storage().begin()) {
      keys =
          tx.findByPartition(
              DelegationKeyRow.TABLE,
              hops.namenode().namesystem().delegationTokens().blockPoolId(),
              LockMode.READ_COMMITTED);
    }
    keys = keys.stream().sorted(Comparator.comparingInt(DelegationKeyRow::keyId)).toList();
    assertThat(keys).hasSizeGreaterThan(1);
    for (int i = 1; i < keys.size(); i++) {
      assertThat(keys.get(i).keyId()).isEqualTo(keys.get(i - 1).keyId() + 1);
      assertThat(keys.get(i).madeCurrent() - keys.get(i - 1).madeCurrent())
          .isGreaterThanOrEqualTo(ROLL_MS);
    }
    assertThat(second.namesystem().blocks().isLeader()).isFalse();
  }

  /**
   * A new leader takes over the keys: it rolls on time (from the current key's date, not from its
   * own start), and tokens signed by the keys the dead leader made still verify and renew. Its own
   * cluster (embedded store): the class's namenodes keep serving the other tests.
   */
  @Test
  void aNewLeaderRollsOnAndTokensOfTheOldKeysStayValid() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(serverConf)) {
      HopsNameNode leader = cluster.namenode();
      HopsNameNode other = cluster.startAnotherNamenode();
      try {
        Token<DelegationTokenIdentifier> before = token(leader.uri(), "alice");
        int keyBefore = id(before).getMasterKeyId();
        leader.close();
        long deadline = System.currentTimeMillis() + 60_000;
        int key = keyBefore;
        while (!other.namesystem().blocks().isLeader() || key <= keyBefore) {
          assertThat(System.currentTimeMillis()).as("the new leader rolls").isLessThan(deadline);
          Thread.sleep(200);
          other.housekeeping().runOnce();
          key = id(token(other.uri(), "alice")).getMasterKeyId();
        }
        assertThat(listWith(before, other.uri())).isEqualTo("allowed");
        assertThat(renew(kdc.login("alice"), forUri(before, other.uri())))
            .isGreaterThan(id(before).getIssueDate());
      } finally {
        other.close();
      }
    }
  }

  /** The first use on a namenode that started after the token was issued reads it once. */
  @Test
  void aNamenodeStartedLaterVerifiesATokenIssuedBefore() throws Exception {
    Token<DelegationTokenIdentifier> t = token(hops.namenode().uri(), "alice");
    Token<DelegationTokenIdentifier> other = token(hops.namenode().uri(), "alice");
    try (HopsNameNode third = hops.startAnotherNamenode()) {
      DelegationTokens tokens = third.namesystem().delegationTokens();
      long start = System.nanoTime();
      byte[] first = tokens.retrievePassword(id(t));
      long firstMicros = (System.nanoTime() - start) / 1000;
      start = System.nanoTime();
      byte[] cached = tokens.retrievePassword(id(t));
      long cachedMicros = (System.nanoTime() - start) / 1000;
      assertThat(first).isEqualTo(t.getPassword()).isEqualTo(cached);
      start = System.nanoTime();
      assertThat(tokens.retrievePassword(id(other))).isEqualTo(other.getPassword());
      long warmMicros = (System.nanoTime() - start) / 1000;
      start = System.nanoTime();
      String listed = listWith(t, third.uri());
      long listMillis = (System.nanoTime() - start) / 1_000_000;
      assertThat(listed).isEqualTo("allowed");
      System.out.printf(
          "token issued elsewhere, on a new namenode: first check %d us, cached %d us, another"
              + " token's first check %d us; a token-only client's first listing %d ms%n",
          firstMicros, cachedMicros, warmMicros, listMillis);
    }
  }

  @Test
  void tokenOfALogicalNameserviceServesThroughEveryNamenode() throws Exception {
    Configuration viaFirst = logical(hops.namenode().uri());
    @SuppressWarnings("unchecked")
    Token<DelegationTokenIdentifier> t =
        as(
            kdc.login("alice"),
            "hdfs://ns1",
            viaFirst,
            fs -> (Token<DelegationTokenIdentifier>) fs.getDelegationToken("alice"));
    assertThat(t.getService().toString()).isEqualTo("ha-hdfs:ns1");
    // A client that reaches the nameservice through the other namenode only.
    Object listed =
        as(holding(t), "hdfs://ns1", logical(second.uri()), fs -> fs.listStatus(new Path("/")));
    assertThat(listed).isNotNull();
  }

  /** A client's settings for the nameservice ns1 served by the namenode at {@code uri}. */
  private static Configuration logical(String uri) {
    Configuration c = clientConf();
    c.set("dfs.nameservices", "ns1");
    c.set("dfs.ha.namenodes.ns1", "nn1");
    c.set("dfs.namenode.rpc-address.ns1.nn1", URI.create(uri).getAuthority());
    c.set(
        "dfs.client.failover.proxy.provider.ns1",
        "org.apache.hadoop.hdfs.server.namenode.ha.ConfiguredFailoverProxyProvider");
    return c;
  }
}
