package io.hops.namenode.tx;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.embedded.WalSyncFaults;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A client's mutation is answered only once its commit is on disk, whether the RPC handler waits
 * for the sync or postpones the response ({@link DurableResponse}); a failed sync fails the RPC and
 * every later mutation. The embedded store's log sync is held or failed by a {@link WalSyncFaults}
 * fault on this test's store only.
 */
class DurableResponseTest {
  private final ExecutorService pool = Executors.newCachedThreadPool();

  @AfterEach
  void clearFault() {
    WalSyncFaults.clear();
    pool.shutdownNow();
  }

  private static Configuration conf(String store, boolean deferred) {
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded"); // on this store, not a fresh one
    conf.set(HopsConfig.EMBEDDED_DIR, store);
    conf.setBoolean(NamenodeConfig.DEFERRED_RESPONSE, deferred);
    return conf;
  }

  @ParameterizedTest(name = "deferred response {0}")
  @ValueSource(booleans = {true, false})
  void aMutationIsAnsweredOnlyAfterTheLogSyncThatCoversIt(boolean deferred) throws Exception {
    String store = "mem:durable-response-" + System.nanoTime();
    try (HopsTestCluster cluster = new HopsTestCluster(conf(store, deferred))) {
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/warm"));
      CountDownLatch held = new CountDownLatch(1);
      CountDownLatch release = new CountDownLatch(1);
      WalSyncFaults.inject(
          s -> {
            if (s.equals(store)) {
              held.countDown();
              release.await();
            }
          });
      Future<Boolean> mkdirs = pool.submit(() -> fs.mkdirs(new Path("/held/a")));
      Future<Boolean> create =
          pool.submit(
              () -> {
                fs.create(new Path("/held/f")).close();
                return true;
              });
      assertTrue(held.await(30, TimeUnit.SECONDS), "the store never synced");
      // Committed and visible (as in HDFS, whose namespace runs ahead of its edit log), but not
      // acknowledged while the sync is held.
      assertThrows(TimeoutException.class, () -> mkdirs.get(1, TimeUnit.SECONDS));
      assertThrows(TimeoutException.class, () -> create.get(1, TimeUnit.SECONDS));
      assertFalse(mkdirs.isDone());
      release.countDown();
      assertTrue(mkdirs.get(30, TimeUnit.SECONDS));
      create.get(30, TimeUnit.SECONDS);
      assertTrue(fs.getFileStatus(new Path("/held/a")).isDirectory());
      assertTrue(fs.getFileStatus(new Path("/held/f")).isFile());
    }
  }

  @ParameterizedTest(name = "deferred response {0}")
  @ValueSource(booleans = {true, false})
  void aFailedLogSyncFailsTheRpcAndEveryLaterMutation(boolean deferred) throws Exception {
    String store = "mem:failed-sync-" + System.nanoTime();
    try (HopsTestCluster cluster = new HopsTestCluster(conf(store, deferred))) {
      DistributedFileSystem fs = cluster.client();
      fs.mkdirs(new Path("/before"));
      WalSyncFaults.inject(
          s -> {
            if (s.equals(store)) {
              // Fail after the handler has sent its part (see DurableResponse#respond).
              Thread.sleep(200);
              throw new IOException("injected fsync failure");
            }
          });
      IOException first = assertThrows(IOException.class, () -> fs.mkdirs(new Path("/lost")));
      assertTrue(
          String.valueOf(first.getMessage()).contains("sync"),
          "the error should say the log sync failed: " + first);
      WalSyncFaults.clear();
      // The disk may be fine again; the store is not: nothing more is acknowledged.
      DistributedFileSystem again = cluster.client();
      assertThrows(IOException.class, () -> again.mkdirs(new Path("/after")));
      assertThrows(IOException.class, () -> again.create(new Path("/after-file")).close());
      assertTrue(again.getFileStatus(new Path("/before")).isDirectory());
    }
  }
}
