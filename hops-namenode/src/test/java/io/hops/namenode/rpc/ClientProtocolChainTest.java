package io.hops.namenode.rpc;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stages in front of the client protocol, in one proxy: the order they see a call in, the
 * arguments a stage hands on, and the operation's own exceptions, which must reach the caller (and
 * every stage on the way, e.g. the audit log's refusals) as the operation threw them.
 */
class ClientProtocolChainTest {
  private static HopsTestCluster cluster;
  private static ClientRpc rpc;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    rpc = io.hops.namenode.HopsNameNode.clientRpc(cluster.namenode().namesystem());
    rpc.mkdirs("/real", FsPermission.getDefault(), true);
  }

  @AfterAll
  static void stop() throws Exception {
    cluster.close();
  }

  @Test
  void stagesRunOutermostFirstAndHandOnTheirArguments() throws Exception {
    List<String> seen = new ArrayList<>();
    ClientProtocol p =
        ClientProtocolChain.of(
            rpc,
            (m, a, next) -> {
              seen.add("outer " + m.getName() + " " + a[0]);
              Object r = next.invoke(m, a);
              seen.add("outer after");
              return r;
            },
            (m, a, next) -> {
              seen.add("inner " + a[0]);
              Object[] b = a.clone();
              b[0] = "/real";
              return next.invoke(m, b);
            });
    HdfsFileStatus st = p.getFileInfo("/nowhere");
    assertNotNull(st);
    assertTrue(st.isDirectory());
    assertEquals(List.of("outer getFileInfo /nowhere", "inner /nowhere", "outer after"), seen);
  }

  @Test
  void theOperationsExceptionReachesStagesAndCallerUnwrapped() throws Exception {
    List<Throwable> seen = new ArrayList<>();
    ClientProtocol p =
        ClientProtocolChain.of(
            rpc,
            (m, a, next) -> {
              try {
                return next.invoke(m, a);
              } catch (Throwable t) {
                seen.add(t);
                throw t;
              }
            });
    FileNotFoundException e =
        assertThrows(
            FileNotFoundException.class, () -> p.getBlockLocations("/missing", 0, Long.MAX_VALUE));
    assertEquals(List.of(e), seen);
  }

  @Test
  void aCallWithoutStagesIsTheOperation() throws Exception {
    ClientProtocol p = ClientProtocolChain.of(rpc);
    assertEquals(rpc.getFileInfo("/real").getFileId(), p.getFileInfo("/real").getFileId());
  }

  @Test
  void objectMethodsSkipTheStages() {
    List<String> seen = new ArrayList<>();
    ClientProtocol p =
        ClientProtocolChain.of(
            rpc,
            (m, a, next) -> {
              seen.add(m.getName());
              return next.invoke(m, a);
            });
    assertEquals(rpc.toString(), p.toString());
    assertEquals(rpc.hashCode(), p.hashCode());
    assertTrue(seen.isEmpty());
    assertSame(p, p);
  }
}
