package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.smallfiles.MoveRecords;
import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A namenode that dies while moving a database file to datanodes (a stock client's append), after
 * writing the hidden {@code .hops-move-*} file and before adopting it: the leader's housekeeping
 * deletes that file, and the database file is as it was.
 */
class SmallFilesMoveLeftoverTest {
  /** What the fault hook throws: the namenode "dies" there. */
  private static final class Death extends Error {
    Death() {
      super("the namenode died between writing the hidden file and adopting it");
    }
  }

  private static HopsTestCluster cluster;
  private static DistributedFileSystem stock;
  private static FileSystem hops;

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    nn.setLong(HopsConfig.SMALL_FILE_MOVE_LEFTOVER_AGE_MS, 500);
    // Rounds run only when the test asks: a background round during a move slower than the 500 ms
    // age (a loaded machine) took the live move for a leftover and deleted its hidden file.
    nn.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", 1);
    hops = FileSystem.get(cluster.uri(), c);
    stock.mkdirs(new Path("/db"));
    stock.setStoragePolicy(new Path("/db"), "DB");
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {hops, stock, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static List<String> names(Path dir) throws IOException {
    return Arrays.stream(stock.listStatus(dir)).map(s -> s.getPath().getName()).sorted().toList();
  }

  private static List<VariableRow> moveRecords() throws IOException {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.scanAll(VariableRow.TABLE, LockMode.READ_COMMITTED).stream()
          .filter(r -> r.name().startsWith(MoveRecords.ROW_PREFIX))
          .toList();
    }
  }

  private static boolean storedInDatabase(Path p) throws IOException {
    long id = fileId(p);
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      InodeRow inode = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED).get(0);
      return inode.fileStoredInDb()
          && tx.find(
                  InMemoryFileDataRow.TABLE,
                  InMemoryFileDataRow.TABLE.key(id),
                  LockMode.READ_COMMITTED)
              != null;
    }
  }

  private static long fileId(Path p) throws IOException {
    return stock.getClient().getFileInfo(p.toUri().getPath()).getFileId();
  }

  @Test
  void aMoveCutShortLeavesNoHiddenFileBehind() throws Exception {
    Path p = new Path("/db/small");
    byte[] data = SmallFilesTest.bytes(100, 7);
    SmallFilesTest.write(hops, p, data);
    assertThat(storedInDatabase(p)).isTrue();
    var faults = cluster.namenode().namesystem().faults();
    faults.arm(
        Faults.Point.DATABASE_FILE_HIDDEN,
        () -> {
          throw new Death();
        });
    try {
      assertThatThrownBy(
              () -> {
                try (FSDataOutputStream out = stock.append(p)) {
                  out.write(1);
                }
              })
          .isInstanceOf(IOException.class);
    } finally {
      faults.arm(Faults.Point.DATABASE_FILE_HIDDEN, null);
    }
    // What the dead namenode left: the hidden file, and its record.
    List<String> left = names(new Path("/db"));
    assertThat(left).hasSize(2).contains("small");
    String hidden = ".hops-move-" + fileId(p) + "-";
    assertThat(left.stream().filter(n -> n.startsWith(hidden))).hasSize(1);
    assertThat(moveRecords()).hasSize(1);

    long deadline = System.currentTimeMillis() + 60_000;
    while (names(new Path("/db")).size() > 1 && System.currentTimeMillis() < deadline) {
      cluster.namenode().housekeeping().runOnce();
      Thread.sleep(200);
    }
    assertThat(names(new Path("/db"))).containsExactly("small");
    assertThat(moveRecords()).isEmpty();
    // The database file is untouched: still in the database, same bytes through both clients.
    assertThat(storedInDatabase(p)).isTrue();
    FileStatus st = stock.getFileStatus(p);
    assertThat(st.getLen()).isEqualTo(data.length);
    assertThat(SmallFilesTest.read(hops, p)).isEqualTo(data);
    assertThat(SmallFilesTest.read(stock, p)).isEqualTo(data);

    // And a move that is not cut short still works, leaving no record.
    try (FSDataOutputStream out = stock.append(p)) {
      out.write(1);
    }
    assertThat(names(new Path("/db"))).containsExactly("small");
    assertThat(moveRecords()).isEmpty();
    assertThat(stock.getFileStatus(p).getLen()).isEqualTo(data.length + 1);
  }
}
