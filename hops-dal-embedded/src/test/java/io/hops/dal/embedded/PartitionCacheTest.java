package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.PartitionFold;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;
import java.util.concurrent.Callable;
import java.util.concurrent.ConcurrentSkipListSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The embedded store keeps whole partitions for partition scans, and a scan never returns a
 * partition older than the last commit that wrote it: not after inserts, updates and deletes, not
 * when a scan's read races with a commit, not across generations. Pages read from a kept partition
 * are the pages the store gives.
 */
class PartitionCacheTest {
  private static final Table<InodeRow> T = InodeRow.TABLE;
  private static final long DIR = 77;

  /** The heap a kept child of this test takes: its row, its key and their slots. */
  private static final long KEPT_ROW_BYTES =
      HeapEstimate.row(child(1, "n00001")) + HeapEstimate.array(40) + 2 * HeapEstimate.REF;

  private Storage storage;

  /**
   * Opens a store whose generations of the partition cache each hold about {@code cachedRows} kept
   * rows of this test's children (a partition's entry takes less than a row besides its rows).
   */
  private void open(int cachedRows) throws Exception {
    storage =
        Storages.open(
            DalConfig.embeddedInMemory("partition-cache-" + UUID.randomUUID())
                .with(HopsConfig.EMBEDDED_ROW_CACHE_ENTRIES, cachedRows)
                .with(HopsConfig.EMBEDDED_PARTITION_CACHE_BYTES, 2L * cachedRows * KEPT_ROW_BYTES));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    if (storage != null) {
      storage.close();
    }
  }

  @Test
  void aScanOfTheWholePartitionKeepsItAndCommitsToItKeepItUpToDate() throws Exception {
    open(1000);
    commit(tx -> tx.insert(T, child(1, "a")));
    commit(tx -> tx.insert(T, child(2, "b")));
    assertThat(names(scan())).containsExactly("a", "b");
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("a", "b"); // from the cache

    // Inserts, updates and deletes apply to the kept partition: it stays kept, and is what the
    // store holds.
    commit(tx -> tx.insert(T, child(3, "c")));
    commit(tx -> tx.insert(T, child(4, "")));
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("", "a", "b", "c").isEqualTo(names(storeScan()));

    InodeRow b = scan().get(2);
    commit(tx -> tx.update(T, SampleRows.with(T, b, "size", 4242L)));
    assertThat(scan().get(2).size()).isEqualTo(4242L);

    commit(tx -> tx.delete(T, T.keyOf(b)));
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("", "a", "c").isEqualTo(names(storeScan()));

    // A row that changes its key within the partition (a rename in one directory): one commit.
    InodeRow a = scan().get(1);
    commit(
        tx -> {
          tx.delete(T, T.keyOf(a));
          tx.insert(T, SampleRows.with(T, a, "name", "d"));
        });
    assertThat(names(scan())).containsExactly("", "c", "d").isEqualTo(names(storeScan()));

    // A write to another partition leaves this one as it was.
    scan();
    commit(tx -> tx.insert(T, SampleRows.inPartition(T, child(9, "x"), DIR + 1)));
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("", "c", "d");
  }

