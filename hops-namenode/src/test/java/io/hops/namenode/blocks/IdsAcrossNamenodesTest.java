package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.StorageRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Ids that several namenodes hand out over one store stay unique: a datanode storage gets one id
 * however many namenodes see it first at once, and generation stamps never repeat.
 */
class IdsAcrossNamenodesTest {
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage =
        Storages.open(
            DalConfig.of(
                Map.of(
                    HopsConfig.METADATA_ENGINE,
                    "embedded",
                    HopsConfig.EMBEDDED_DIR,
                    "mem:ids-" + System.nanoTime())));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void namenodesRacingOnAStoragesFirstHeartbeatGiveItOneId() throws Exception {
    List<DatanodeManager> namenodes = new ArrayList<>();
    for (int i = 0; i < 3; i++) {
      namenodes.add(new DatanodeManager(storage, new Configuration(false)));
    }
    ExecutorService pool = Executors.newFixedThreadPool(6);
    Map<String, Set<Integer>> ids = new ConcurrentHashMap<>();
    try {
      for (int round = 0; round < 30; round++) {
        String uuid = "DS-" + round + "-" + System.nanoTime();
        CountDownLatch go = new CountDownLatch(1);
        List<Future<?>> calls = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          DatanodeManager nn = namenodes.get(t % namenodes.size());
          calls.add(
              pool.submit(
                  () -> {
                    go.await();
                    int id = nn.storageRef(uuid, "dn-" + uuid, StorageType.DISK).id();
                    ids.computeIfAbsent(uuid, u -> ConcurrentHashMap.newKeySet()).add(id);
                    return null;
                  }));
        }
        go.countDown();
        for (Future<?> f : calls) {
          f.get();
        }
      }
    } finally {
      pool.shutdownNow();
    }
    for (Map.Entry<String, Set<Integer>> e : ids.entrySet()) {
      assertThat(e.getValue()).as("ids of storage %s", e.getKey()).hasSize(1);
      try (Transaction tx = storage.begin()) {
        assertThat(
                tx.findByIndex(
                    StorageRow.TABLE, "storage_uuid", e.getKey(), LockMode.READ_COMMITTED))
            .as("rows of storage %s", e.getKey())
            .hasSize(1);
      }
    }
  }

  @Test
  void aStampAboveAnotherNamenodesStampIsNotOneThatNamenodeWillHandOut() throws Exception {
    BlockManager a = new BlockManager(storage, new Configuration(false));
    BlockManager b = new BlockManager(storage, new Configuration(false));
    Set<Long> stamps = new HashSet<>();
    stamps.add(a.newGenerationStamp(0)); // a's range comes first
    long fromB = b.newGenerationStamp(0); // b's range is above all of a's
    stamps.add(fromB);
    // A pipeline update on a, of a block whose stamp came from b: it must exceed b's stamp
    // without taking one that b will hand out next.
    long bumped = a.newGenerationStamp(fromB);
    assertThat(bumped).isGreaterThan(fromB);
    assertThat(stamps.add(bumped)).isTrue();
    for (int i = 0; i < 50; i++) {
      assertThat(stamps.add(b.newGenerationStamp(0))).as("stamp from b repeats one").isTrue();
      assertThat(stamps.add(a.newGenerationStamp(0))).as("stamp from a repeats one").isTrue();
    }
  }
}
