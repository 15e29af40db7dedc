package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.leases.LeaseManager;
import java.io.FileNotFoundException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.ipc.RemoteException;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Leases in the database: taken by create, their files dropped by complete, renewed, recovered by
 * another client, taken over past the soft limit, and released past the hard limit. A holder's open
 * files are its lease paths; its lease row only says when it last checked in, and stays after its
 * last file closes until the leader drops it past the hard limit.
 */
class LeaseTest {
  /** Short limits, so expiry is testable; clients renew only every 30 s on their own. */
  private static final long SOFT_LIMIT_MS = 300;

  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(LeaseManager.SOFT_LIMIT_MS, SOFT_LIMIT_MS);
    conf.setLong(DFSConfigKeys.DFS_LEASE_HARDLIMIT_KEY, 1);
    cluster = new HopsTestCluster(conf);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  private static LeaseRow lease(String holder) throws Exception {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED);
    }
  }

  private static List<LeasePathRow> leasePaths(String holder) throws Exception {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED);
    }
  }

  private static long fileId(String path) throws Exception {
    return fs.getClient().getFileInfo(path).getFileId();
  }

  /** A lease manager of its own, so that its page of leases starts at the first one. */
  private static LeaseManager freshLeaseManager() {
    var ns = cluster.namenode().namesystem();
    return new LeaseManager(ns.conf(), ns.blocks(), ns.runner());
  }

  private static void sleepPast(long millis) throws InterruptedException {
    Thread.sleep(millis + 100);
  }

  @Test
  void createTakesALeaseThatCountsItsFilesAndCloseDropsIt() throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      FSDataOutputStream a = c.create(new Path("/lease/count/a"));
      FSDataOutputStream b = c.create(new Path("/lease/count/b"));
      assertThat(leasePaths(holder)).hasSize(2);
      assertThat(leasePaths(holder))
          .extracting(LeasePathRow::path)
          .containsExactlyInAnyOrder("/lease/count/a", "/lease/count/b");
      a.close();
      assertThat(leasePaths(holder)).hasSize(1);
      assertThat(leasePaths(holder))
          .extracting(LeasePathRow::inodeId)
          .containsExactly(fileId("/lease/count/b"));
      b.close();
      assertThat(leasePaths(holder)).isEmpty();
      assertThat(leasePaths(holder)).isEmpty();
    }
  }

  @Test
  void concurrentCreatesAndClosesOfOneClientKeepTheLeaseCountExact() throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      List<Future<FSDataOutputStream>> stillOpen = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        for (int i = 0; i < 10; i++) {
          Path f = new Path("/lease/many/t" + t + "/f" + i);
          boolean close = i % 2 == 0;
          Future<FSDataOutputStream> out =
              pool.submit(
                  () -> {
                    FSDataOutputStream s = c.create(f);
                    if (close) {
                      s.close();
                      return null;
                    }
                    return s;
                  });
          if (!close) {
            stillOpen.add(out);
          }
        }
      }
      pool.shutdown();
      assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
      assertThat(leasePaths(holder)).hasSize(40);
      assertThat(leasePaths(holder)).hasSize(40);
      for (Future<FSDataOutputStream> out : stillOpen) {
        out.get().close();
      }
      assertThat(leasePaths(holder)).isEmpty();
    }
  }

  @Test
  void renewLeaseMovesLastUpdateAndIgnoresUnknownHolders() throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      FSDataOutputStream out = c.create(new Path("/lease/renew"));
      try {
        long before = lease(holder).lastUpdate();
        Thread.sleep(20);
        c.getClient().getNamenode().renewLease(holder, null);
        assertThat(lease(holder).lastUpdate()).isGreaterThan(before);
      } finally {
        out.close();
      }
      c.getClient().getNamenode().renewLease("DFSClient_nobody", null);
      assertThat(lease("DFSClient_nobody")).isNull();
    }
  }

  @Test
  void aSecondClientCreatingAFileBeingWrittenIsAlreadyBeingCreated() throws Exception {
    try (DistributedFileSystem writer = cluster.client();
        DistributedFileSystem other = cluster.client()) {
      Path f = new Path("/lease/busy");
      FSDataOutputStream out = writer.create(f);
      try {
        assertThatThrownBy(() -> other.create(f, false))
            .isInstanceOf(RemoteException.class)
            .satisfies(
                e ->
                    assertThat(((RemoteException) e).getClassName())
                        .isEqualTo(AlreadyBeingCreatedException.class.getName()))
            .hasMessageContaining(
                "because this file lease is currently owned by "
                    + writer.getClient().getClientName());
        assertThatThrownBy(() -> writer.create(f, false))
            .hasMessageContaining("is already the current lease holder");
      } finally {
        out.close();
      }
      assertThatThrownBy(() -> other.create(f, false))
          .isInstanceOf(FileAlreadyExistsException.class);
    }
  }

  @Test
  void overwriteOfAFileAnotherClientIsWritingReplacesItAndMovesTheLease() throws Exception {
    try (DistributedFileSystem writer = cluster.client();
        DistributedFileSystem other = cluster.client()) {
      String w = writer.getClient().getClientName();
      String o = other.getClient().getClientName();
      Path f = new Path("/lease/stolen");
      writer
          .getClient()
          .getNamenode()
          .create(
              "/lease/stolen",
              org.apache.hadoop.fs.permission.FsPermission.getFileDefault(),
              w,
              new org.apache.hadoop.io.EnumSetWritable<>(
                  java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE)),
              true,
              (short) 1,
              1024 * 1024,
              CryptoProtocolVersion.supported(),
              null,
              null);
      assertThat(leasePaths(w)).hasSize(1);
      FSDataOutputStream out = other.create(f, true);
      try {
        assertThat(leasePaths(w)).isEmpty();
        assertThat(leasePaths(o)).hasSize(1);
      } finally {
        out.close();
      }
      assertThat(leasePaths(o)).isEmpty();
    }
  }

  @Test
  void theWriterOverwritingItsOwnOpenFileKeepsOneLeasePath() throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      FSDataOutputStream first = c.create(new Path("/lease/own"));
      long firstId = fileId("/lease/own");
      FSDataOutputStream second = c.create(new Path("/lease/own"), true);
      try {
        assertThat(leasePaths(holder)).hasSize(1);
        assertThat(leasePaths(holder))
            .extracting(LeasePathRow::inodeId)
            .containsExactly(fileId("/lease/own"))
            .doesNotContain(firstId);
      } finally {
        second.close();
      }
      assertThat(leasePaths(holder)).isEmpty();
      // The first stream's file is gone: its close fails as in HDFS.
      assertThatThrownBy(first::close)
          .isInstanceOf(RemoteException.class)
          .hasMessageContaining("File does not exist: /lease/own");
    }
  }

  @Test
  void recoverLeaseClosesAFileItsWriterLeftOpen() throws Exception {
    DistributedFileSystem writer = cluster.client();
    String holder = writer.getClient().getClientName();
    Path f = new Path("/lease/abandoned");
    FSDataOutputStream neverClosed = writer.create(f);
    assertThat(neverClosed).isNotNull();
    try (DistributedFileSystem other = cluster.client()) {
      assertThat(other.isFileClosed(f)).isFalse();
      assertThat(other.recoverLease(f)).isTrue();
      assertThat(other.isFileClosed(f)).isTrue();
      assertThat(leasePaths(holder)).isEmpty();
      assertThat(other.recoverLease(f)).as("a closed file").isTrue();
      assertThatThrownBy(() -> other.recoverLease(new Path("/lease/none")))
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("File does not exist: /lease/none");
      other.mkdirs(new Path("/lease/dir"));
      assertThatThrownBy(() -> other.recoverLease(new Path("/lease/dir")))
          .isInstanceOf(FileNotFoundException.class)
          .hasMessageContaining("Path is not a file: /lease/dir");
    }
    // The writer's late close is taken as a retry of a complete that succeeded, as in HDFS.
    neverClosed.close();
    writer.close();
  }

  @Test
  void pastTheSoftLimitAnotherClientsCreateClosesTheFileAndFindsItExists() throws Exception {
    try (DistributedFileSystem writer = cluster.client();
        DistributedFileSystem other = cluster.client()) {
      Path f = new Path("/lease/soft");
      FSDataOutputStream out = writer.create(f);
      sleepPast(SOFT_LIMIT_MS);
      assertThatThrownBy(() -> other.create(f, false))
          .isInstanceOf(FileAlreadyExistsException.class);
      assertThat(other.isFileClosed(f)).as("closed by the takeover").isTrue();
      assertThat(leasePaths(writer.getClient().getClientName())).isEmpty();
      out.close();
    }
  }

  @Test
  void pastTheHardLimitHousekeepingClosesTheFilesOfTheExpiredLease() throws Exception {
    try (DistributedFileSystem writer = cluster.client()) {
      String holder = writer.getClient().getClientName();
      FSDataOutputStream a = writer.create(new Path("/lease/hard/a"));
      FSDataOutputStream b = writer.create(new Path("/lease/hard/b"));
      LeaseManager manager = freshLeaseManager();
      sleepPast(1000);
      assertThat(manager.releaseExpiredLeases()).isGreaterThanOrEqualTo(2);
      assertThat(writer.isFileClosed(new Path("/lease/hard/a"))).isTrue();
      assertThat(writer.isFileClosed(new Path("/lease/hard/b"))).isTrue();
      assertThat(lease(holder)).as("dropped with its last file").isNull();
      assertThat(leasePaths(holder)).isEmpty();
      a.close();
      b.close();
    }
  }

  @Test
  void aLeaseLeftWithoutFilesStaysUntilTheLeaderDropsItPastTheHardLimit() throws Exception {
    try (DistributedFileSystem c = cluster.client()) {
      String holder = c.getClient().getClientName();
      c.create(new Path("/lease/empty/f")).close();
      assertThat(leasePaths(holder)).isEmpty();
      assertThat(lease(holder)).as("a close does not touch the lease row").isNotNull();
      LeaseManager manager = freshLeaseManager();
      sleepPast(1000);
      for (int round = 0; round < 20 && lease(holder) != null; round++) {
        manager.releaseExpiredLeases(); // a page of leases a round
      }
      assertThat(lease(holder)).isNull();
    }
  }

  @Test
  void aRefusedCloseNamesTheCallersOpenFilesAsPendingCreates() throws Exception {
    try (DistributedFileSystem writer = cluster.client();
        DistributedFileSystem other = cluster.client()) {
      String o = other.getClient().getClientName();
      FSDataOutputStream w = writer.create(new Path("/lease/pending/w"));
      FSDataOutputStream o1 = other.create(new Path("/lease/pending/o1"));
      FSDataOutputStream o2 = other.create(new Path("/lease/pending/o2"));
      long id = fileId("/lease/pending/w");
      assertThatThrownBy(
              () -> other.getClient().getNamenode().complete("/lease/pending/w", o, null, id))
          .hasMessageContaining("[Lease.  Holder: " + o + ", pending creates: 2]");
      o1.close();
      o2.close();
      assertThatThrownBy(
              () -> other.getClient().getNamenode().complete("/lease/pending/w", o, null, id))
          .hasMessageContaining("Holder " + o + " does not have any open files.");
      w.close();
    }
  }
}
