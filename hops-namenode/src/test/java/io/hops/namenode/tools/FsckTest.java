package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.tools.DFSck;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The stock {@code hdfs fsck} (DFSck) against the namenode's {@code /fsck}: HDFS's report, the
 * status line DFSck turns into its exit code, the per-file and per-block listing, corrupt and
 * missing blocks, and the caller's permissions. Also the status page and {@code /jmx}.
 */
class FsckTest {
  private static final int BLOCK = 1024 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, TimeUnit.HOURS.toMillis(1));
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
    write("/fsck/a", 2 * BLOCK + BLOCK / 2);
    write("/fsck/sub/b", 10);
    write("/fsck/empty", 0);
    fs.mkdirs(new Path("/fsck/emptydir"));
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static void write(String path, int size) throws IOException {
    byte[] data = new byte[size];
    new Random(size).nextBytes(data);
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 3, BLOCK)) {
      out.write(data);
    }
  }

  private static Configuration fsckConf() {
    Configuration c = cluster.clientConf();
    var http = cluster.namenode().httpAddress();
    c.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:" + http.getPort());
    return c;
  }

  private static StockTool.Output fsck(String... args) throws Exception {
    return StockTool.run(out -> new DFSck(fsckConf(), out), args);
  }

  @Test
  void aHealthyTreeIsReportedWithItsCountsAndExitsZero() throws Exception {
    StockTool.Output r = fsck("/fsck");
    assertThat(r.rc()).as(r.out()).isZero();
    assertThat(r.out())
        .contains("FSCK started by " + UserGroupInformation.getCurrentUser().getShortUserName())
        .contains(" for path /fsck at ")
        .contains("Status: HEALTHY")
        .contains(" Number of data-nodes:\t3")
        .contains(" Number of racks:\t\t1")
        .contains(" Total dirs:\t\t\t3")
        .contains(" Total symlinks:\t\t0")
        .contains(" Total size:\t" + (2 * BLOCK + BLOCK / 2 + 10) + " B")
        .contains(" Total files:\t3\n")
        .contains(" Total blocks (validated):\t4 (avg. block size ")
        .contains(" Minimally replicated blocks:\t4 (100.0 %)")
        .contains(" Under-replicated blocks:\t0 (0.0 %)")
        .contains(" Default replication factor:\t3")
        .contains(" Average block replication:\t3.0")
        .contains(" Missing blocks:\t\t0")
        .contains(" Corrupt blocks:\t\t0")
        .contains("Erasure Coded Block Groups:");
    assertThat(r.lastLine()).isEqualTo("The filesystem under path '/fsck' is HEALTHY");
  }

  @Test
  void filesBlocksAndLocationsAreListed() throws Exception {
    StockTool.Output r = fsck("/fsck/a", "-files", "-blocks", "-locations");
    assertThat(r.rc()).isZero();
    assertThat(r.out())
        .contains(
            "/fsck/a "
                + (2 * BLOCK + BLOCK / 2)
                + " bytes, replicated: replication=3, 3 block(s):  OK")
        .containsPattern(
            "\n0\\. BP-[^:]+:blk_\\d+_\\d+ len=1048576 Live_repl=3  \\[DatanodeInfoWithStorage\\[127\\.0\\.0\\.1:\\d+,DS-")
        .containsPattern("\n2\\. BP-[^:]+:blk_\\d+_\\d+ len=524288 Live_repl=3 ");
    StockTool.Output racks = fsck("/fsck/sub", "-files", "-blocks", "-racks");
    assertThat(racks.out())
        .contains("/fsck/sub <dir>")
        .contains("/fsck/sub/b 10 bytes, replicated: replication=3, 1 block(s):  OK")
        .contains("[/default-rack/127.0.0.1:");
  }

  @Test
  void aMissingPathDoesNotExist() throws Exception {
    // DFSck resolves the path first and gives up on the client side, as against HDFS.
    StockTool.Output r = fsck("/fsck/nope");
    assertThat(r.rc()).isZero();
    assertThat(r.err()).contains("FileSystem is inaccessible due to:").contains("/fsck/nope");
    // The namenode's own answer, for a path gone between the two.
    String direct =
        get(cluster.namenode().httpUri() + "/fsck?ugi=" + user() + "&path=%2Ffsck%2Fnope");
    assertThat(direct.strip()).endsWith("Path '/fsck/nope' does not exist");
  }

  private static String user() throws IOException {
    return UserGroupInformation.getCurrentUser().getShortUserName();
  }

  @Test
  void corruptAndUnderReplicatedBlocksAreReported() throws Exception {
    write("/fsck2/c", 1000);
    // The file closes once one replica is reported; wait for all three (as with HDFS).
    HopsTestCluster.awaitReplicas(fs, new Path("/fsck2/c"), 3);
    var storage = cluster.namenode().namesystem().storage();
    List<ReplicaRow> replicas = Replicas.of(storage, fs, "/fsck2/c");
    try {
      Replicas.markCorrupt(storage, replicas.subList(0, 1));
      StockTool.Output one = fsck("/fsck2");
      assertThat(one.rc()).as(one.out()).isZero();
      assertThat(one.out())
          .containsPattern(
              "/fsck2/c:  Under replicated BP-[^:]+:blk_\\d+_\\d+\\. Target Replicas is 3 but found"
                  + " 2 live replica\\(s\\)")
          .contains(" Under-replicated blocks:\t1 (100.0 %)")
          .contains(" Missing replicas:\t\t1 (33.333332 %)");

      Replicas.markCorrupt(storage, replicas.subList(1, 3));
      StockTool.Output all = fsck("/fsck2");
      assertThat(all.rc()).as(all.out()).isEqualTo(1);
      assertThat(all.out())
          .contains("Status: CORRUPT")
          .containsPattern("/fsck2/c: CORRUPT blockpool BP-[^ ]+ block blk_\\d+")
          .contains("  CORRUPT FILES:\t1")
          .contains(" Corrupt blocks:\t\t1");
      assertThat(all.lastLine()).isEqualTo("The filesystem under path '/fsck2' is CORRUPT");

      StockTool.Output list = fsck("/fsck2", "-list-corruptfileblocks");
      assertThat(list.out())
          .contains("The list of corrupt blocks under path '/fsck2' are:")
          .containsPattern("blk_" + replicas.get(0).blockId() + "\t3\t/fsck2/c")
          .contains("The filesystem under path '/fsck2' has 1 CORRUPT blocks");
    } finally {
      Replicas.unmark(storage, replicas);
    }
    assertThat(fsck("/fsck2").lastLine())
        .isEqualTo("The filesystem under path '/fsck2' is HEALTHY");
    StockTool.Output none = fsck("/fsck2", "-list-corruptfileblocks");
    assertThat(none.rc()).isZero();
    assertThat(none.out()).contains("The filesystem under path '/fsck2' has 0 CORRUPT blocks");
  }

  @Test
  void theWalkHasTheCallersPermissions() throws Exception {
    fs.mkdirs(new Path("/private/inner"));
    fs.setPermission(new Path("/private"), new FsPermission((short) 0700));
    UserGroupInformation bob =
        UserGroupInformation.createUserForTesting("bob", new String[] {"bob"});
    StockTool.Output r = StockTool.run(bob, out -> new DFSck(fsckConf(), out), "/private");
    assertThat(r.rc()).isNotZero();
    assertThat(r.out())
        .contains("FSCK started by bob")
        .contains("Permission denied: user=bob, access=READ_EXECUTE");
    assertThat(r.lastLine()).isEqualTo("Fsck on path '/private' FAILED");
  }

  @Test
  void unsupportedOptionsAreRefusedByName() throws Exception {
    StockTool.Output r = fsck("/fsck", "-move");
    assertThat(r.out()).contains("fsck option 'move' is not supported by hops");
    assertThat(r.lastLine()).isEqualTo("Fsck on path '/fsck' FAILED");
  }

  @Test
  void statusPageAndJmxAreServed() throws Exception {
    String base = cluster.namenode().httpUri();
    assertThat(get(base + "/"))
        .contains("hops namenode")
        .contains(cluster.namenode().uri())
        .contains("3 live, 0 dead");
    assertThat(get(base + "/jmx")).contains("\"name\" : \"java.lang:type=Runtime\"");
  }

  private static String get(String url) throws IOException {
    HttpURLConnection c = (HttpURLConnection) new URL(url).openConnection();
    assertThat(c.getResponseCode()).isEqualTo(200);
    try (InputStream in = c.getInputStream()) {
      return new String(in.readAllBytes(), StandardCharsets.UTF_8);
    }
  }
}
