package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.tools.DistCp;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Hadoop's own {@code distcp} (a MapReduce job in the local runner) copies a directory of files
 * stored in the database to a plain directory, with the stock client and with hops-client as the
 * {@code hdfs://} file system: the copies are on datanodes with the same bytes, and distcp's own
 * checksum comparison of source and copy passes (the namenode's data-transfer endpoint answers
 * {@code OP_BLOCK_CHECKSUM} as a datanode would).
 */
class SmallFilesDistCpTest {
  private static final int[] SIZES = {0, 1, 1024, 1025, 4096, 65536};

  private static HopsTestCluster cluster;
  private static DistributedFileSystem stock;
  private static FileSystem hops;
  private static File local;

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    cluster.waitForLive(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", 1);
    hops = FileSystem.get(cluster.uri(), c);
    local = Files.createTempDirectory("hops-smallfiles-distcp").toFile();
    stock.mkdirs(new Path("/db/sub"));
    stock.setStoragePolicy(new Path("/db"), "DB");
    for (int i = 0; i < SIZES.length; i++) {
      String dir = i % 2 == 0 ? "/db/" : "/db/sub/";
      SmallFilesTest.write(hops, new Path(dir + "f" + SIZES[i]), SmallFilesTest.bytes(SIZES[i], i));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {hops, stock, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static boolean storedInDatabase(Path p) throws IOException {
    long id = stock.getClient().getFileInfo(p.toUri().getPath()).getFileId();
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED)
          .get(0)
          .fileStoredInDb();
    }
  }

  /**
   * Each file under {@code root} by its relative path, with its bytes (read with the stock client).
   */
  private static Map<String, byte[]> files(Path root) throws IOException {
    Map<String, byte[]> out = new TreeMap<>();
    walk(root, root, out);
    return out;
  }

  private static void walk(Path root, Path p, Map<String, byte[]> out) throws IOException {
    for (FileStatus st : stock.listStatus(p)) {
      if (st.isDirectory()) {
        walk(root, st.getPath(), out);
      } else {
        String rel = st.getPath().toUri().getPath().substring(root.toUri().getPath().length());
        out.put(rel, SmallFilesTest.read(stock, st.getPath()));
      }
    }
  }

  @ParameterizedTest
  @ValueSource(booleans = {false, true})
  void distcpCopiesDatabaseFilesToDatanodes(boolean withHopsClient) throws Exception {
    String dst = withHopsClient ? "/copy-hops" : "/copy-stock";
    Configuration conf = new Configuration(cluster.clientConf());
    conf.set("fs.defaultFS", cluster.uri().toString());
    conf.set(
        "fs.hdfs.impl",
        (withHopsClient ? HopsDistributedFileSystem.class : DistributedFileSystem.class).getName());
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    conf.setInt("dfs.replication", 1);
    conf.set("mapreduce.framework.name", "local");
    conf.set("hadoop.tmp.dir", new File(local, "tmp-" + withHopsClient).getPath());
    conf.set("mapreduce.jobtracker.staging.root.dir", "/user/staging");
    conf.set("mapreduce.cluster.local.dir", new File(local, "mapred-" + withHopsClient).getPath());
    int rc =
        ToolRunner.run(
            conf,
            new DistCp(conf, null),
            new String[] {cluster.uri() + "/db", cluster.uri() + dst});
    assertThat(rc).isZero();

    Map<String, byte[]> src = files(new Path("/db"));
    Map<String, byte[]> copy = files(new Path(dst));
    assertThat(src).hasSize(SIZES.length);
    assertThat(copy.keySet()).containsExactlyElementsOf(src.keySet());
    for (String rel : src.keySet()) {
      assertThat(copy.get(rel)).as(rel).isEqualTo(src.get(rel));
      assertThat(storedInDatabase(new Path("/db" + rel))).as("source " + rel).isTrue();
      assertThat(storedInDatabase(new Path(dst + rel))).as("copy " + rel).isFalse();
    }
    assertThat(stock.getFileChecksum(new Path(dst + "/sub/f65536")))
        .isEqualTo(stock.getFileChecksum(new Path("/db/sub/f65536")));
  }
}
