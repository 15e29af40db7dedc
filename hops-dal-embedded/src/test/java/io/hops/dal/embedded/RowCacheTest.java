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
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded store's row cache is written through by every commit and never hands out a row older
 * than the last commit to a locked read: not under racing readers that fill it, not across its
 * generations (a tiny capacity makes it start over all the time), not after a schema-wide write.
 * Rows with byte columns are never shared; a variable without bytes is.
 */
class RowCacheTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private Storage storage;

  private void open(int cachedRows) throws Exception {
    storage =
        Storages.open(
            DalConfig.embeddedInMemory("row-cache-" + UUID.randomUUID())
                .with(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, cachedRows));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    if (storage != null) {
      storage.close();
    }
  }

  @Test
  void aReadSeesTheLastCommitIncludingADeleteAndAReinsert() throws Exception {
    open(1000);
    InodeRow row = SampleRows.typical(T, 1);
    Key key = T.keyOf(row);
    assertThat(read(key, LockMode.READ_COMMITTED)).isNull(); // caches the absence
    commit(tx -> tx.insert(T, row));
    assertThat(read(key, LockMode.READ_COMMITTED)).isEqualTo(row);
    InodeRow bigger = SampleRows.with(T, row, "size", 4242L);
    commit(tx -> tx.update(T, bigger));
    assertThat(read(key, LockMode.SHARED)).isEqualTo(bigger);
    assertThat(batch(List.of(key))).containsExactly(bigger);
    commit(tx -> tx.delete(T, key));
    assertThat(read(key, LockMode.EXCLUSIVE)).isNull();
    assertThat(batch(List.of(key))).containsExactly((InodeRow) null);
    commit(tx -> tx.insert(T, row));
    assertThat(read(key, LockMode.READ_COMMITTED)).isEqualTo(row);
  }

  @Test
  void aRolledBackWriteLeavesNoTrace() throws Exception {
    open(1000);
    InodeRow row = SampleRows.typical(T, 2);
    commit(tx -> tx.insert(T, row));
    assertThat(read(T.keyOf(row), LockMode.READ_COMMITTED)).isEqualTo(row);
    try (Transaction tx = storage.begin()) {
      tx.update(T, SampleRows.with(T, row, "size", 1L));
      tx.rollback();
    }
    assertThat(read(T.keyOf(row), LockMode.SHARED)).isEqualTo(row);
  }

  @Test
  void clearingEveryTableEmptiesTheCacheToo() throws Exception {
    open(1000);
    InodeRow row = SampleRows.typical(T, 3);
    commit(tx -> tx.insert(T, row));
    assertThat(read(T.keyOf(row), LockMode.READ_COMMITTED)).isEqualTo(row);
    storage.schema().clearAll();
    assertThat(read(T.keyOf(row), LockMode.READ_COMMITTED)).isNull();
  }

  @Test
  void bytesHandedOutAreNotTheCachesOwn() throws Exception {
    open(1000);
    VariableRow v = new VariableRow("blob", 1, new byte[] {1, 2, 3});
    Key key = VariableRow.TABLE.keyOf(v);
    commit(tx -> tx.insert(VariableRow.TABLE, v));
    try (Transaction tx = storage.begin()) {
      tx.find(VariableRow.TABLE, key, LockMode.READ_COMMITTED).bytesValue()[0] = 9;
    }
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(VariableRow.TABLE, key, LockMode.READ_COMMITTED).bytesValue())
          .containsExactly(1, 2, 3);
    }
  }

  /**
   * One commit of a row with bytes and one without: the cache gets the second, and for the first
   * only a mark that sends its reads to the store.
   */
  @Test
  void aCommitOfRowsWithAndWithoutBytesCachesOnlyThoseWithout() throws Exception {
    open(1000);
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    InodeRow row = SampleRows.typical(T, 3);
    VariableRow v = new VariableRow("mixed", 1, new byte[] {1, 2, 3});
    commit(
        tx -> {
          tx.insert(VariableRow.TABLE, v);
          tx.insert(T, row);
        });
    assertThat(cache.current().get(cacheKey(row))).isEqualTo(row);
    assertThat(cache.current().get(variableKey(v))).isSameAs(RowCache.UNSHARED);
    assertThat(cache.entries()).isEqualTo(2);
  }

  /**
   * A variable whose bytes are null (the {@code safe_mode} row every write reads) is read from the
   * cache; once it holds bytes it is read from the store, and handed out as a copy of its own; and
   * once its bytes are null again it is cached again.
   */
  @Test
  void aVariableIsCachedWhileItHoldsNoBytes() throws Exception {
    open(1000);
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    VariableRow off = new VariableRow("flag", 0, null);
    Key key = VariableRow.TABLE.keyOf(off);
    commit(tx -> tx.insert(VariableRow.TABLE, off));
    assertThat(cache.current().get(variableKey(off))).isEqualTo(off);
    long hits = cache.stats().hits();
    assertThat(readVariable(key, LockMode.SHARED)).isEqualTo(off);
    assertThat(cache.stats().hits()).isEqualTo(hits + 1);

    VariableRow tip = new VariableRow("flag", 1, new byte[] {1, 2, 3});
    commit(tx -> tx.update(VariableRow.TABLE, tip));
    assertThat(cache.current().get(variableKey(off))).isSameAs(RowCache.UNSHARED);
    VariableRow read = readVariable(key, LockMode.SHARED);
    assertThat(read.longValue()).isEqualTo(1);
    read.bytesValue()[0] = 9;
    assertThat(readVariable(key, LockMode.READ_COMMITTED).bytesValue()).containsExactly(1, 2, 3);
    assertThat(cache.current().get(variableKey(off))).isSameAs(RowCache.UNSHARED);

    VariableRow on = new VariableRow("flag", 1, null);
    commit(tx -> tx.update(VariableRow.TABLE, on));
    assertThat(readVariable(key, LockMode.SHARED)).isEqualTo(on);
    assertThat(cache.current().get(variableKey(off))).isEqualTo(on);
    cache.clear();
    assertThat(readVariable(key, LockMode.READ_COMMITTED)).isEqualTo(on); // filled from the store
    assertThat(cache.current().get(variableKey(off))).isEqualTo(on);
  }

  /**
   * The cache's race with a variable: a read fetches it without bytes, a commit gives it bytes
   * before that read adds what it fetched. The late read must not put the old row back.
   */
  @Test
  void aReadThatFetchedAVariableBeforeItGotBytesDoesNotPutItBack() throws Exception {
    open(1000);
    VariableRow off = new VariableRow("flag", 0, null);
    Key key = VariableRow.TABLE.keyOf(off);
    commit(tx -> tx.insert(VariableRow.TABLE, off));
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    cache.clear();
    VariableRow tip = new VariableRow("flag", 1, new byte[] {7});
    VariableRow slowRead =
        readRacing(
            cache,
            () -> readVariable(key, LockMode.READ_COMMITTED),
            tx -> tx.update(VariableRow.TABLE, tip));
    assertThat(slowRead).isEqualTo(off); // it read before the commit
    assertThat(cache.current().get(variableKey(off))).isSameAs(RowCache.UNSHARED);
    VariableRow now = readVariable(key, LockMode.SHARED);
    assertThat(now.longValue()).isEqualTo(1);
    assertThat(now.bytesValue()).containsExactly(7);
  }

  private static KeyBytes variableKey(VariableRow v) {
    return new KeyBytes(StoredTable.of(VariableRow.TABLE).rowKey(v));
  }

  private VariableRow readVariable(Key key, LockMode mode) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(VariableRow.TABLE, key, mode);
    }
  }

  /**
   * A transaction that reads once (a block report's bulk apply) reads from the store: it neither
   * looks the cache up nor leaves what it read there, and sees every commit; its own commit
   * replaces the rows the cache holds and adds no other.
   */
  @Test
  void aTransactionThatReadsOnceKeepsNothingInTheCacheAndSeesEveryCommit() throws Exception {
    open(1000);
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    InodeRow a = SampleRows.typical(T, 11);
    InodeRow b = SampleRows.typical(T, 12);
    commit(tx -> tx.insert(T, a));
    InodeRow newer = SampleRows.with(T, a, "size", 77L);
    commit(tx -> tx.update(T, newer)); // in the cache now
    int entries = cache.entries();
    long lookups = cache.stats().hits() + cache.stats().misses();
    try (Transaction tx = storage.begin()) {
      tx.readOnce();
      assertThat(tx.find(T, T.keyOf(b), LockMode.READ_COMMITTED)).isNull();
      assertThat(tx.findBatch(T, List.of(T.keyOf(a), T.keyOf(b)), LockMode.EXCLUSIVE))
          .containsExactly(newer, null);
      assertThat(cache.entries()).as("nothing read was kept").isEqualTo(entries);
      assertThat(cache.stats().hits() + cache.stats().misses())
          .as("the cache was not looked up")
          .isEqualTo(lookups);
      InodeRow newest = SampleRows.with(T, a, "size", 78L);
      tx.update(T, newest);
      tx.insert(T, b);
      tx.commit();
      assertThat(cache.current().get(cacheKey(a))).as("a cached row replaced").isEqualTo(newest);
      assertThat(cache.current().get(cacheKey(b))).as("no row added").isNull();
    }
    assertThat(read(T.keyOf(b), LockMode.SHARED)).isEqualTo(b);
  }

  /**
   * The race a commit that adds no row runs against: a read fetched the old row from the store, the
   * commit wrote the new one past the cache (nothing there to replace), then the read adds what it
   * fetched. The read must take it back.
   */
  @Test
  void aReadThatFetchedBeforeACommitPastTheCacheKeepsNothing() throws Exception {
    open(1000);
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    InodeRow row = SampleRows.with(T, SampleRows.typical(T, 13), "size", 1L);
    Key key = T.keyOf(row);
    commit(tx -> tx.insert(T, row));
    cache.clear(); // the row is in the store only
    InodeRow newer = SampleRows.with(T, row, "size", 2L);
    cache.beforeFill =
        () -> {
          cache.beforeFill = () -> {};
          try (Transaction tx = storage.begin()) {
            tx.readOnce();
            tx.find(T, key, LockMode.EXCLUSIVE);
            tx.update(T, newer);
            tx.commit();
          } catch (Exception e) {
            throw new IllegalStateException(e);
          }
        };
    try {
      assertThat(read(key, LockMode.READ_COMMITTED)).isEqualTo(row); // fetched before the commit
    } finally {
      cache.beforeFill = () -> {};
    }
    assertThat(cache.current().get(cacheKey(row))).as("the old row not kept").isNull();
    assertThat(read(key, LockMode.READ_COMMITTED)).isEqualTo(newer);
  }

  private static KeyBytes cacheKey(InodeRow row) {
    return new KeyBytes(StoredTable.of(T).rowKey(T.keyOf(row)));
  }

  /**
   * The race the cache is built against, made to happen: a read fetches the old row from the store,
   * a commit writes the new one (store and cache) before that read adds what it fetched. The late
   * read must not put the old row back.
   */
  @Test
  void aReadThatFetchedBeforeACommitDoesNotPutTheOldRowBack() throws Exception {
    open(1000);
    InodeRow row = SampleRows.with(T, SampleRows.typical(T, 4), "size", 1L);
    Key key = T.keyOf(row);
    commit(tx -> tx.insert(T, row));
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    cache.clear(); // the insert's row is cached: make the next read go to the store
    InodeRow newer = SampleRows.with(T, row, "size", 2L);
    InodeRow slowRead =
        readRacing(cache, () -> read(key, LockMode.READ_COMMITTED), tx -> tx.update(T, newer));
    assertThat(slowRead).isEqualTo(row); // it read before the commit
    assertThat(read(key, LockMode.SHARED)).isEqualTo(newer);
    assertThat(batch(List.of(key))).containsExactly(newer);
  }

  /**
   * The same race with a delete, which leaves no entry behind: the late read must not put the
   * deleted row back.
   */
  @Test
  void aReadThatFetchedBeforeADeleteDoesNotPutTheRowBack() throws Exception {
    open(1000);
    InodeRow row = SampleRows.typical(T, 5);
    Key key = T.keyOf(row);
    commit(tx -> tx.insert(T, row));
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    cache.clear();
    InodeRow slowRead =
        readRacing(cache, () -> read(key, LockMode.READ_COMMITTED), tx -> tx.delete(T, key));
    assertThat(slowRead).isEqualTo(row); // it read before the delete
    assertThat(cache.current().get(cacheKey(row)))
        .as("the deleted row not put back")
        .isNotEqualTo(row);
    assertThat(read(key, LockMode.SHARED)).isNull();
    assertThat(batch(List.of(key))).containsExactly((InodeRow) null);
  }

  /**
   * Files created and deleted (as 16 clients in one directory do) leave no entries: the cache does
   * not grow with the deleted rows, and the rows in use stay cached rather than turning over with
   * them.
   */
  @Test
  void createdAndDeletedRowsLeaveNoEntries() throws Exception {
    open(1000);
    RowCache cache = ((EmbeddedStorage) storage).store().rows();
    InodeRow hot = SampleRows.typical(T, 1);
    commit(tx -> tx.insert(T, hot));
    RowCache.Generation first = cache.current();
    for (long id = 100; id < 3_100; id++) {
      InodeRow file = SampleRows.with(T, SampleRows.typical(T, id), "parent_id", 1L);
      commit(tx -> tx.insert(T, file));
      assertThat(read(T.keyOf(file), LockMode.READ_COMMITTED)).isEqualTo(file);
      commit(tx -> tx.delete(T, T.keyOf(file)));
      assertThat(read(T.keyOf(hot), LockMode.READ_COMMITTED)).isEqualTo(hot);
    }
    assertThat(cache.entries()).isLessThanOrEqualTo(1);
    assertThat(cache.current()).as("no new generation").isSameAs(first);
    assertThat(cache.current().get(cacheKey(hot))).isEqualTo(hot);
    assertThat(cache.bytes()).isEqualTo(RowCache.entryBytes(cacheKey(hot), hot));
  }

  /**
   * What {@code read} returns, run on another thread that fetches from the store before {@code
   * writes} commit and is held before it fills the cache until they are in.
   */
  private <V> V readRacing(RowCache cache, Callable<V> read, Writes writes) throws Exception {
    CountDownLatch fetched = new CountDownLatch(1);
    CountDownLatch committed = new CountDownLatch(1);
    holdOtherThreadsFills(cache, fetched, committed);
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<V> slowRead = pool.submit(read);
      assertThat(fetched.await(30, TimeUnit.SECONDS)).isTrue();
      commit(writes);
      committed.countDown();
      return slowRead.get(30, TimeUnit.SECONDS);
    } finally {
      cache.beforeFill = () -> {};
      pool.shutdownNow();
    }
  }

  /**
   * Makes a read on another thread than this one, once it has fetched a row from the store and
   * before it fills the cache, count down {@code fetched} and wait for {@code committed}.
   */
  private static void holdOtherThreadsFills(
      RowCache cache, CountDownLatch fetched, CountDownLatch committed) {
    Thread late = Thread.currentThread();
    cache.beforeFill =
        () -> {
          if (Thread.currentThread() != late) {
            fetched.countDown();
            await(committed);
          }
        };
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /**
   * Locked read-modify-write increments while other threads read the same rows unlocked (filling
   * the cache from reads that race with the commits) and the cache starts over every few rows: an
   * increment lost to a stale cached row would show in the totals.
   */
  @Test
  void noIncrementIsLostWhileReadsRaceWithCommits() throws Exception {
    open(3);
    int rowsCount = 4;
    int writers = 4;
    int perWriter = 400;
    List<Key> keys = new ArrayList<>();
    for (int i = 0; i < rowsCount; i++) {
      InodeRow row = SampleRows.with(T, SampleRows.typical(T, 10 + i), "size", 0L);
      keys.add(T.keyOf(row));
      commit(tx -> tx.insert(T, row));
    }
    ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
    AtomicBoolean done = new AtomicBoolean();
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int first = w;
        work.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perWriter; i++) {
                    Key key = keys.get((first + i) % rowsCount);
                    commit(
                        tx -> {
                          InodeRow r = tx.find(T, key, LockMode.EXCLUSIVE);
                          tx.update(T, SampleRows.with(T, r, "size", r.size() + 1));
                        });
                  }
                  return null;
                }));
      }
      List<Future<?>> readers = new ArrayList<>();
      for (int r = 0; r < 2; r++) {
        readers.add(
            pool.submit(
                () -> {
                  while (!done.get()) {
                    batch(keys);
                    read(keys.get(0), LockMode.READ_COMMITTED);
                  }
                  return null;
                }));
      }
      for (Future<?> f : work) {
        f.get(120, TimeUnit.SECONDS);
      }
      done.set(true);
      for (Future<?> f : readers) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
    long total = 0;
    for (Key k : keys) {
      InodeRow cached = read(k, LockMode.SHARED);
      InodeRow stored;
      try (Transaction tx = storage.begin()) {
        stored =
            tx.scanAll(T, LockMode.READ_COMMITTED).stream() // a scan reads the store itself
                .filter(r -> T.keyOf(r).equals(k))
                .findFirst()
                .orElseThrow();
      }
      assertThat(cached).isEqualTo(stored);
      total += stored.size();
    }
    assertThat(total).isEqualTo((long) writers * perWriter);
  }

  private InodeRow read(Key key, LockMode mode) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(T, key, mode);
    }
  }

  private List<InodeRow> batch(List<Key> keys) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findBatch(T, keys, LockMode.READ_COMMITTED);
    }
  }

  @FunctionalInterface
  private interface Writes {
    void apply(Transaction tx) throws Exception;
  }

  private void commit(Writes writes) throws Exception {
    try (Transaction tx = storage.begin()) {
      writes.apply(tx);
      tx.commit();
    }
  }
}
