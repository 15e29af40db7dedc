package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * HopsFS HOPS-155: a small file written with hops-client to a full database tier goes to datanodes
 * with its bytes, and reads back with both clients; files written before and after (once there is
 * room again) stay in the database. On the embedded engine with a configured table capacity, and on
 * MariaDB with the in-memory tier a MEMORY table at a tiny {@code max_heap_table_size}.
 */
class SmallFilesTableFullTest {

  @Test
  void aFullInMemoryTierOnTheEmbeddedEngineSendsFilesToDatanodes() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    // Room for three rows of 1 KB (each row: the bytes plus a few bytes of encoding).
    nn.setInt(HopsConfig.EMBEDDED_TABLE_MAX_BYTES_PREFIX + InMemoryFileDataRow.TABLE.name(), 3200);
    try (HopsTestCluster cluster = new HopsTestCluster(nn)) {
      fillUntilFullThenFreeRoom(cluster, 3);
    }
  }

  @Test
  void aFullMemoryTableOnMariadbSendsFilesToDatanodes() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(nn);
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    try (cluster;
        Connection c =
            DriverManager.getConnection(
                System.getenv("HOPS_TEST_MYSQL_URL"),
                System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops"),
                System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops"));
        Statement s = c.createStatement()) {
      // The smallest MEMORY table MariaDB makes: max_heap_table_size is read at ALTER time.
      s.execute("SET SESSION max_heap_table_size = 16384");
      s.execute("ALTER TABLE inmemory_file_data REMOVE PARTITIONING");
      s.execute("ALTER TABLE inmemory_file_data ENGINE=MEMORY");
      try {
        fillUntilFullThenFreeRoom(cluster, -1);
      } finally {
        s.execute("DROP TABLE inmemory_file_data");
        HopsTestCluster.emptyMariadbOrNull(); // the InnoDB table of schema/mysql.sql again
      }
    }
  }

  /**
   * Writes 1 KB files into a DB directory with hops-client until one lands on datanodes ({@code
   * fits}: after exactly this many, or -1: any number up to 200), then deletes a database file and
   * writes one more, which fits again.
   */
  private static void fillUntilFullThenFreeRoom(HopsTestCluster cluster, int fits)
      throws Exception {
    cluster.startDatanodes(1);
    Configuration cc = cluster.clientConf();
    cc.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    cc.setInt("dfs.replication", 1);
    try (DistributedFileSystem stock = cluster.client();
        FileSystem hops = FileSystem.newInstance(cluster.uri(), cc)) {
      stock.mkdirs(new Path("/db"));
      stock.setStoragePolicy(new Path("/db"), "DB");
      List<Path> inDb = new ArrayList<>();
      Path declined = null;
      for (int i = 0; i < 200 && declined == null; i++) {
        Path p = new Path("/db/f" + i);
        SmallFilesTest.write(hops, p, SmallFilesTest.bytes(1024, i));
        if (where(cluster, stock, p).equals("db")) {
          inDb.add(p);
        } else {
          declined = p;
        }
      }
      assertThat(declined).as("a file went to datanodes").isNotNull();
      if (fits >= 0) {
        assertThat(inDb).hasSize(fits);
      } else {
        assertThat(inDb).isNotEmpty();
      }
      assertThat(where(cluster, stock, declined)).isEqualTo("datanodes:1");
      for (int i = 0; i <= inDb.size(); i++) {
        Path p = new Path("/db/f" + i);
        byte[] expected = SmallFilesTest.bytes(1024, i);
        assertThat(SmallFilesTest.read(hops, p)).isEqualTo(expected);
        assertThat(SmallFilesTest.read(stock, p)).isEqualTo(expected);
      }
      assertThat(stock.delete(inDb.get(0), false)).isTrue();
      Path again = new Path("/db/again");
      SmallFilesTest.write(hops, again, SmallFilesTest.bytes(1024, 99));
      assertThat(where(cluster, stock, again)).as("room again after a delete").isEqualTo("db");
      assertThat(SmallFilesTest.read(stock, again)).isEqualTo(SmallFilesTest.bytes(1024, 99));
    }
  }

  /** "db" for a file in the database, else "datanodes:" and its block count. */
  static String where(HopsTestCluster cluster, DistributedFileSystem stock, Path p)
      throws IOException {
    long id = stock.getClient().getFileInfo(p.toUri().getPath()).getFileId();
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      InodeRow inode = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED).get(0);
      if (inode.fileStoredInDb()) {
        return "db";
      }
      return "datanodes:"
          + tx.findByPartition(BlockInfoRow.TABLE, id, LockMode.READ_COMMITTED).size();
    }
  }
}
