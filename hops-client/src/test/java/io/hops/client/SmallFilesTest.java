package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnDiskLargeFileDataRow;
import io.hops.dal.rows.OnDiskMediumFileDataRow;
import io.hops.dal.rows.OnDiskSmallFileDataRow;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.Arrays;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Small files in the database through {@link HopsDistributedFileSystem}, a real namenode and a
 * stock DataNode: the tier each size lands in (read through the DAL), byte-identical reads with
 * hops-client and with the stock client, and the fallbacks to datanodes.
 */
class SmallFilesTest {
  private static HopsTestCluster cluster;
  private static FileSystem hops;
  private static DistributedFileSystem stock;

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setInt("dfs.replication", 1);
    hops = FileSystem.get(cluster.uri(), c);
    assertThat(hops).isInstanceOf(HopsDistributedFileSystem.class);
    stock.mkdirs(new Path("/db"));
    stock.setStoragePolicy(new Path("/db"), "DB");
    stock.mkdirs(new Path("/plain"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (hops != null) {
      hops.close();
    }
    if (stock != null) {
      stock.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static void write(FileSystem fs, Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(p, true)) {
      out.write(data);
    }
  }

  static byte[] read(FileSystem fs, Path p) throws IOException {
    try (FSDataInputStream in = fs.open(p)) {
      return IOUtils.readFullyToByteArray(in);
    }
  }

  /** Where the file's bytes are, as the database says. */
  static String tierOf(Path p) throws IOException {
    long id = stock.getClient().getFileInfo(p.toUri().getPath()).getFileId();
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      InodeRow inode = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED).get(0);
      String where;
      if (tx.find(
              InMemoryFileDataRow.TABLE, InMemoryFileDataRow.TABLE.key(id), LockMode.READ_COMMITTED)
          != null) {
        where = "inmemory";
      } else if (tx.find(
              OnDiskSmallFileDataRow.TABLE,
              OnDiskSmallFileDataRow.TABLE.key(id),
              LockMode.READ_COMMITTED)
          != null) {
        where = "small";
      } else if (tx.find(
              OnDiskMediumFileDataRow.TABLE,
              OnDiskMediumFileDataRow.TABLE.key(id),
              LockMode.READ_COMMITTED)
          != null) {
        where = "medium";
      } else {
        int pieces =
            tx.findByPartition(OnDiskLargeFileDataRow.TABLE, id, LockMode.READ_COMMITTED).size();
        int blocks = tx.findByPartition(BlockInfoRow.TABLE, id, LockMode.READ_COMMITTED).size();
        where = pieces > 0 ? "large:" + pieces : "datanodes:" + blocks;
      }
      return (inode.fileStoredInDb() ? "db " : "") + where;
    }
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 1024, 1025, 4096, 65536, 65537})
  void hopsClientWritesLandInTheirTierAndReadBackWithBothClients(int size) throws Exception {
    Path p = new Path("/db/h" + size);
    byte[] data = bytes(size, size);
    write(hops, p, data);
    String expected =
        switch (size) {
          case 0, 1, 1024 -> "db inmemory";
          case 1025 -> "db small";
          case 4096 -> "db medium";
          case 65536 -> "db large:8";
          default -> "datanodes:1";
        };
    assertThat(tierOf(p)).isEqualTo(expected);
    assertThat(hops.getFileStatus(p).getLen()).isEqualTo(size);
    assertThat(stock.getFileStatus(p).getLen()).isEqualTo(size);
    assertThat(Arrays.equals(read(hops, p), data)).isTrue();
    assertThat(Arrays.equals(read(stock, p), data)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 1024, 1025, 4096, 65536, 65537})
  void stockClientWritesGoToDatanodesAndReadBackWithBothClients(int size) throws Exception {
    Path p = new Path("/db/s" + size);
    byte[] data = bytes(size, -size);
    write(stock, p, data);
    assertThat(tierOf(p)).startsWith("datanodes:");
    assertThat(Arrays.equals(read(hops, p), data)).isTrue();
    assertThat(Arrays.equals(read(stock, p), data)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {1, 4096})
  void hopsClientWritesOutsideADbDirectoryGoToDatanodes(int size) throws Exception {
    Path p = new Path("/plain/h" + size);
    byte[] data = bytes(size, 7);
    write(hops, p, data);
    assertThat(tierOf(p)).isEqualTo("datanodes:1");
    assertThat(Arrays.equals(read(hops, p), data)).isTrue();
  }

  @ParameterizedTest
  @ValueSource(ints = {10, 3000})
  void hflushFallsBackToThePipelineWithTheBufferedBytes(int size) throws Exception {
    Path p = new Path("/db/flushed" + size);
    byte[] data = bytes(size, 11);
    try (FSDataOutputStream out = hops.create(p, true)) {
      out.write(data, 0, size / 2);
      out.hflush();
      // Visible to a reader once flushed, as with HDFS.
      assertThat(read(stock, p)).hasSize(size / 2);
      out.write(data, size / 2, size - size / 2);
    }
    assertThat(tierOf(p)).isEqualTo("datanodes:1");
    assertThat(Arrays.equals(read(hops, p), data)).isTrue();
    assertThat(Arrays.equals(read(stock, p), data)).isTrue();
  }

  private static long idOf(Path p) throws IOException {
    return stock.getClient().getFileInfo(p.toUri().getPath()).getFileId();
  }

  private static int dataRows(long id) throws IOException {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      int n = 0;
      n +=
          tx.find(
                      InMemoryFileDataRow.TABLE,
                      InMemoryFileDataRow.TABLE.key(id),
                      LockMode.READ_COMMITTED)
                  == null
              ? 0
              : 1;
      n +=
          tx.find(
                      OnDiskSmallFileDataRow.TABLE,
                      OnDiskSmallFileDataRow.TABLE.key(id),
                      LockMode.READ_COMMITTED)
                  == null
              ? 0
              : 1;
      n +=
          tx.find(
                      OnDiskMediumFileDataRow.TABLE,
                      OnDiskMediumFileDataRow.TABLE.key(id),
                      LockMode.READ_COMMITTED)
                  == null
              ? 0
              : 1;
      n += tx.findByPartition(OnDiskLargeFileDataRow.TABLE, id, LockMode.READ_COMMITTED).size();
      return n;
    }
  }

  @org.junit.jupiter.api.Test
  void renameKeepsTheBytesAndDeleteRemovesTheRows() throws Exception {
    byte[] data = bytes(3000, 3);
    write(hops, new Path("/db/r1"), data);
    long id = idOf(new Path("/db/r1"));
    assertThat(stock.rename(new Path("/db/r1"), new Path("/plain/r2"))).isTrue();
    assertThat(tierOf(new Path("/plain/r2"))).isEqualTo("db medium");
    assertThat(stock.listStatus(new Path("/plain/r2"))[0].getLen()).isEqualTo(3000);
    assertThat(Arrays.equals(read(hops, new Path("/plain/r2")), data)).isTrue();
    assertThat(Arrays.equals(read(stock, new Path("/plain/r2")), data)).isTrue();
    assertThat(dataRows(id)).isEqualTo(1);
    assertThat(stock.delete(new Path("/plain/r2"), false)).isTrue();
    assertThat(dataRows(id)).isZero();

    // In a subtree delete too.
    write(hops, new Path("/db/sub/a/f"), bytes(20_000, 4));
    long sub = idOf(new Path("/db/sub/a/f"));
    assertThat(dataRows(sub)).isEqualTo(3);
    assertThat(stock.delete(new Path("/db/sub"), true)).isTrue();
    assertThat(dataRows(sub)).isZero();
  }

  @org.junit.jupiter.api.Test
  void truncateRewritesTheRowsInTheirNewTier() throws Exception {
    Path p = new Path("/db/t");
    byte[] data = bytes(5000, 5);
    write(hops, p, data);
    assertThat(tierOf(p)).isEqualTo("db large:1");
    assertThat(stock.truncate(p, 100)).isTrue();
    assertThat(tierOf(p)).isEqualTo("db inmemory");
    assertThat(stock.getFileStatus(p).getLen()).isEqualTo(100);
    assertThat(read(stock, p)).isEqualTo(Arrays.copyOf(data, 100));
    assertThat(read(hops, p)).isEqualTo(Arrays.copyOf(data, 100));
  }

  @org.junit.jupiter.api.Test
  void appendStaysInTheDatabaseUntilItOutgrowsItThenMovesToDatanodes() throws Exception {
    Path p = new Path("/db/app");
    byte[] data = bytes(66_000, 6);
    write(hops, p, Arrays.copyOf(data, 60_000));
    try (FSDataOutputStream out = hops.append(p)) {
      assertThat(out.getPos()).isEqualTo(60_000);
      out.write(data, 60_000, 1000);
    }
    assertThat(tierOf(p)).isEqualTo("db large:8");
    try (FSDataOutputStream out = hops.append(p)) {
      out.write(data, 61_000, 5000);
    }
    assertThat(tierOf(p)).isEqualTo("datanodes:1");
    assertThat(Arrays.equals(read(hops, p), data)).isTrue();
    assertThat(Arrays.equals(read(stock, p), data)).isTrue();
    // It stays on datanodes.
    HopsTestCluster.awaitReplicas(stock, p, 1);
    try (FSDataOutputStream out = hops.append(p)) {
      out.write(new byte[] {1, 2, 3});
    }
    assertThat(tierOf(p)).startsWith("datanodes:");
    assertThat(stock.getFileStatus(p).getLen()).isEqualTo(66_003);
  }

  @ParameterizedTest
  @ValueSource(ints = {0, 1, 4096})
  void stockAppendMovesADatabaseFileToDatanodesThenAppends(int size) throws Exception {
    Path p = new Path("/db/stockappend" + size);
    byte[] first = bytes(size, 8);
    write(hops, p, first);
    long id = idOf(p);
    assertThat(tierOf(p)).startsWith("db ");
    byte[] more = bytes(300, 9);
    try (FSDataOutputStream out = stock.append(p)) {
      out.write(more);
    }
    byte[] all = Arrays.copyOf(first, size + more.length);
    System.arraycopy(more, 0, all, size, more.length);
    // The same file, now in one block (the moved bytes, then the appended ones), as on HDFS.
    assertThat(idOf(p)).isEqualTo(id);
    assertThat(tierOf(p)).isEqualTo("datanodes:1");
    assertThat(dataRows(id)).isZero();
    assertThat(read(stock, p)).isEqualTo(all);
    assertThat(read(hops, p)).isEqualTo(all);
    assertThat(stock.listStatus(new Path("/db")))
        .extracting(s -> s.getPath().getName())
        .noneMatch(n -> n.startsWith(".hops-move-"));
  }

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void concatOfDatabaseAndDatanodeFilesInAnyMix(boolean withHopsClient) throws Exception {
    FileSystem fs = withHopsClient ? hops : stock;
    Path dir = new Path("/db/concat-" + withHopsClient);
    Path target = new Path(dir, "target");
    Path inDb = new Path(dir, "indb");
    Path onDatanodes = new Path(dir, "ondatanodes");
    write(hops, target, bytes(700, 1));
    write(hops, inDb, bytes(5000, 2));
    write(stock, onDatanodes, bytes(2000, 3));
    assertThat(tierOf(target)).isEqualTo("db inmemory");
    assertThat(tierOf(onDatanodes)).isEqualTo("datanodes:1");
    long id = idOf(target);
    fs.concat(target, new Path[] {inDb, onDatanodes});
    byte[] all = new byte[7700];
    System.arraycopy(bytes(700, 1), 0, all, 0, 700);
    System.arraycopy(bytes(5000, 2), 0, all, 700, 5000);
    System.arraycopy(bytes(2000, 3), 0, all, 5700, 2000);
    assertThat(idOf(target)).isEqualTo(id);
    assertThat(tierOf(target)).isEqualTo("datanodes:3");
    assertThat(stock.exists(inDb)).isFalse();
    assertThat(stock.exists(onDatanodes)).isFalse();
    assertThat(read(stock, target)).isEqualTo(all);
    assertThat(read(hops, target)).isEqualTo(all);
    assertThat(stock.listStatus(dir)).hasSize(1);
  }

  private static org.assertj.core.api.AbstractStringAssert<?> assertThatThrown(
      org.assertj.core.api.ThrowableAssert.ThrowingCallable c) {
    Throwable t = org.assertj.core.api.Assertions.catchThrowable(c);
    assertThat(t).isNotNull();
    return assertThat(t.getMessage());
  }

  @org.junit.jupiter.api.Test
  void fsckListsDatabaseFilesAndAMissingRowIsCorruptAndUnreadable() throws Exception {
    write(hops, new Path("/db/fsck/ok"), bytes(100, 12));
    write(hops, new Path("/db/fsck/bad"), bytes(3000, 13));
    long bad = idOf(new Path("/db/fsck/bad"));
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      tx.delete(OnDiskMediumFileDataRow.TABLE, OnDiskMediumFileDataRow.TABLE.key(bad));
      tx.commit();
    }
    Configuration c = cluster.clientConf();
    c.set("dfs.namenode.http-address", "127.0.0.1:" + cluster.namenode().httpAddress().getPort());
    java.io.ByteArrayOutputStream buf = new java.io.ByteArrayOutputStream();
    int rc;
    try (java.io.PrintStream out = new java.io.PrintStream(buf, true, "UTF-8")) {
      rc =
          org.apache.hadoop.util.ToolRunner.run(
              new org.apache.hadoop.hdfs.tools.DFSck(c, out), new String[] {"/db/fsck", "-files"});
    }
    String report = buf.toString("UTF-8");
    assertThat(report)
        .contains("/db/fsck/ok 100 bytes, stored in the database (IN_MEMORY): OK")
        .contains("/db/fsck/bad: CORRUPT: stored in the database (ON_DISK_MEDIUM)")
        .contains("is CORRUPT");
    assertThat(rc).isNotZero();

    assertThat(
            org.assertj.core.api.Assertions.catchThrowable(
                () -> read(hops, new Path("/db/fsck/bad"))))
        .isInstanceOf(org.apache.hadoop.hdfs.BlockMissingException.class);
    Configuration fast = cluster.clientConf();
    fast.setInt("dfs.client.retry.window.base", 1);
    try (FileSystem quick = FileSystem.get(cluster.uri(), fast)) {
      assertThat(
              org.assertj.core.api.Assertions.catchThrowable(
                  () -> read(quick, new Path("/db/fsck/bad"))))
          .isInstanceOf(org.apache.hadoop.hdfs.BlockMissingException.class);
    }
  }

  @org.junit.jupiter.api.Test
  void locatedListingGivesADatabaseFileItsOneBlock() throws Exception {
    write(hops, new Path("/db/located/f"), bytes(2000, 14));
    var it = stock.listLocatedStatus(new Path("/db/located"));
    var st = it.next();
    assertThat(st.getLen()).isEqualTo(2000);
    assertThat(st.getBlockLocations()).hasSize(1);
    assertThat(st.getBlockLocations()[0].getLength()).isEqualTo(2000);
    assertThat(stock.getFileBlockLocations(st, 0, 2000)).hasSize(1);
  }
}
