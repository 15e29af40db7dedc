package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A datanode's calls ({@code DatanodeProtocol}) refused side by side with a kerberized
 * MiniDFSCluster over the same KDC, made over real Kerberos RPC with Hadoop's own {@code
 * DatanodeProtocolClientSideTranslatorPB} (as the stock DataNode makes them) from keytab logins: a
 * client principal posing as a datanode, with service authorization on and off; registrations of
 * another namespace, another cluster or an incompatible version; a datanode that never registered.
 * Each answer, exception class and message, is compared with HDFS's, with each side's own namespace
 * id, cluster id and creation time normalised.
 */
class SecureDatanodeRefusalsLikeHdfsTest {
  private static TestKdc kdc;
  private static Configuration conf;
  private static Pair pair;
  private static final AtomicInteger PORTS = new AtomicInteger(20_000);

  /** A hops namenode and a MiniDFSCluster with the same settings. */
  private record Pair(HopsTestCluster hops, MiniDFSCluster hdfs) implements AutoCloseable {
    static Pair start(String name, Configuration conf) throws IOException {
      HopsTestCluster hops = new HopsTestCluster(conf);
      try {
        return new Pair(hops, TestKdc.hdfs(name, conf));
      } catch (IOException | RuntimeException e) {
        hops.close();
        throw e;
      }
    }

    List<InetSocketAddress> namenodes() {
      // HDFS's datanodes call its service port.
      return List.of(hops.namenode().address(), hdfs.getNameNode().getServiceRpcAddress());
    }

