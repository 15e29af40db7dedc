package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.namenode.HopsTestCluster;
import java.security.PrivilegedExceptionAction;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * hops-client's read of a file stored in the database: one namenode operation per open, read and
 * close; the access time kept as {@code getBlockLocations} keeps it; and {@code
 * security.hdfs.unreadable.by.superuser} refusing the superuser with the exception the stock read
 * path raises, while the owner is still served inline.
 */
class SmallFilesInlineReadTest {
  private static final String MARKER = "security.hdfs.unreadable.by.superuser";

  private static HopsTestCluster cluster;
  private static DistributedFileSystem stock;
  private static FileSystem admin;
  private static FileSystem alice;

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    nn.setLong("dfs.namenode.accesstime.precision", 1);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", 1);
    admin = FileSystem.get(cluster.uri(), c);
    alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"})
            .doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.get(cluster.uri(), c));
    assertThat(admin).isInstanceOf(HopsDistributedFileSystem.class);
    assertThat(alice).isInstanceOf(HopsDistributedFileSystem.class);
    stock.mkdirs(new Path("/u"));
    stock.setPermission(new Path("/u"), new FsPermission((short) 0777));
    stock.setStoragePolicy(new Path("/u"), "DB");
  }

  @AfterAll
  static void stop() throws Exception {
    for (AutoCloseable c : new AutoCloseable[] {alice, admin, stock, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  /** The bytes, and that they came inline (no datanode, no block locations). */
  private static byte[] readInline(FileSystem fs, Path p) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      assertThat(in.getWrappedStream()).isInstanceOf(InlineFileInputStream.class);
      return IOUtils.readFullyToByteArray(in);
    }
  }

  private static String firstLine(Throwable t) {
    String m = String.valueOf(t.getMessage());
    int nl = m.indexOf('\n');
    return nl < 0 ? m : m.substring(0, nl);
  }

  @Test
  void theSuperuserCannotReadAMarkedDatabaseFileInlineLikeTheStockRead() throws Exception {
    Path p = new Path("/u/mine");
    byte[] data = SmallFilesTest.bytes(4096, 14);
    SmallFilesTest.write(alice, p, data);
    assertThat(readInline(admin, p)).isEqualTo(data);

    alice.setXAttr(p, MARKER, null, EnumSet.of(XAttrSetFlag.CREATE));

    Throwable stockRefusal = org.assertj.core.api.Assertions.catchThrowable(() -> stock.open(p));
    assertThat(stockRefusal).isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> admin.open(p))
        .isInstanceOf(AccessControlException.class)
        .satisfies(e -> assertThat(firstLine(e)).isEqualTo(firstLine(stockRefusal)))
        .hasMessageStartingWith(
            "Access is denied for "
                + UserGroupInformation.getCurrentUser().getShortUserName()
                + " since the superuser is not allowed to perform this operation.");
    assertThat(readInline(alice, p)).isEqualTo(data);
  }

  @Test
  void anInlineReadIsOneNamenodeOperation() throws Exception {
    Path p = new Path("/u/one-call");
    byte[] data = SmallFilesTest.bytes(4096, 1);
    SmallFilesTest.write(admin, p, data);
    List<String> ops = new CopyOnWriteArrayList<>();
    List<AccessCounts> costs = new CopyOnWriteArrayList<>();
    cluster
        .namenode()
        .namesystem()
        .runner()
        .observe(
            (op, counts) -> {
              if (Thread.currentThread().getName().startsWith("IPC Server handler")) {
                ops.add(op);
                costs.add(counts);
              }
            });
    try {
      for (int i = 0; i < 3; i++) {
        assertThat(readInline(admin, p)).isEqualTo(data);
      }
    } finally {
      cluster.namenode().namesystem().runner().observe((op, counts) -> {});
    }
    assertThat(ops).containsExactly("readSmallFile", "readSmallFile", "readSmallFile");
    // Warm hints, no lock: the path with the file in one batch, then the data row (4 KB: medium).
    AccessCounts last = costs.get(2);
    assertThat(last.get(AccessKind.BATCH, LockMode.READ_COMMITTED))
        .as(last.toString())
        .isEqualTo(1);
    assertThat(last.get(AccessKind.PK, LockMode.READ_COMMITTED)).as(last.toString()).isEqualTo(1);
    assertThat(last.total()).as(last.toString()).isEqualTo(2);
  }

  @Test
  void anInlineReadKeepsTheAccessTimeLikeGetBlockLocations() throws Exception {
    Path p = new Path("/u/atime");
    SmallFilesTest.write(admin, p, SmallFilesTest.bytes(10, 2));
    long before = stock.getFileStatus(p).getAccessTime();
    Thread.sleep(20);
    readInline(admin, p);
    long deadline = System.currentTimeMillis() + 20_000;
    while (stock.getFileStatus(p).getAccessTime() == before
        && System.currentTimeMillis() < deadline) {
      Thread.sleep(50);
    }
    assertThat(stock.getFileStatus(p).getAccessTime()).isGreaterThan(before);
  }
}
