package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class UsersAndGroupsTest {

  @Test
  void twoNamenodesRegisteringOneNewNameAtOnceAgreeOnItsId() throws Exception {
    DalConfig config = DalConfig.embeddedInMemory("users-" + System.nanoTime());
    try (Storage a = Storages.open(config);
        Storage b = Storages.open(config)) {
      a.schema().createOrUpgrade();
      ExecutorService pool = Executors.newFixedThreadPool(8);
      try {
        for (int round = 0; round < 20; round++) {
          String name = "newcomer-" + round;
          Set<Integer> ids = ConcurrentHashMap.newKeySet();
          List<Future<?>> calls = new ArrayList<>();
          for (int t = 0; t < 8; t++) {
            // A fresh directory per caller: nothing cached, as on separate namenodes.
            UsersAndGroups names = new UsersAndGroups(t % 2 == 0 ? a : b);
            calls.add(pool.submit(() -> ids.add(names.userId(name))));
          }
          for (Future<?> f : calls) {
            f.get(30, TimeUnit.SECONDS);
          }
          assertThat(ids).as("ids given to %s", name).hasSize(1);
          assertThat(new UsersAndGroups(b).userName(ids.iterator().next())).isEqualTo(name);
        }
      } finally {
        pool.shutdownNow();
      }
    }
  }
}