    @Override
    public void close() {
      hdfs.shutdown();
      hops.close();
    }
  }

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("hops-dn-refusals", "hdfs/localhost", "HTTP/localhost", "alice");
    // hdfs/localhost is both sides' namenode and their datanodes' principal.
    conf = kdc.rpc("authentication");
    conf.setBoolean("hadoop.security.authorization", true);
    UserGroupInformation.setConfiguration(conf);
    pair = Pair.start("dn-refusals", conf);
  }

  @AfterAll
  static void stop() {
    if (pair != null) {
      pair.close();
    }
    if (kdc != null) {
      kdc.close();
    }
  }

  /** What a namenode is: what a datanode learns from {@code versionRequest} before registering. */
  private record Namespace(NamespaceInfo info) {
    DatanodeRegistration registration(String uuid, int nsId, String clusterId, String version) {
      return registration(uuid, nsId, clusterId, info.getCTime(), version);
    }

    DatanodeRegistration registration(
        String uuid, int nsId, String clusterId, long cTime, String version) {
      DatanodeRegistration r =
          new DatanodeRegistration(
              // A transfer port of its own: a namenode takes a new registration at a known transfer
              // address for the node that was there.
              new DatanodeID(
                  "127.0.0.1", "localhost", uuid, PORTS.incrementAndGet(), 9864, 0, 9867),
              new StorageInfo(
                  DataNodeLayoutVersion.getCurrentLayoutVersion(),
                  nsId,
                  clusterId,
                  cTime,
                  NodeType.DATA_NODE),
              new ExportedBlockKeys(),
              version);
      r.setNamespaceInfo(info); // as a DataNode keeps it, for the client side of its calls
      return r;
    }

    /**
     * A new datanode's registration of this namespace, of {@code version}, created at {@code
     * cTime}.
     */
    DatanodeRegistration ofVersion(String version, long cTime) {
      return registration(
          UUID.randomUUID().toString(), info.getNamespaceID(), info.getClusterID(), cTime, version);
    }

    /** A registration of this namespace, as a stock DataNode of this version sends it. */
    DatanodeRegistration own(String uuid) {
      return registration(
          uuid, info.getNamespaceID(), info.getClusterID(), VersionInfo.getVersion());
    }

    /**
     * Each side's own ids in {@code message} (and the datanode's, new on each side), replaced by
     * the same names on both sides.
     */
    String normalise(String message) {
      int nsId = info.getNamespaceID();
      long cTime = info.getCTime();
      return TestKdc.normalise(
          message
              .replace(info.getClusterID(), "CID")
              .replace("nsid=" + nsId + ";", "nsid=NSID;")
              .replace("nsid=" + (nsId + 1) + ";", "nsid=NSID+1;")
              .replace("c=" + cTime + ")", "c=CTIME)")
              .replace("c=" + (cTime + 1) + ")", "c=CTIME+1)")
              .replace("'" + cTime + "'", "'CTIME'")
              .replace("'" + (cTime + 1) + "'", "'CTIME+1'")
              .replaceAll("datanodeUuid=[^,]*", "datanodeUuid=UUID"));
    }
  }

  @FunctionalInterface
  private interface DatanodeCall {
    /** What the namenode answered, in words both sides can share. */
    String run(DatanodeProtocolClientSideTranslatorPB namenode, Namespace ns) throws Exception;
  }

  /**
   * Each namenode's answer to {@code call} made as {@code ugi}, hops's first: what the call
   * returned, or its {@link #refusal}.
   */
  private static List<String> answers(Pair pair, UserGroupInformation ugi, DatanodeCall call)
      throws Exception {
    Namespace[] namespaces = new Namespace[2];
    List<InetSocketAddress> nns = pair.namenodes();
    for (int i = 0; i < 2; i++) {
      NamespaceInfo info = call(kdc.login("hdfs/localhost"), nns.get(i), nn -> nn.versionRequest());
      namespaces[i] = new Namespace(info);
    }
    List<String> out = new ArrayList<>();
    for (int i = 0; i < 2; i++) {
      Namespace ns = namespaces[i];
      try {
        out.add(call(ugi, nns.get(i), nn -> call.run(nn, ns)));
      } catch (IOException e) {
        out.add(refusal(ns, e));
      }
    }
    return out;
  }

  /**
   * A refusal, normalised: a remote exception's class and first line (HDFS's message goes on with
   * the server's stack trace), or a local exception's class and message.
   */
  private static String refusal(Namespace ns, Exception e) {
    return ns.normalise(
        e instanceof RemoteException r
            ? r.getClassName() + ": " + r.getMessage().lines().findFirst().orElse("")
            : e.getClass().getName() + ": " + e.getMessage());
  }

  @FunctionalInterface
  private interface Call<T> {
    T run(DatanodeProtocolClientSideTranslatorPB namenode) throws Exception;
  }

  /** {@code call} over a new connection to {@code address}, made as {@code ugi}. */
  private static <T> T call(UserGroupInformation ugi, InetSocketAddress address, Call<T> call)
      throws Exception {
    return ugi.doAs(
        (PrivilegedExceptionAction<T>)
            () -> {
              Configuration c = TestKdc.client(conf);
              c.setInt("ipc.client.connect.max.retries", 0);
              DatanodeProtocolClientSideTranslatorPB nn =
                  new DatanodeProtocolClientSideTranslatorPB(address, c);
              try {
                return call.run(nn);
              } finally {
                nn.close();
              }
            });
  }

  private static String register(DatanodeProtocolClientSideTranslatorPB nn, DatanodeRegistration r)
      throws IOException {
    nn.registerDatanode(r);
    return "registered";
  }

  private static String heartbeat(DatanodeProtocolClientSideTranslatorPB nn, DatanodeRegistration r)
      throws IOException {
    HeartbeatResponse response =
        nn.sendHeartbeat(
            r,
            new StorageReport[0],
            0,
            0,
            0,
            0,
            0,
            null,
            false,
            SlowPeerReports.EMPTY_REPORT,
            SlowDiskReports.EMPTY_REPORT);
    return "heartbeat answered with "
        + Arrays.stream(response.getCommands())
            .map(DatanodeCommand::getClass)
            .filter(c -> c.getSimpleName().equals("RegisterCommand"))
            .map(Class::getSimpleName)
            .collect(Collectors.joining(",", "[", "]"));
  }

  /** A full report of one empty storage, with lease id 0 (which HDFS lets bypass its leases). */
  private static String report(
      DatanodeProtocolClientSideTranslatorPB nn, Namespace ns, DatanodeRegistration r)
      throws IOException {
    StorageBlockReport[] reports = {
      new StorageBlockReport(
          new DatanodeStorage("DS-" + r.getDatanodeUuid()), BlockListAsLongs.EMPTY)
    };
    DatanodeCommand answer =
        nn.blockReport(
            r,
            ns.info().getBlockPoolID(),
            reports,
            new BlockReportContext(1, 0, System.nanoTime(), 0));
    return "report answered"
        + (answer != null && answer.getClass().getSimpleName().equals("RegisterCommand")
            ? " with RegisterCommand"
            : "");
  }

  private static String uuid() {
    return UUID.randomUUID().toString();
  }

  @Test
  void clientPrincipalPosingAsDatanodeIsRefusedLikeHdfs() throws Exception {
    UserGroupInformation alice = kdc.login("alice");
    List<List<String>> answers =
        List.of(
            answers(pair, alice, (nn, ns) -> nn.versionRequest().getBlockPoolID()),
            answers(pair, alice, (nn, ns) -> register(nn, ns.own(uuid()))),
            answers(pair, alice, (nn, ns) -> heartbeat(nn, ns.own(uuid()))),
            answers(pair, alice, (nn, ns) -> report(nn, ns, ns.own(uuid()))));
    for (List<String> a : answers) {
      // The service ACL (security.datanode.protocol.acl, * by default) admits only the principal
      // DatanodeProtocol names (dfs.datanode.kerberos.principal), as HDFS's does.
      assertThat(a.get(0))
          .startsWith("org.apache.hadoop.security.authorize.AuthorizationException: ")
          .contains("alice@" + kdc.realm())
          .contains("is not authorized for protocol interface")
          .contains("DatanodeProtocol");
      assertThat(a.get(0)).isEqualTo(a.get(1));
    }
  }

  @Test
  void withoutServiceAuthorizationAClientPrincipalIsServedLikeHdfs() throws Exception {
    // HDFS checks who calls DatanodeProtocol only through its service ACLs: without them an
    // authenticated client principal is served, as in HDFS.
    Configuration open = new Configuration(conf);
    open.setBoolean("hadoop.security.authorization", false);
    try (Pair unauthorized = Pair.start("dn-refusals-open", open)) {
      UserGroupInformation alice = kdc.login("alice");
      List<String> answers =
          answers(unauthorized, alice, (nn, ns) -> calls(nn, ns, ns.own(uuid())));
      assertThat(answers.get(0))
          .isEqualTo("registered; heartbeat answered with []; report answered");
      assertThat(answers.get(0)).isEqualTo(answers.get(1));
    }
  }

  @Test
  void datanodeOfAnotherNamespaceRegistersButItsCallsAreRefusedLikeHdfs() throws Exception {
    UserGroupInformation dn = kdc.login("hdfs/localhost");
    // verifyRequest checks the registration id of every call but the registration itself.
    DatanodeCall otherNamespace =
        (nn, ns) -> {
          DatanodeRegistration r =
              ns.registration(
                  uuid(),
                  ns.info().getNamespaceID() + 1,
                  ns.info().getClusterID(),
                  VersionInfo.getVersion());
          return calls(nn, ns, r);
        };
    DatanodeCall otherCluster =
        (nn, ns) -> {
          DatanodeRegistration r =
              ns.registration(
                  uuid(), ns.info().getNamespaceID(), "CID-another", VersionInfo.getVersion());
          return calls(nn, ns, r);
        };
    for (DatanodeCall call : List.of(otherNamespace, otherCluster)) {
      List<String> answers = answers(pair, dn, call);
      assertThat(answers.get(0))
          .startsWith("registered; ")
          .contains(
              "heartbeat: org.apache.hadoop.hdfs.protocol.UnregisteredNodeException: Unregistered"
                  + " server: DatanodeRegistration(")
          .contains(
              "report: org.apache.hadoop.hdfs.protocol.UnregisteredNodeException: Unregistered"
                  + " server: DatanodeRegistration(");
      assertThat(answers.get(0)).isEqualTo(answers.get(1));
    }
  }

  /** Registers {@code r}, then heartbeats and reports with it: each answer or refusal. */
  private static String calls(
      DatanodeProtocolClientSideTranslatorPB nn, Namespace ns, DatanodeRegistration r) {
    List<String> out = new ArrayList<>();
    List<DatanodeCall> steps =
        List.of((n, s) -> register(n, r), (n, s) -> heartbeat(n, r), (n, s) -> report(n, s, r));
    String[] names = {"register", "heartbeat", "report"};
    for (int i = 0; i < steps.size(); i++) {
      try {
        out.add(steps.get(i).run(nn, ns));
      } catch (Exception e) {
        out.add(names[i] + ": " + refusal(ns, e));
      }
    }
    return String.join("; ", out);
  }

  @Test
  void incompatibleSoftwareVersionIsRefusedLikeHdfs() throws Exception {
    UserGroupInformation dn = kdc.login("hdfs/localhost");
    // Older than dfs.namenode.min.supported.datanode.version.
    List<String> tooOld =
        answers(pair, dn, (nn, ns) -> register(nn, ns.ofVersion("1.2.1", ns.info().getCTime())));
    assertThat(tooOld.get(0))
        .startsWith(
            "org.apache.hadoop.hdfs.server.common.IncorrectVersionException: The reported DataNode"
                + " version is too low");
    assertThat(tooOld.get(0)).isEqualTo(tooOld.get(1));
    // Another version, outside a rolling upgrade (the storage's creation time is not the
    // namespace's).
    List<String> other =
        answers(
            pair, dn, (nn, ns) -> register(nn, ns.ofVersion("3.9.9", ns.info().getCTime() + 1)));
    assertThat(other.get(0))
        .startsWith(
            "org.apache.hadoop.hdfs.server.common.IncorrectVersionException: Reported DataNode"
                + " version '3.9.9' of DN DatanodeRegistration(")
        .contains("does not match NameNode version '" + VersionInfo.getVersion() + "'");
    assertThat(other.get(0)).isEqualTo(other.get(1));
  }

  @Test
  void unregisteredDatanodeIsAskedToRegisterLikeHdfs() throws Exception {
    UserGroupInformation dn = kdc.login("hdfs/localhost");
    List<String> answers =
        answers(
            pair,
            dn,
            (nn, ns) -> {
              DatanodeRegistration never = ns.own(uuid());
              return heartbeat(nn, never) + ", " + report(nn, ns, never);
            });
    assertThat(answers.get(0))
        .isEqualTo(
            "heartbeat answered with [RegisterCommand], report answered with RegisterCommand");
    assertThat(answers.get(0)).isEqualTo(answers.get(1));
    // Once registered, it is served.
    answers = answers(pair, dn, (nn, ns) -> calls(nn, ns, ns.own(uuid())));
    assertThat(answers.get(0)).isEqualTo("registered; heartbeat answered with []; report answered");
    assertThat(answers.get(0)).isEqualTo(answers.get(1));
  }
}
