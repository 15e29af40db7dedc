package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.junit.jupiter.api.Test;

/**
 * The RPC handler count: {@code dfs.namenode.handler.count} when set; unset, one per core between 2
 * and HDFS's 10 over the embedded store (its handlers never wait for I/O), HDFS's 10 over a SQL
 * store (its handlers wait for every round trip).
 */
class HandlerCountTest {

  @Test
  void theEmbeddedStoreGetsAHandlerPerCoreBetweenTwoAndTen() {
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 1)).isEqualTo(2);
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 2)).isEqualTo(2);
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 3)).isEqualTo(3);
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 8)).isEqualTo(8);
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 10)).isEqualTo(10);
    assertThat(NamenodeConfig.defaultHandlerCount("embedded", 64)).isEqualTo(10);
  }

  @Test
  void sqlStoresKeepHdfsTen() {
    for (int cores : new int[] {1, 2, 64}) {
      assertThat(NamenodeConfig.defaultHandlerCount("mysql", cores)).isEqualTo(10);
      assertThat(NamenodeConfig.defaultHandlerCount("ndb", cores)).isEqualTo(10);
    }
  }

  @Test
  void aNamenodeRunsTheDefaultCountUnlessTheKeyIsSet() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    assertThat(handlersServing(null))
        .isEqualTo(NamenodeConfig.defaultHandlerCount("embedded", cores));
    assertThat(handlersServing(3)).isEqualTo(3);
    assertThat(handlersServing(12)).isEqualTo(12);
  }

  /**
   * {@code bin/hops namenode} loads Hadoop's defaults, whose {@code hdfs-default.xml} holds the key
   * at 10: that is not the operator setting it.
   */
  @Test
  void hadoopsDefaultOfTenIsNotASetting() throws Exception {
    int cores = Runtime.getRuntime().availableProcessors();
    Configuration defaults = new HdfsConfiguration();
    assertThat(defaults.get("dfs.namenode.handler.count")).isEqualTo("10");
    assertThat(NamenodeConfig.handlerCount(defaults, "embedded"))
        .isEqualTo(NamenodeConfig.defaultHandlerCount("embedded", cores));
    assertThat(handlersServing(new HdfsConfiguration(), null))
        .isEqualTo(NamenodeConfig.defaultHandlerCount("embedded", cores));
    Configuration site = new HdfsConfiguration();
    site.setInt("dfs.namenode.handler.count", 10);
    assertThat(NamenodeConfig.handlerCount(site, "embedded")).isEqualTo(10);
  }

  /** Starts a namenode, has a client call it, and counts its RPC handler threads. */
  private static int handlersServing(Integer configured) throws Exception {
    return handlersServing(new Configuration(false), configured);
  }

  private static int handlersServing(Configuration conf, Integer configured) throws Exception {
    conf.set(HopsConfig.EMBEDDED_DIR, "mem:handlers-" + configured + "-" + System.nanoTime());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, -1);
    if (configured != null) {
      conf.setInt("dfs.namenode.handler.count", configured);
    }
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      Configuration client = new Configuration(false);
      client.set("fs.defaultFS", nn.uri());
      try (FileSystem fs = FileSystem.newInstance(client)) {
        assertThat(fs.mkdirs(new Path("/served"))).isTrue();
      }
      String suffix = " on default port " + nn.address().getPort();
      return (int)
          Thread.getAllStackTraces().keySet().stream()
              .filter(t -> t.isAlive())
              .map(Thread::getName)
              .filter(n -> n.startsWith("IPC Server handler ") && n.endsWith(suffix))
              .count();
    }
  }
}
