package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * The caches of user and group names and of long names stay under their bounds in bytes while far
 * more names pass through them than they hold, and answer as a cache that keeps nothing (a second
 * directory over the same store with a bound of 0 bytes, every answer compared).
 */
class NameCachesBoundTest {
  private static final long NAMES_BOUND = 32 << 10;
  private static final long LONG_NAMES_BOUND = 48 << 10;

  @Test
  void userAndGroupNamesStayUnderTheirBoundAndAnswerAsUncached() throws Exception {
    try (Storage storage = open("names")) {
      UsersAndGroups bounded = new UsersAndGroups(storage, NAMES_BOUND, LONG_NAMES_BOUND);
      UsersAndGroups uncached = new UsersAndGroups(storage, 0, 0);
      List<String> users = new ArrayList<>();
      List<String> groups = new ArrayList<>();
      long most = 0;
      for (int i = 0; i < 2_000; i++) {
        String user = "svc-etl-" + i + "@EXAMPLE.COM";
        String group = "team-" + i;
        int u = bounded.userId(user);
        int g = bounded.groupId(group);
        assertThat(uncached.userId(user)).isEqualTo(u);
        assertThat(uncached.groupId(group)).isEqualTo(g);
        users.add(user);
        groups.add(group);
        most = Math.max(most, bounded.bytes());
      }
      Random random = new Random(59);
      for (int step = 0; step < 4_000; step++) {
        // Recent names mostly, as a workload's callers are: some answered from the cache.
        int i =
            random.nextBoolean()
                ? users.size() - 1 - random.nextInt(50)
                : random.nextInt(users.size());
        String user = users.get(i);
        String group = groups.get(i);
        int u = bounded.userId(user);
        int g = bounded.groupId(group);
        assertThat(u).isEqualTo(uncached.userId(user));
        assertThat(g).isEqualTo(uncached.groupId(group));
        assertThat(bounded.userName(u)).isEqualTo(user).isEqualTo(uncached.userName(u));
        assertThat(bounded.groupName(g)).isEqualTo(group).isEqualTo(uncached.groupName(g));
        int known = bounded.knownUserId(user);
        assertThat(known == -1 || known == u).as("known id of %s", user).isTrue();
        most = Math.max(most, bounded.bytes());
      }
      assertThat(most).isPositive().isLessThanOrEqualTo(NAMES_BOUND);
      assertThat(bounded.size()).isLessThan(users.size() + groups.size());
      assertThat(bounded.hits()).isPositive();
      assertThat(bounded.misses()).isPositive();
      assertThat(uncached.bytes()).isZero();
    }
  }

  @Test
  void longNamesStayUnderTheirBoundAndAnswerAsUncached() throws Exception {
    try (Storage storage = open("long-names")) {
      LongNames bounded = new LongNames(storage, LONG_NAMES_BOUND);
      LongNames uncached = new LongNames(storage, 0);
      List<String> keys = new ArrayList<>();
      List<String> names = new ArrayList<>();
      long most = 0;
      Random random = new Random(7);
      for (int i = 0; i < 300; i++) {
        // 4 to 12 KB each (over a key's 3,064 bytes), some not Latin-1: two bytes a character on
        // the heap.
        String piece = i % 3 == 0 ? "組-" + i + "-" : "kerberos-principal-" + i + "-";
        String name = piece.repeat(4_000 / piece.length() + random.nextInt(8_000 / piece.length()));
        String key = bounded.remember(name);
        assertThat(LongNames.isDigest(key)).isTrue();
        keys.add(key);
        names.add(name);
        most = Math.max(most, bounded.bytes());
      }
      for (int step = 0; step < 1_000; step++) {
        int i = random.nextBoolean() ? keys.size() - 1 - random.nextInt(3) : random.nextInt(300);
        String name = bounded.name(keys.get(i));
        assertThat(name).isEqualTo(names.get(i)).isEqualTo(uncached.name(keys.get(i)));
        most = Math.max(most, bounded.bytes());
      }
      assertThat(most).isPositive().isLessThanOrEqualTo(LONG_NAMES_BOUND);
      assertThat(bounded.size()).isLessThan(keys.size());
      assertThat(bounded.hits()).isPositive();
      assertThat(bounded.misses()).isPositive();
      assertThat(uncached.size()).isZero();
    }
  }

  private static Storage open(String name) throws Exception {
    Storage s = Storages.open(DalConfig.embeddedInMemory(name + "-" + System.nanoTime()));
    s.schema().createOrUpgrade();
    return s;
  }
}
