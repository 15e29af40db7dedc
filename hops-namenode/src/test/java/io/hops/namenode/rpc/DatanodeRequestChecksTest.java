package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The checks HDFS's namenode makes on a datanode's calls (NameNodeRpcServer.verifyRequest and
 * verifySoftwareVersion), against hops and a MiniDFSCluster side by side: a datanode formatted for
 * another namespace is refused with {@code UnregisteredNodeException}, one of a too old version
 * with {@code IncorrectVersionException}. The registrations are made up (a stock DataNode refuses a
 * namespace not its own before it calls).
 */
class DatanodeRequestChecksTest {
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster();
    hdfs = ApacheHdfs.start("datanode-checks");
  }

  @AfterAll
  static void stop() throws Exception {
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (hops != null) {
      hops.close();
    }
  }

  private static DatanodeRegistration registration(int namespaceId, String version) {
    return new DatanodeRegistration(
        new DatanodeID("127.0.0.1", "localhost", "dn-of-another-namespace", 9866, 9864, 0, 9867),
        new StorageInfo(
            DataNodeLayoutVersion.getCurrentLayoutVersion(),
            namespaceId,
            "CID-another-cluster",
            0,
            NodeType.DATA_NODE),
        new ExportedBlockKeys(),
        version);
  }

  @FunctionalInterface
  private interface DatanodeCall {
    void run(DatanodeProtocolClientSideTranslatorPB namenode) throws Exception;
  }

  /** The exception each namenode answers {@code call} with: class and message, hops's first. */
  private static List<String> answers(DatanodeCall call) throws Exception {
    List<String> out = new ArrayList<>();
    for (InetSocketAddress nn :
        List.of(hops.namenode().address(), hdfs.getNameNode().getServiceRpcAddress())) {
      DatanodeProtocolClientSideTranslatorPB namenode =
          new DatanodeProtocolClientSideTranslatorPB(nn, new Configuration());
      try {
        call.run(namenode);
        out.add("answered");
      } catch (RemoteException e) {
        // The first line: HDFS's message goes on with the server's stack trace.
        out.add(e.getClassName() + ": " + e.getMessage().lines().findFirst().orElse(""));
      } finally {
        namenode.close();
      }
    }
    return out;
  }

  @Test
  void heartbeatOfAnotherNamespaceIsRefusedLikeHdfs() throws Exception {
    DatanodeRegistration stranger = registration(12345, VersionInfo.getVersion());
    List<String> answers =
        answers(
            nn ->
                nn.sendHeartbeat(
                    stranger,
                    new StorageReport[0],
                    0,
                    0,
                    0,
                    0,
                    0,
                    null,
                    false,
                    SlowPeerReports.EMPTY_REPORT,
                    SlowDiskReports.EMPTY_REPORT));
    assertThat(answers.get(0))
        .startsWith(
            "org.apache.hadoop.hdfs.protocol.UnregisteredNodeException: Unregistered server");
    assertThat(answers.get(0)).isEqualTo(answers.get(1));
  }

  @Test
  void datanodeOlderThanTheMinimumVersionIsRefusedLikeHdfs() throws Exception {
    DatanodeRegistration old = registration(12345, "1.2.1");
    List<String> answers = answers(nn -> nn.registerDatanode(old));
    assertThat(answers.get(0))
        .startsWith("org.apache.hadoop.hdfs.server.common.IncorrectVersionException");
    assertThat(answers.get(0)).isEqualTo(answers.get(1));
  }
}
