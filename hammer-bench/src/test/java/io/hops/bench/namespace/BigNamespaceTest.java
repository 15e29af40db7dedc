package io.hops.bench.namespace;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code bench --namespace}: hops gets the namespace into a store on disk that a namenode started
 * afterwards serves; Apache HDFS gets the same paths through the client.
 */
class BigNamespaceTest {
  private static final int FILES = 2_000;

  @TempDir Path dir;

  @Test
  void hopsAndHdfsGetTheSameNamespace() throws Exception {
    Map<String, String> nnConf = hopsConf();
    BigNamespace big = new BigNamespace(FILES, NamespaceSpec.SPOTIFY, 42);

    Map<String, String> facts = big.buildHops(nnConf);

    assertThat(facts.get("namespace")).startsWith(FILES + " files");
    assertThat(facts.get("namespace check")).contains("fsck-namespace HEALTHY");
    assertThat(facts.get("namespace on disk")).contains("bytes per file");
    Set<String> onHops = hopsFiles(nnConf);
    assertThat(onHops).hasSize(FILES);

    MiniDFSCluster hdfs = ApacheHdfs.start("big-namespace");
    try {
      Configuration client = ApacheHdfs.clientConf(hdfs, 1);
      Map<String, String> clientConf = new HashMap<>();
      client.forEach(e -> clientConf.put(e.getKey(), e.getValue()));
      Map<String, String> hdfsFacts = big.buildThroughClient(hdfs.getURI().toString(), clientConf);
      assertThat(hdfsFacts.get("namespace")).startsWith(FILES + " files");
      assertThat(files(hdfs.getURI().toString(), client)).isEqualTo(onHops);
    } finally {
      hdfs.shutdown();
    }
  }

  @Test
  void anHdfsImageBuiltInProcessHoldsTheSameNamespaceAfterARestart() throws Exception {
    Map<String, String> nnConf = hopsConf();
    new BigNamespace(FILES, NamespaceSpec.SPOTIFY, 42).buildHops(nnConf);
    Set<String> onHops = hopsFiles(nnConf);

    HdfsImageBuilder.Result built =
        HdfsImageBuilder.build(dir.resolve("name").toFile(), FILES, NamespaceSpec.SPOTIFY, 42, 2);
    HdfsRestartProbe.Restart r =
        HdfsRestartProbe.restart(dir.resolve("name").toFile(), "512m", dir.resolve("nn.log"));
    try {
      assertThat(built.files()).isEqualTo(FILES);
      assertThat(r.files()).isEqualTo(FILES);
      assertThat(r.dirs()).isEqualTo(built.dirs() + 1); // and /hammer-ns itself
      assertThat(r.outOfSafeModeSeconds()).isGreaterThanOrEqualTo(r.firstAnswerSeconds());
      assertThat(r.imageLoad()).contains("Finished loading FSImage in");
      assertThat(r.heapUsedKb()).isPositive();
      assertThat(r.rssKb()).isPositive();
      assertThat(files(r.uri(), new Configuration())).isEqualTo(onHops);
    } finally {
      ProcessHandle.of(r.pid()).ifPresent(ProcessHandle::destroyForcibly);
    }
  }

  /**
   * {@code --workload big-dir}'s directory: the same names on hops (through the DAL) and in the
   * fsimage HDFS's NameNode then starts from.
   */
  @Test
  void theBigDirectoryIsTheSameOnHopsAndInAnHdfsImage() throws Exception {
    Map<String, String> nnConf = hopsConf();
    BigDirectory big = new BigDirectory(FILES);

    assertThat(big.buildHops(nnConf).get("big directory")).startsWith(FILES + " files");
    assertThat(big.buildHdfs(dir.resolve("name").toFile()).get("big directory"))
        .startsWith(FILES + " files");

    Set<String> onHops = hopsFiles(nnConf, BigDirectory.PATH);
    assertThat(onHops).hasSize(FILES).contains(BigDirectory.file(FILES - 1).toString() + " 0");
    org.apache.hadoop.metrics2.lib.DefaultMetricsSystem.setMiniClusterMode(true);
    org.apache.hadoop.hdfs.server.namenode.NameNode nn =
        new org.apache.hadoop.hdfs.server.namenode.NameNode(
            HdfsImageBuilder.namenodeConf(dir.resolve("name").toFile(), 0));
    try {
      String uri = "hdfs://127.0.0.1:" + nn.getNameNodeAddress().getPort();
      assertThat(files(uri, new Configuration(), BigDirectory.PATH)).isEqualTo(onHops);
    } finally {
      nn.stop();
      nn.join();
    }
  }

  private Map<String, String> hopsConf() {
    Map<String, String> nnConf = new HashMap<>();
    nnConf.put(HopsConfig.METADATA_ENGINE, "embedded");
    nnConf.put(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    return nnConf;
  }

  /** The files a hops namenode started over the store of {@code nnConf} lists. */
  private static Set<String> hopsFiles(Map<String, String> nnConf) throws Exception {
    return hopsFiles(nnConf, BigNamespace.BASE);
  }

  private static Set<String> hopsFiles(Map<String, String> nnConf, org.apache.hadoop.fs.Path below)
      throws Exception {
    Configuration conf = new Configuration(false);
    nnConf.forEach(conf::set);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, 0);
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      return files(nn.uri(), new Configuration(), below);
    }
  }

  private static Set<String> files(String uri, Configuration conf) throws Exception {
    return files(uri, conf, BigNamespace.BASE);
  }

  private static Set<String> files(String uri, Configuration conf, org.apache.hadoop.fs.Path below)
      throws Exception {
    Set<String> out = new TreeSet<>();
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    try (FileSystem fs = FileSystem.newInstance(java.net.URI.create(uri), conf)) {
      RemoteIterator<LocatedFileStatus> it = fs.listFiles(below, true);
      while (it.hasNext()) {
        LocatedFileStatus s = it.next();
        out.add(s.getPath().toUri().getPath() + " " + s.getLen());
      }
    }
    return out;
  }
}
