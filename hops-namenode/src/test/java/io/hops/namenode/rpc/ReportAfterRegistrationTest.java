package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.FullReportRequests;
import java.util.Arrays;
import java.util.UUID;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolClientSideTranslatorPB;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.NodeType;
import org.apache.hadoop.hdfs.server.common.StorageInfo;
import org.apache.hadoop.hdfs.server.datanode.DataNodeLayoutVersion;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.util.VersionInfo;
import org.junit.jupiter.api.Test;

/**
 * A full report a namenode asks for with a registration command is made after the datanode
 * registered again. A stock datanode registers again on its command thread, and as a STANDBY's
 * (HDFS-9917) first drops the incremental reports it has not sent: a report made under a lease the
 * namenode granted before that may miss a replica finalized meanwhile, and the report's end then
 * puts off the one the registration scheduled. LargeBlockReportTest met exactly that about one run
 * in ten (a replica on a datanode's disk that no namenode recorded). The real datanode cannot be
 * stopped between those steps on demand, so the calls are made here by hand, over the namenode's
 * real RPC, in the order that loses the replica.
 */
class ReportAfterRegistrationTest {
  private static final String STORAGE = "DS-" + UUID.randomUUID();

  @Test
  void noLeaseUntilTheDatanodeRegisteredAgainAndTheCommandIsSentAgainIfItDoesNotReport()
      throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      DatanodeProtocolClientSideTranslatorPB nn =
          new DatanodeProtocolClientSideTranslatorPB(
              cluster.namenode().address(), new Configuration());
      try {
        NamespaceInfo ns = nn.versionRequest();
        String uuid = UUID.randomUUID().toString();
        DatanodeRegistration reg = nn.registerDatanode(registration(ns, uuid));
        reg.setNamespaceInfo(ns); // as a datanode's: its report's encoding depends on it
        HeartbeatResponse first = heartbeat(nn, reg, true);
        assertThat(first.getFullBlockReportLeaseId()).as("lease of a registered owner").isNotZero();

        // The leader's request for a full report (as after the datanode was declared dead).
        cluster.namenode().namesystem().runner().run(() -> FullReportRequests.request(uuid));
        HeartbeatResponse asked = heartbeat(nn, reg, true);
        for (int i = 0; i < 50 && !registers(asked); i++) {
          Thread.sleep(100); // the requests are read again at most every second
          asked = heartbeat(nn, reg, true);
        }
        assertThat(registers(asked)).as("registration command sent").isTrue();
        assertThat(asked.getFullBlockReportLeaseId()).as("lease with the command").isZero();
        HeartbeatResponse beforeRegistering = heartbeat(nn, reg, true);
        assertThat(registers(beforeRegistering)).isFalse();
        assertThat(beforeRegistering.getFullBlockReportLeaseId())
            .as("lease before the datanode registered again")
            .isZero();

        // It registers again, and then asks for no lease: a report it was making put it off.
        nn.registerDatanode(reg);
        assertThat(heartbeat(nn, reg, false).getCommands()).isEmpty();
        assertThat(registers(heartbeat(nn, reg, false)))
            .as("registration command sent again")
            .isTrue();

        nn.registerDatanode(reg);
        long lease = heartbeat(nn, reg, true).getFullBlockReportLeaseId();
        assertThat(lease).as("lease after the registration").isNotZero();
        nn.blockReport(
            reg,
            ns.getBlockPoolID(),
            new StorageBlockReport[] {
              new StorageBlockReport(new DatanodeStorage(STORAGE), BlockListAsLongs.EMPTY)
            },
            new BlockReportContext(1, 0, 1L, lease));
        for (int i = 0; i < 3; i++) {
          assertThat(registers(heartbeat(nn, reg, false)))
              .as("no command once the report was applied")
              .isFalse();
        }
        assertThat(cluster.namenode().namesystem().blocks().reportRequests().pending(uuid))
            .as("the leader's request, answered")
            .isZero();
      } finally {
        nn.close();
      }
    }
  }

  private static DatanodeRegistration registration(NamespaceInfo ns, String uuid) {
    return new DatanodeRegistration(
        new DatanodeID("127.0.0.1", "localhost", uuid, 9866, 9864, 0, 9867),
        new StorageInfo(
            DataNodeLayoutVersion.getCurrentLayoutVersion(),
            ns.getNamespaceID(),
            ns.getClusterID(),
            ns.getCTime(),
            NodeType.DATA_NODE),
        new ExportedBlockKeys(),
        VersionInfo.getVersion());
  }

  private static HeartbeatResponse heartbeat(
      DatanodeProtocolClientSideTranslatorPB nn, DatanodeRegistration reg, boolean wantsLease)
      throws Exception {
    StorageReport disk =
        new StorageReport(new DatanodeStorage(STORAGE), false, 1L << 40, 0, 1L << 40, 0, 0);
    return nn.sendHeartbeat(
        reg,
        new StorageReport[] {disk},
        0,
        0,
        0,
        0,
        0,
        null,
        wantsLease,
        SlowPeerReports.EMPTY_REPORT,
        SlowDiskReports.EMPTY_REPORT);
  }

  private static boolean registers(HeartbeatResponse r) {
    return Arrays.stream(r.getCommands())
        .anyMatch(c -> c.getAction() == DatanodeProtocol.DNA_REGISTER);
  }
}
