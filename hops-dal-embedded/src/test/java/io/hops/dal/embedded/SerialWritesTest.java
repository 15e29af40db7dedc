package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Deferred commits (the RPC handlers' kind) from many threads, entering RocksDB one at a time or
 * grouped by RocksDB ({@link HopsConfig#EMBEDDED_SERIAL_WRITES}): every commit lands, a row updated
 * by all of them under its exclusive lock counts every update, and a reopened store has them all.
 */
class SerialWritesTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final int THREADS = 8;
  private static final int COMMITS = 150;

  @TempDir Path dir;

  @ParameterizedTest
  @ValueSource(booleans = {true, false})
  void concurrentDeferredCommitsAllLand(boolean serial) throws Exception {
    InodeRow counter = SampleRows.with(T, SampleRows.typical(T, 1), "size", 0L);
    Key counterKey = T.keyOf(counter);
    try (Storage s = open(serial)) {
      try (Transaction tx = s.begin()) {
        tx.insert(T, counter);
        tx.commit();
      }
      ExecutorService pool = Executors.newFixedThreadPool(THREADS);
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < COMMITS; i++) {
                    try (Transaction tx = s.begin()) {
                      InodeRow c = tx.find(T, counterKey, LockMode.EXCLUSIVE);
                      tx.update(T, SampleRows.with(T, c, "size", c.size() + 1));
                      tx.insert(T, SampleRows.typical(T, 1000 + thread * COMMITS + i));
                      CompletionStage<Void> durable = tx.commitDeferred();
                      durable.toCompletableFuture().get(30, TimeUnit.SECONDS);
                    }
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get(120, TimeUnit.SECONDS);
      }
      pool.shutdown();
    }
    try (Storage s = open(serial);
        Transaction tx = s.begin()) {
      assertThat(tx.find(T, counterKey, LockMode.READ_COMMITTED).size())
          .isEqualTo((long) THREADS * COMMITS);
      for (int k = 1000; k < 1000 + THREADS * COMMITS; k++) {
        assertThat(tx.find(T, T.keyOf(SampleRows.typical(T, k)), LockMode.READ_COMMITTED))
            .isNotNull();
      }
      tx.commit();
    }
  }

  private Storage open(boolean serial) throws Exception {
    Storage s =
        Storages.open(
            DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, dir.toString()))
                .with(HopsConfig.EMBEDDED_SERIAL_WRITES, serial));
    s.schema().createOrUpgrade();
    return s;
  }
}