  /**
   * A batch of keys of one kept partition (the directories among a directory's children, read again
   * under their locks) is answered from the partition, found key after key in one walk through its
   * chunks when the keys are in order: what each key holds after updates and deletions, null for
   * the deleted and the never written, in the order asked, in or out of key order.
   */
  @Test
  void aBatchOfOnePartitionsKeysIsAnsweredFromItInTheOrderAsked() throws Exception {
    open(100_000);
    int n = 5 * KeptRows.CHUNK_ROWS; // several chunks
    commit(
        tx -> {
          for (int i = 0; i < n; i++) {
            tx.insert(T, child(i + 1, String.format("c%04d", i)));
          }
        });
    scan();
    assertThat(cached()).isTrue();
    commit(
        tx -> {
          for (int i = 0; i < n; i += 7) {
            tx.update(T, SampleRows.with(T, child(i + 1, String.format("c%04d", i)), "size", 99L));
          }
          for (int i = 3; i < n; i += 11) {
            tx.delete(T, T.keyOf(child(i + 1, String.format("c%04d", i))));
          }
        });
    assertThat(cached()).isTrue();
    rowCache().clear(); // the rows are in the kept partition and the store only

    List<Key> ascending = new ArrayList<>();
    for (int i = 0; i < n + 5; i += 2) {
      ascending.add(T.keyOf(child(0, String.format("c%04d", i))));
    }
    ascending.add(T.keyOf(child(0, "zz-never")));
    List<Key> shuffled = new ArrayList<>(ascending);
    Collections.shuffle(shuffled, new Random(7));
    Map<Key, InodeRow> stored = new HashMap<>();
    storeScan().forEach(r -> stored.put(T.keyOf(r), r));
    assertThat(stored).hasSize(n - (n - 3 + 10) / 11);
    scan(); // kept again after storeScan's clear
    assertThat(cached()).isTrue();
    for (List<Key> keys : List.of(ascending, shuffled)) {
      List<InodeRow> expected = new ArrayList<>();
      keys.forEach(k -> expected.add(stored.get(k)));
      assertThat(expected).contains((InodeRow) null);
      try (Transaction tx = storage.begin()) {
        assertThat(tx.findBatch(T, keys, LockMode.SHARED)).isEqualTo(expected);
        assertThat(tx.accessCounts().keysRead()).isZero();
      }
    }
  }

