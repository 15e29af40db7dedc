package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.resolve.MutableInode;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** {@code getContentSummary} (FsShell -count) through the stock client; bound 20 inodes. */
class ContentSummaryTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static Storage storage;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, 20);
    cluster = new HopsTestCluster(conf);
    fs = cluster.client();
    storage = cluster.namenode().namesystem().storage();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  private static Path p(String path) {
    return new Path(path);
  }

  /** A closed file of {@code length} bytes (written straight to the store: no datanodes here). */
  private static void file(String path, long length, short replication) throws IOException {
    fs.create(p(path), replication).close();
    long id = fs.getClient().getFileInfo(path).getFileId();
    try (Transaction tx = storage.begin()) {
      MutableInode m =
          MutableInode.of(tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.EXCLUSIVE).get(0));
      m.size = length;
      tx.update(InodeRow.TABLE, m.toRow());
      tx.commit();
    }
  }

  @Test
  void summaryCountsLengthFilesDirectoriesAndSpace() throws Exception {
    fs.mkdirs(p("/cs/t/a/b"));
    fs.mkdirs(p("/cs/t/empty"));
    file("/cs/t/f1", 100, (short) 3);
    file("/cs/t/a/f2", 10, (short) 2);
    file("/cs/t/a/b/f3", 0, (short) 1);

    ContentSummary cs = fs.getContentSummary(p("/cs/t"));
    assertThat(cs.getLength()).isEqualTo(110);
    assertThat(cs.getFileCount()).isEqualTo(3);
    assertThat(cs.getDirectoryCount()).as("t, a, b, empty").isEqualTo(4);
    assertThat(cs.getSpaceConsumed()).isEqualTo(100 * 3 + 10 * 2);
    assertThat(cs.getQuota()).isEqualTo(-1);
    assertThat(cs.getSpaceQuota()).isEqualTo(-1);
    assertThat(cs.getErasureCodingPolicy()).isEmpty();

    ContentSummary file = fs.getContentSummary(p("/cs/t/f1"));
    assertThat(file.getLength()).isEqualTo(100);
    assertThat(file.getFileCount()).isEqualTo(1);
    assertThat(file.getDirectoryCount()).isZero();
    assertThat(file.getErasureCodingPolicy()).isEqualTo("Replicated");

    ContentSummary empty = fs.getContentSummary(p("/cs/t/empty"));
    assertThat(empty.getDirectoryCount()).isEqualTo(1);
    assertThat(empty.getFileCount()).isZero();
  }

  /** Holds the exclusive lock of the inode at {@code path}, as a writer's transaction would. */
  private static Transaction holdExclusively(String path) throws Exception {
    long id = fs.getClient().getFileInfo(path).getFileId();
    Transaction tx = storage.begin();
    tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.EXCLUSIVE);
    return tx;
  }

  private static CompletableFuture<ContentSummary> summaryOf(String path) {
    return CompletableFuture.supplyAsync(
        () -> {
          try {
            return fs.getContentSummary(p(path));
          } catch (IOException e) {
            throw new UncheckedIOException(e);
          }
        });
  }

  @Test
  void aFileAWriterHoldsDoesNotHoldUpTheSummary() throws Exception {
    fs.mkdirs(p("/csw/d/sub"));
    file("/csw/d/f", 7, (short) 1);
    file("/csw/d/sub/g", 5, (short) 1);
    // Files are read committed: the summary neither waits for the file's writer (the lock wait
    // is 10 s) nor takes a lock of its own on it.
    try (Transaction writer = holdExclusively("/csw/d/f")) {
      ContentSummary cs = summaryOf("/csw").get(5, TimeUnit.SECONDS);
      assertThat(cs.getFileCount()).isEqualTo(2);
      assertThat(cs.getDirectoryCount()).as("csw, d, sub").isEqualTo(3);
      assertThat(cs.getLength()).isEqualTo(12);
    }
  }

  @Test
  void aDirectoryAWriterHoldsHoldsUpTheSummaryUntilItEnds() throws Exception {
    fs.mkdirs(p("/csv/d/sub"));
    file("/csv/d/sub/g", 5, (short) 1);
    CompletableFuture<ContentSummary> summary;
    try (Transaction writer = holdExclusively("/csv/d/sub")) {
      // Directories are locked shared: their children cannot change while they are counted.
      summary = summaryOf("/csv");
      Thread.sleep(500);
      assertThat(summary).isNotDone();
    }
    ContentSummary cs = summary.get(10, TimeUnit.SECONDS);
    assertThat(cs.getFileCount()).isEqualTo(1);
    assertThat(cs.getDirectoryCount()).isEqualTo(3);
  }

  @Test
  void summaryOfTheRootCountsEverythingThroughTheParentIndex() throws Exception {
    try (HopsTestCluster own = new HopsTestCluster();
        DistributedFileSystem c = own.client()) {
      c.mkdirs(p("/r1/a"));
      c.mkdirs(p("/r2"));
      c.create(p("/r2/f")).close();
      c.create(p("/top")).close();
      ContentSummary cs = c.getContentSummary(p("/"));
      assertThat(cs.getDirectoryCount()).as("/, r1, r1/a, r2").isEqualTo(4);
      assertThat(cs.getFileCount()).isEqualTo(2);
    }
  }

  @Test
  void quotasComeFromTheQuotaRow() throws Exception {
    fs.mkdirs(p("/csq"));
    long id = fs.getClient().getFileInfo("/csq").getFileId();
    try (Transaction tx = storage.begin()) {
      MutableInode m =
          MutableInode.of(tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.EXCLUSIVE).get(0));
      m.hasQuota = true;
      tx.update(InodeRow.TABLE, m.toRow());
      tx.insert(QuotaRow.TABLE, new QuotaRow(id, 100, 1 << 30, 1, 0));
      tx.commit();
    }
    ContentSummary cs = fs.getContentSummary(p("/csq"));
    assertThat(cs.getQuota()).isEqualTo(100);
    assertThat(cs.getSpaceQuota()).isEqualTo(1 << 30);
  }

  @Test
  void summaryOfAMissingPathIsFileNotFound() {
    assertThatThrownBy(() -> fs.getContentSummary(p("/cs-missing")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("File does not exist: /cs-missing");
  }

  @Test
  void summaryOverTheBoundIsCountedInManyTransactions() throws Exception {
    for (int i = 0; i < 20; i++) {
      fs.mkdirs(p("/csbig/d" + i));
    }
    fs.create(p("/csbig/d3/f")).close();
    try (var out = fs.create(p("/csbig/d7/g"))) {
      out.write(new byte[0]);
    }
    ContentSummary cs = fs.getContentSummary(p("/csbig"));
    assertThat(cs.getDirectoryCount()).isEqualTo(21);
    assertThat(cs.getFileCount()).isEqualTo(2);
    assertThat(cs.getLength()).isZero();
  }

  /**
   * The store keeps a directory's count between summaries: every change of its children shows in
   * the next summary, in one transaction (a small tree) and past the bound (30 files).
   */
  @Test
  void aSummaryFollowsEveryChangeOfTheDirectoriesItCounts() throws Exception {
    for (String root : new String[] {"/csfollow-small", "/csfollow-big"}) {
      int n = root.endsWith("big") ? 30 : 5;
      for (int i = 0; i < n; i++) {
        file(root + "/d/f" + i, 10, (short) 2);
      }
      fs.mkdirs(p(root + "/d/sub"));
      assertSummary(root, 2, n, 10L * n, 20L * n);
      assertSummary(root, 2, n, 10L * n, 20L * n); // again: from what the store kept

      file(root + "/d/f0", 1000, (short) 2); // f0's length changed: 1000, not 10
      assertSummary(root, 2, n, 10L * n + 990, 20L * n + 1980);
      fs.setReplication(p(root + "/d/f0"), (short) 3);
      assertSummary(root, 2, n, 10L * n + 990, 20L * n + 2980);
      assertThat(fs.delete(p(root + "/d/f1"), false)).isTrue();
      assertSummary(root, 2, n - 1, 10L * n + 980, 20L * n + 2960);
      assertThat(fs.rename(p(root + "/d/f2"), p(root + "/d/sub/f2"))).isTrue();
      assertSummary(root, 2, n - 1, 10L * n + 980, 20L * n + 2960);
      assertSummary(root + "/d/sub", 0, 1, 10, 20);
      assertThat(fs.rename(p(root + "/d/f3"), p("/csfollow-out-" + n))).isTrue();
      assertSummary(root, 2, n - 2, 10L * n + 970, 20L * n + 2940);
      fs.mkdirs(p(root + "/d/sub/deeper"));
      assertSummary(root, 3, n - 2, 10L * n + 970, 20L * n + 2940);
    }
  }

  /** {@code dirs} directories below {@code root} (which counts too), files, length and space. */
  private static void assertSummary(String root, int dirs, int files, long length, long space)
      throws IOException {
    ContentSummary cs = fs.getContentSummary(p(root));
    assertThat(cs.getDirectoryCount()).as("directories of %s", root).isEqualTo(dirs + 1);
    assertThat(cs.getFileCount()).as("files of %s", root).isEqualTo(files);
    assertThat(cs.getLength()).as("length of %s", root).isEqualTo(length);
    assertThat(cs.getSpaceConsumed()).as("space of %s", root).isEqualTo(space);
  }

  @Test
  void everyDirectoryNeedsReadAndExecute() throws Exception {
    fs.mkdirs(p("/csperm/open/closed"));
    fs.setPermission(p("/csperm/open/closed"), new FsPermission((short) 0700));
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    try (FileSystem afs =
        alice.doAs(
            (java.security.PrivilegedExceptionAction<FileSystem>)
                () -> FileSystem.get(cluster.uri(), cluster.clientConf()))) {
      assertThatThrownBy(() -> afs.getContentSummary(p("/csperm/open")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("access=READ_EXECUTE")
          .hasMessageContaining("/csperm/open/closed");
    }
  }

  @Test
  void fsShellCountPrintsTheSummary() throws Exception {
    fs.mkdirs(p("/cscount/d"));
    file("/cscount/d/f", 42, (short) 1);
    FsShell shell = new FsShell(cluster.clientConf());
    ThreadConsole.Captured c;
    try {
      c = ThreadConsole.capture(() -> shell.run(new String[] {"-count", "/cscount"}));
    } finally {
      shell.close();
    }
    assertThat(c.exit()).isZero();
    // DIR_COUNT FILE_COUNT CONTENT_SIZE PATHNAME
    assertThat(c.out().trim().split("\\s+")).containsExactly("2", "1", "42", "/cscount");
  }
}