  /**
   * A point read of a row of a kept partition, present or not (a name being created), is answered
   * from the partition without a lookup in the store; the answer follows commits.
   */
  @Test
  void pointReadsOfAKeptPartitionDoNotReachTheStore() throws Exception {
    open(1000);
    InodeRow a = child(1, "a");
    commit(tx -> tx.insert(T, a));
    scan();
    InodeRow missing = child(2, "new");
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(missing), LockMode.EXCLUSIVE)).isNull();
      assertThat(tx.accessCounts().keysRead()).isZero();
    }
    commit(tx -> tx.insert(T, missing));
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(missing), LockMode.EXCLUSIVE)).isEqualTo(missing);
      assertThat(tx.accessCounts().keysRead()).isZero();
    }
    commit(tx -> tx.delete(T, T.keyOf(missing)));
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(missing), LockMode.EXCLUSIVE)).isNull();
      assertThat(tx.findBatch(T, List.of(T.keyOf(a), T.keyOf(missing)), LockMode.READ_COMMITTED))
          .containsExactly(a, null);
      assertThat(tx.accessCounts().keysRead()).isZero();
    }
  }

  /**
   * A write that misses a row neither cache holds looks it up the first time in its partition; the
   * second time it reads the whole partition and keeps it, so that later writes into it (the names
   * a directory's next creates and renames take) read nothing. The rows it answers are the store's.
   */
  @Test
  void theSecondWriteThatMissesAPartitionKeepsIt() throws Exception {
    open(1000);
    InodeRow a = child(1, "a");
    commit(tx -> tx.insert(T, a));
    commit(tx -> tx.insert(T, child(2, "b")));
    rowCache().clear(); // as after a restart: the rows are only in the store

    assertThat(keysReadToWrite("new1")).isEqualTo(1); // a lookup
    assertThat(cached()).isFalse();
    assertThat(keysReadToWrite("new2")).isEqualTo(2); // the partition's two rows
    assertThat(cached()).isTrue();
    assertThat(keysReadToWrite("new3")).isZero();

    // A row that is there, answered by the fill itself.
    close();
    open(1000);
    commit(tx -> tx.insert(T, a));
    commit(tx -> tx.insert(T, child(2, "b")));
    rowCache().clear();
    assertThat(keysReadToWrite("x")).isEqualTo(1);
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(a), LockMode.EXCLUSIVE)).isEqualTo(a);
      assertThat(tx.accessCounts().keysRead()).isEqualTo(2);
    }
    assertThat(cached()).isTrue();
  }

  /** Reads that will not write (shared or unlocked) never fill: they look their rows up. */
  @Test
  void readsThatDoNotWriteLookRowsUp() throws Exception {
    open(1000);
    commit(tx -> tx.insert(T, child(1, "a")));
    int n = 0;
    for (LockMode mode : List.of(LockMode.SHARED, LockMode.READ_COMMITTED, LockMode.SHARED)) {
      try (Transaction tx = storage.begin()) {
        assertThat(tx.find(T, T.keyOf(child(9, "new" + n++)), mode)).isNull();
        assertThat(tx.accessCounts().keysRead()).isEqualTo(1);
      }
    }
    assertThat(cached()).isFalse();
  }

  /**
   * A partition larger than a write fills is read once (up to one row past the largest filled), not
   * kept, and remembered as large. The next write that misses reads its names and keeps them: from
   * then on a write's lookup of a key that is not there (a name being created) reads nothing, one
   * of a key that is there looks it up, and commits to the partition are followed.
   */
  @Test
  void aPartitionLargerThanAWriteFillsHasItsNamesKept() throws Exception {
    int most = PartitionCache.MAX_ROWS_FILLED_ON_WRITE;
    int n = most + 6;
    openWithChildrenOnlyInTheStore(n);
    assertThat(keysReadToWrite("m")).isEqualTo(1);
    // Before every name read: answered absent from what was read, without a lookup.
    assertThat(keysReadToWrite("m2")).isEqualTo(most + 1);
    assertThat(cached()).isFalse();
    assertThat(namesKept()).isFalse();
    assertThat(keysReadToWrite("m3")).isEqualTo(n); // its names
    assertThat(cached()).isFalse();
    assertThat(namesKept()).isTrue();
    assertThat(keysReadToWrite("m4")).isZero();
    assertThat(keysReadToWrite("zz")).isZero();
    InodeRow last = child(10 + n - 1, String.format("n%05d", n - 1));
    assertThat(keysReadToFind(last)).isEqualTo(1);

    InodeRow added = child(5000, "m4");
    commit(tx -> tx.insert(T, added));
    commit(tx -> tx.delete(T, T.keyOf(last)));
    rowCache().clear();
    assertThat(keysReadToFind(added)).isEqualTo(1);
    assertThat(keysReadToWrite(last.name())).isZero();

    // A write that reads nothing new when the names hold its key: no second read of the rows.
    assertThat(keysReadToFind(child(10 + 3, "n00003"))).isEqualTo(1);
    assertThat(namesKept()).isTrue();
  }

  /**
   * A batch read under exclusive locks (a rename's source and its new name in one directory) reads
   * and keeps what a single write would: the partition, or its names if it is too large, after
   * which the new names of later batches are answered from memory.
   */
  @Test
  void aBatchToWriteKeepsWhatAWriteKeeps() throws Exception {
    openWithChildrenOnlyInTheStore(3);
    assertThat(keysReadToWrite("m")).isEqualTo(1);
    assertThat(keysReadToWriteBatch(child(10, "n00000"), "r1")).isEqualTo(3); // the partition
    assertThat(cached()).isTrue();
    assertThat(keysReadToWriteBatch(child(11, "n00001"), "r2")).isZero();

    int most = PartitionCache.MAX_ROWS_FILLED_ON_WRITE;
    int n = most + 6;
    close();
    openWithChildrenOnlyInTheStore(n);
    keysReadToWrite("m");
    assertThat(keysReadToWrite("m2")).isEqualTo(most + 1);
    // The names, and the row that is there looked up.
    assertThat(keysReadToWriteBatch(child(10, "n00000"), "r1")).isEqualTo(n + 1);
    assertThat(namesKept()).isTrue();
    assertThat(keysReadToWriteBatch(child(11, "n00001"), "r2")).isEqualTo(1);
  }

  /**
   * How many keys an exclusive batch read of {@code present} (which is there) and the child {@code
   * absent} (which is not) read from the store.
   */
  private long keysReadToWriteBatch(InodeRow present, String absent) throws Exception {
    try (Transaction tx = storage.begin()) {
      List<Key> keys = List.of(T.keyOf(present), T.keyOf(child(99, absent)));
      assertThat(tx.findBatch(T, keys, LockMode.EXCLUSIVE)).containsExactly(present, null);
      return tx.accessCounts().keysRead();
    }
  }

  /**
   * The race the names' claim is built against, made to happen: a write has read a partition's
   * names from the store, and a commit adds one child and deletes another before the write keeps
   * them. The kept names must have the one and not the other: a write must find the added row, and
   * the deleted name absent.
   */
  @Test
  void aCommitWhileNamesAreReadIsNotLost() throws Exception {
    int most = PartitionCache.MAX_ROWS_FILLED_ON_WRITE;
    int n = most + 6;
    openWithChildrenOnlyInTheStore(n);
    keysReadToWrite("m");
    keysReadToWrite("m2");
    PartitionCache cache = ((EmbeddedStorage) storage).store().partitions();
    InodeRow added = child(5000, "added");
    InodeRow deleted = child(10 + 3, "n00003");
    long read =
        heldWhileACommitRuns(
            () -> keysReadToWrite("m3"),
            hook -> cache.beforeFill = hook,
            tx -> {
              tx.insert(T, added);
              tx.delete(T, T.keyOf(deleted));
            });
    assertThat(read).isEqualTo(n);
    assertThat(namesKept()).isTrue();
    rowCache().clear();
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(added), LockMode.EXCLUSIVE)).isEqualTo(added);
    }
    assertThat(keysReadToWrite(deleted.name())).isZero();
  }

  /**
   * Names in use survive the cache's turnover as partitions do, and a commit while only the older
   * generation keeps them applies to them. Names that grow past the most kept are dropped, and a
   * partition with more names than that is read up to one past them once, then looked up in.
   */
  @Test
  void namesFollowTurnoversAndAreDroppedPastTheMostKept() throws Exception {
    int most = PartitionCache.MAX_ROWS_FILLED_ON_WRITE;
    openWithChildrenOnlyInTheStore(most + 6, (most + 6) / 3 + 4);
    keysReadToWrite("m");
    keysReadToWrite("m2");
    keysReadToWrite("m3");
    assertThat(namesKept()).isTrue();
    long other = DIR + 1;
    commit(
        tx -> {
          for (int i = 0; i < 20; i++) {
            tx.insert(T, SampleRows.inPartition(T, child(100 * other + i, "n" + i), other));
          }
        });
    assertThat(scanReadsTheStore(other)).isTrue(); // past the capacity: a new generation
    InodeRow deleted = child(10 + 4, "n00004");
    commit(tx -> tx.delete(T, T.keyOf(deleted)));
    rowCache().clear();
    assertThat(keysReadToWrite(deleted.name())).isZero(); // moved, with the delete
    assertThat(keysReadToWrite("m5")).isZero();

    int largest = PartitionCache.MAX_NAMES;
    close();
    openWithChildrenOnlyInTheStore(largest);
    keysReadToWrite("m");
    keysReadToWrite("m2");
    assertThat(keysReadToWrite("m3")).isEqualTo(largest);
    assertThat(keysReadToWrite("m4")).isZero();
    commit(tx -> tx.insert(T, child(1, "one-too-many")));
    assertThat(namesKept()).isFalse();
    assertThat(keysReadToWrite("m5")).isEqualTo(1);
    assertThat(keysReadToWrite("m6")).isEqualTo(1);
  }

  /**
   * Writers insert and delete children of a partition too large to keep while other writes look up
   * names that are not there (reading and keeping the partition's names, racing with the commits)
   * and the cache starts over every few rows: after each commit, its writer's locked lookup must
   * find what it did.
   */
  @Test
  void noCommitIsMissedWhileNamesAreReadInRaceWithCommits() throws Exception {
    openWithChildrenOnlyInTheStore(PartitionCache.MAX_ROWS_FILLED_ON_WRITE + 6, 60);
    AtomicInteger probes = new AtomicInteger();
    race(
        (writer, i) -> {
          InodeRow row = child(1000L * (writer + 1) + i, "w" + writer + "-" + i);
          commit(tx -> tx.insert(T, row));
          assertThat(find(row)).isEqualTo(row);
          if (i % 3 == 0) {
            commit(tx -> tx.delete(T, T.keyOf(row)));
            assertThat(find(row)).isNull();
          }
        },
        () -> {
          keysReadToWrite("probe" + probes.incrementAndGet());
          if (probes.get() % 10 == 0) {
            rowCache().clear();
          }
        });
  }

  /** One step of a writer: its {@code i}th. */
  @FunctionalInterface
  private interface WriterStep {
    void run(int writer, int i) throws Exception;
  }

  /** One read of a reader, repeated until the writers are done. */
  @FunctionalInterface
  private interface ReaderStep {
    void run() throws Exception;
  }

  /** Three writers run 150 steps each while two readers repeat {@code read} until they are done. */
  private static void race(WriterStep write, ReaderStep read) throws Exception {
    int writers = 3;
    int perWriter = 150;
    ExecutorService pool = Executors.newFixedThreadPool(writers + 2);
    AtomicBoolean done = new AtomicBoolean();
    try {
      List<Future<?>> work = new ArrayList<>();
      for (int w = 0; w < writers; w++) {
        int writer = w;
        work.add(
            pool.submit(
                () -> {
                  for (int i = 0; i < perWriter; i++) {
                    write.run(writer, i);
                  }
                  return null;
                }));
      }
      for (int r = 0; r < 2; r++) {
        work.add(
            pool.submit(
                () -> {
                  while (!done.get()) {
                    read.run();
                  }
                  return null;
                }));
      }
      for (Future<?> f : work.subList(0, writers)) {
        f.get(120, TimeUnit.SECONDS);
      }
      done.set(true);
      for (Future<?> f : work) {
        f.get(30, TimeUnit.SECONDS);
      }
    } finally {
      done.set(true);
      pool.shutdownNow();
    }
  }

  /** The child with {@code row}'s key, read under an exclusive lock. */
  private InodeRow find(InodeRow row) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(T, T.keyOf(row), LockMode.EXCLUSIVE);
    }
  }

  /** How many keys an exclusive lookup of {@code row} (which is there) read from the store. */
  private long keysReadToFind(InodeRow row) throws Exception {
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(row), LockMode.EXCLUSIVE)).isEqualTo(row);
      return tx.accessCounts().keysRead();
    }
  }

  private boolean namesKept() {
    EmbeddedStorage s = (EmbeddedStorage) storage;
    return s.store().partitions().names(new KeyBytes(prefix())) != null;
  }

  /**
   * A new store whose partition holds {@code count} children named in order, in the store and in no
   * cache (as after a restart).
   */
  private void openWithChildrenOnlyInTheStore(int count) throws Exception {
    openWithChildrenOnlyInTheStore(count, 100_000);
  }

  /** As above, with a cache of {@code cachedRows}. */
  private void openWithChildrenOnlyInTheStore(int count, int cachedRows) throws Exception {
    open(cachedRows);
    commit(
        tx -> {
          for (int i = 0; i < count; i++) {
            tx.insert(T, child(10 + i, String.format("n%05d", i)));
          }
        });
    rowCache().clear();
  }

  /** How many keys an exclusive lookup of the child {@code name} read from the store. */
  private long keysReadToWrite(String name) throws Exception {
    try (Transaction tx = storage.begin()) {
      assertThat(tx.find(T, T.keyOf(child(99, name)), LockMode.EXCLUSIVE)).isNull();
      return tx.accessCounts().keysRead();
    }
  }

  private RowCache rowCache() {
    return ((EmbeddedStorage) storage).store().rows();
  }

  /** A kept partition that commits grow past the largest kept is dropped, then read again. */
  @Test
  void aPartitionThatGrowsPastTheLargestKeptIsDropped() throws Exception {
    open(100_000);
    int most = PartitionCache.MAX_PARTITION_ROWS;
    commit(
        tx -> {
          for (int i = 0; i < most; i++) {
            tx.insert(T, child(10 + i, String.format("n%05d", i)));
          }
        });
    assertThat(scan()).hasSize(most);
    assertThat(cached()).isTrue();
    commit(tx -> tx.insert(T, child(5, "last")));
    assertThat(cached()).isFalse();
    assertThat(scan()).hasSize(most + 1);
    assertThat(cached()).isFalse();
  }

  /**
   * A partition in use survives the cache's turnover: the generation before is still read, and a
   * partition found there moves into the new one, commits to it included. One left unused for a
   * whole generation is read from the store again.
   */
  @Test
  void aPartitionInUseSurvivesATurnover() throws Exception {
    open(4);
    commit(tx -> tx.insert(T, child(1, "a")));
    commit(tx -> tx.insert(T, child(2, "b")));
    long other = DIR + 1;
    long third = DIR + 2;
    long fourth = DIR + 3;
    for (long dir : List.of(other, third, fourth)) {
      commit(
          tx -> {
            for (int i = 0; i < 5; i++) {
              tx.insert(T, SampleRows.inPartition(T, child(100 * dir + i, "n" + i), dir));
            }
          });
    }
    assertThat(scanReadsTheStore(DIR)).isTrue();
    assertThat(scanReadsTheStore(other)).isTrue(); // past the capacity: a new generation
    assertThat(cached()).isFalse();

    // A commit to the partition while only the older generation keeps it applies there.
    commit(tx -> tx.insert(T, child(3, "c")));
    assertThat(scanReadsTheStore(DIR)).isFalse();
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("a", "b", "c");

    // Two turnovers in which it is not used: read from the store again.
    assertThat(scanReadsTheStore(third)).isTrue();
    assertThat(scanReadsTheStore(fourth)).isTrue();
    assertThat(cached()).isFalse();
    assertThat(scanReadsTheStore(DIR)).isTrue();
  }

  /**
   * The race the move from the older generation is built against, made to happen: a scan has found
   * the partition in the older generation and claimed it in the new one, and a commit writes a new
   * child before the scan moves what it found. Neither that scan's claim nor a later scan may keep
   * the partition without the child.
   */
  @Test
  void aCommitWhileAPartitionMovesIsNotLost() throws Exception {
    open(4);
    commit(tx -> tx.insert(T, child(1, "a")));
    long other = DIR + 1;
    commit(
        tx -> {
          for (int i = 0; i < 5; i++) {
            tx.insert(T, SampleRows.inPartition(T, child(100 + i, "n" + i), other));
          }
        });
    scan();
    assertThat(scanReadsTheStore(other)).isTrue(); // DIR is now in the older generation only
    PartitionCache cache = ((EmbeddedStorage) storage).store().partitions();
    List<InodeRow> held =
        scanHeldWhileACommitRuns(
            hook -> cache.beforeMove = hook, tx -> tx.insert(T, child(2, "b")));
    assertThat(names(held)).containsExactly("a");
    assertThat(names(scan())).containsExactly("a", "b");
    assertThat(cached()).isTrue();
    assertThat(names(scan())).containsExactly("a", "b");
  }

  /** Whether a scan of {@code dir}'s children read them from the store (and kept them). */
  private boolean scanReadsTheStore(long dir) throws Exception {
    PartitionCache cache = ((EmbeddedStorage) storage).store().partitions();
    AtomicBoolean read = new AtomicBoolean();
    cache.beforeFill = () -> read.set(true);
    try (Transaction tx = storage.begin()) {
      tx.findByPartition(T, dir, LockMode.READ_COMMITTED);
    } finally {
      cache.beforeFill = () -> {};
    }
    return read.get();
  }

  @Test
  void pagesFromAKeptPartitionAreThePagesOfTheStore() throws Exception {
    open(1000);
    List<String> names = List.of("", "a", "a\0", "b", "é", "z", "\u0080", "zz");
    for (int i = 0; i < names.size(); i++) {
      InodeRow row = child(100 + i, names.get(i));
      commit(tx -> tx.insert(T, row));
    }
    List<List<String>> fromStore = pages(3);
    assertThat(cached()).isFalse(); // a page that stopped at its limit is not the whole partition
    scan();
    assertThat(cached()).isTrue();
    assertThat(pages(3)).isEqualTo(fromStore);
    assertThat(pages(100)).containsExactly(fromStore.stream().flatMap(List::stream).toList());
  }

  @Test
  void aPageThatEndsBeforeItsLimitKeepsThePartition() throws Exception {
    open(1000);
    commit(tx -> tx.insert(T, child(1, "a")));
    try (Transaction tx = storage.begin()) {
      assertThat(tx.scanFrom(T, DIR, null, 10, LockMode.READ_COMMITTED)).hasSize(1);
    }
    assertThat(cached()).isTrue();
  }

  @Test
  void theCacheIsOffWithTheRowCache() throws Exception {
    open(0);
    commit(tx -> tx.insert(T, child(1, "a")));
    assertThat(names(scan())).containsExactly("a");
    assertThat(cached()).isFalse();
  }

  /**
   * The race the claim is built against, made to happen: a scan reads the partition from the store,
   * a commit writes a new child before that scan puts what it read. The late scan must not keep the
   * partition without the child.
   */
  @Test
  void aScanThatReadBeforeACommitDoesNotKeepTheOldPartition() throws Exception {
    open(1000);
    commit(tx -> tx.insert(T, child(1, "a")));
    PartitionCache cache = ((EmbeddedStorage) storage).store().partitions();
    List<InodeRow> held =
        scanHeldWhileACommitRuns(
            hook -> cache.beforeFill = hook, tx -> tx.insert(T, child(2, "b")));
    assertThat(names(held)).containsExactly("a");
    assertThat(names(scan())).containsExactly("a", "b");
    assertThat(names(scan())).containsExactly("a", "b");
  }

  /** How many times {@link #SIZES} ran: a kept summary is answered without it. */
  private static final AtomicInteger FOLDS = new AtomicInteger();

  /** A partition's rows folded into their names and sizes, counting its runs. */
  private static final PartitionFold<InodeRow, List<String>> SIZES =
      rows -> {
        FOLDS.incrementAndGet();
        return rows.stream().map(r -> r.name() + "=" + r.size()).toList();
      };

  private List<String> fold() throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.foldPartition(T, DIR, SIZES);
    }
  }

  /**
   * A partition's summary is kept until a commit writes the partition (an insert, an update of a
   * row's length, a delete), whatever the partition's size; a commit elsewhere keeps it.
   */
  @Test
  void aFoldIsKeptUntilACommitWritesItsPartition() throws Exception {
    open(100_000);
    int rows = PartitionCache.MAX_PARTITION_ROWS + 10; // more than a kept partition holds
    commit(
        tx -> {
          for (int i = 0; i < rows; i++) {
            tx.insert(T, child(10 + i, String.format("n%05d", i)));
          }
        });
    FOLDS.set(0);
    List<String> first = fold();
    assertThat(first).hasSize(rows);
    assertThat(fold()).isEqualTo(first);
    assertThat(FOLDS.get()).isEqualTo(1);
    assertThat(cached()).isFalse(); // the summary is kept, not the rows

    commit(tx -> tx.insert(T, SampleRows.inPartition(T, child(5, "elsewhere"), DIR + 1)));
    assertThat(fold()).isEqualTo(first);
    assertThat(FOLDS.get()).isEqualTo(1);

    InodeRow n3 = storeScan().get(3);
    commit(tx -> tx.update(T, SampleRows.with(T, n3, "size", 4242L)));
    assertThat(fold().get(3)).isEqualTo("n00003=4242");
    assertThat(FOLDS.get()).isEqualTo(2);
    commit(tx -> tx.delete(T, n3));
    commit(tx -> tx.insert(T, child(6, "a")));
    List<String> now = fold();
    assertThat(now)
        .hasSize(rows)
        .contains("a=" + child(6, "a").size())
        .doesNotContain("n00003=4242");
    assertThat(fold()).isEqualTo(now);
    assertThat(FOLDS.get()).isEqualTo(3);
    // storeScan() clears the cache: last.
    assertThat(now).isEqualTo(storeScan().stream().map(r -> r.name() + "=" + r.size()).toList());

    // The oversized partition's scans: every row, each time, from the store.
    assertThat(names(scan())).hasSize(rows).isEqualTo(names(storeScan()));
    assertThat(names(scan())).hasSize(rows);
  }

  /**
   * A fold that read the partition before a commit to it answers what it read, but does not keep
   * it: the next fold reads the commit.
   */
  @Test
  void aFoldThatReadBeforeACommitDoesNotKeepTheOldSummary() throws Exception {
    open(1000);
    commit(tx -> tx.insert(T, child(1, "a")));
    PartitionCache cache = ((EmbeddedStorage) storage).store().partitions();
    List<String> held =
        heldWhileACommitRuns(
            this::fold, hook -> cache.beforeFill = hook, tx -> tx.insert(T, child(2, "b")));
    assertThat(held).hasSize(1);
    assertThat(fold()).hasSize(2);
    assertThat(fold()).hasSize(2);
  }

  /**
   * Starts a scan in another thread, holds it where {@code setHook} puts its hook (the cache's
   * {@code beforeFill} or {@code beforeMove}), makes {@code meanwhile}'s commit, and returns what
   * the held scan answered once let go. The hook is taken out again before this returns.
   */
  private List<InodeRow> scanHeldWhileACommitRuns(Consumer<Runnable> setHook, Writes meanwhile)
      throws Exception {
    return heldWhileACommitRuns(this::scan, setHook, meanwhile);
  }

  /** As {@link #scanHeldWhileACommitRuns}, for any read of the partition. */
  private <T> T heldWhileACommitRuns(Callable<T> read, Consumer<Runnable> setHook, Writes meanwhile)
      throws Exception {
    CountDownLatch reached = new CountDownLatch(1);
    CountDownLatch committed = new CountDownLatch(1);
    Thread main = Thread.currentThread();
    setHook.accept(
        () -> {
          if (Thread.currentThread() != main) {
            reached.countDown();
            await(committed);
          }
        });
    ExecutorService pool = Executors.newSingleThreadExecutor();
    try {
      Future<T> slowRead = pool.submit(read);
      assertThat(reached.await(30, TimeUnit.SECONDS)).isTrue();
      commit(meanwhile);
      committed.countDown();
      return slowRead.get(30, TimeUnit.SECONDS);
    } finally {
      setHook.accept(() -> {});
      pool.shutdownNow();
    }
  }

  /**
   * Writers insert and delete children while readers scan the partition (filling the cache from
   * scans that race with the commits) and the cache starts over every few rows: after each commit,
   * its writer's scan must show what it did, and the last scan must be exactly what is left.
   */
  @Test
  void noCommitIsMissedWhileScansRaceWithCommits() throws Exception {
    open(5);
    Set<String> expected = new ConcurrentSkipListSet<>();
    race(
        (writer, i) -> {
          String name = "w" + writer + "-" + i;
          InodeRow row = child(1000L * (writer + 1) + i, name);
          commit(tx -> tx.insert(T, row));
          expected.add(name);
          assertThat(names(scan())).contains(name);
          if (i % 3 == 0) {
            commit(tx -> tx.delete(T, T.keyOf(row)));
            expected.remove(name);
            assertThat(names(scan())).doesNotContain(name);
          }
        },
        this::scan);
    assertThat(new TreeSet<>(names(scan()))).isEqualTo(new TreeSet<>(expected));
  }

  private static InodeRow child(long id, String name) {
    InodeRow row = SampleRows.typical(T, id);
    row = SampleRows.inPartition(T, row, DIR);
    row = SampleRows.with(T, row, "parent_id", DIR);
    row = SampleRows.with(T, row, "id", id);
    return SampleRows.with(T, row, "name", name);
  }

  private List<InodeRow> scan() throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(T, DIR, LockMode.READ_COMMITTED);
    }
  }

  /** The partition as the store holds it, read past the cache. */
  private List<InodeRow> storeScan() throws Exception {
    EmbeddedStorage s = (EmbeddedStorage) storage;
    StoredTable<InodeRow> t = StoredTable.of(T);
    byte[] prefix = t.layout.rowPrefix(List.of(T.partitionColumn().orElseThrow()), List.of(DIR));
    s.store().partitions().clear();
    try {
      return new RowReader(s.store()).scanFrom(t, prefix, null, Integer.MAX_VALUE);
    } finally {
      s.store().partitions().clear();
    }
  }

  /** The partition page by page, {@code size} rows a page. */
  private List<List<String>> pages(int size) throws Exception {
    List<List<String>> pages = new ArrayList<>();
    try (Transaction tx = storage.begin()) {
      Key after = null;
      while (true) {
        List<InodeRow> page = tx.scanFrom(T, DIR, after, size, LockMode.READ_COMMITTED);
        if (page.isEmpty()) {
          return pages;
        }
        pages.add(names(page));
        after = T.keyOf(page.get(page.size() - 1));
      }
    }
  }

  private boolean cached() {
    EmbeddedStorage s = (EmbeddedStorage) storage;
    return s.store().partitions().current().get(new KeyBytes(prefix())) != null;
  }

  /** The row-key prefix of {@link #DIR}'s children. */
  private static byte[] prefix() {
    StoredTable<InodeRow> t = StoredTable.of(T);
    return t.layout.rowPrefix(List.of(T.partitionColumn().orElseThrow()), List.of(DIR));
  }

  private static List<String> names(List<InodeRow> rows) {
    return rows.stream().map(InodeRow::name).toList();
  }

  private static void await(CountDownLatch latch) {
    try {
      latch.await(30, TimeUnit.SECONDS);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
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
