package io.hops.dal.embedded;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Table;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The marks of a table whose new keys come last in their partition ({@link
 * io.hops.dal.schema.AscendingKeys}: the retry cache, a client's call ids): a lookup of a key above
 * its partition's greatest, or just below it and never put, is answered absent without reading the
 * store, any other key is read, and a mark stays above a commit that is still being written even
 * when the marks outgrow their capacity and the settled ones are dropped.
 */
class PartitionMarksTest {
  private static final Table<RetryCacheRow> T = RetryCacheRow.TABLE;
  private static final StoredTable<RetryCacheRow> STORED = StoredTable.of(T);
  private final String name = "partition-marks-" + UUID.randomUUID();
  private Storage storage;

  @BeforeEach
  void open() throws Exception {
    storage = Storages.open(DalConfig.embeddedInMemory(name));
    storage.schema().createOrUpgrade();
  }

  @AfterEach
  void close() {
    storage.close();
  }

  @Test
  void aCallAboveItsClientsLastIsAbsentWithoutARead() throws Exception {
    insert(row("a", 1), row("a", 2));

    Lookup next = lookup("a", 3);
    assertThat(next.row()).isNull();
    assertThat(next.counts().keysRead()).as(next.counts().keys()).isZero();

    Lookup kept = lookup("a", 2);
    assertThat(kept.row()).usingRecursiveComparison().isEqualTo(row("a", 2));
    assertThat(kept.counts().keysRead()).as(kept.counts().keys()).isEqualTo(1);

    insert(row("a", 3));
    assertThat(lookup("a", 3).row()).usingRecursiveComparison().isEqualTo(row("a", 3));
  }

  @Test
  void aCallJustBelowItsClientsLastThatNoCommitPutIsAbsentWithoutARead() throws Exception {
    // A client's concurrent calls reach the store a few ids apart: 5 before 3 and 4.
    insert(row("b", 5));

    Lookup below = lookup("b", 3);
    assertThat(below.row()).isNull();
    assertThat(below.counts().keysRead()).as("3 was never put, 2 below the mark").isZero();

    insert(row("b", 3));
    Lookup put = lookup("b", 3);
    assertThat(put.row()).usingRecursiveComparison().isEqualTo(row("b", 3));
    assertThat(put.counts().keysRead()).isEqualTo(1);
    assertThat(lookup("b", 5).row()).usingRecursiveComparison().isEqualTo(row("b", 5));
    Lookup between = lookup("b", 4);
    assertThat(between.row()).isNull();
    assertThat(between.counts().keysRead()).isZero();

    // A mark that rises keeps what it knew of the keys below it.
    insert(row("b", 9));
    assertThat(lookup("b", 4).counts().keysRead()).isZero();
    assertThat(lookup("b", 3).row()).usingRecursiveComparison().isEqualTo(row("b", 3));
    assertThat(lookup("b", 7).counts().keysRead()).isZero();
  }

  @Test
  void aCallFarBelowItsClientsLastOrOnceDeletedIsRead() throws Exception {
    insert(row("f", 1), row("f", 100));
    Lookup far = lookup("f", 30);
    assertThat(far.row()).isNull();
    assertThat(far.counts().keysRead()).as("70 below the mark").isEqualTo(1);
    assertThat(lookup("f", 1).row()).usingRecursiveComparison().isEqualTo(row("f", 1));

    try (Transaction tx = storage.begin()) {
      tx.delete(T, T.key(client("f"), 100));
      tx.commit();
    }
    Lookup deleted = lookup("f", 100);
    assertThat(deleted.row()).isNull();
    assertThat(deleted.counts().keysRead()).as("put once: read").isEqualTo(1);
    insert(row("f", 100));
    assertThat(lookup("f", 100).row()).usingRecursiveComparison().isEqualTo(row("f", 100));
  }

  @Test
  void aMarkLearntFromTheStoreKnowsNothingOfTheKeysBelowIt() throws Exception {
    insert(row("g", 6), row("g", 8));
    storage.close();
    storage = Storages.open(DalConfig.embeddedInMemory(name));

    Lookup below = lookup("g", 7);
    assertThat(below.row()).isNull();
    assertThat(below.counts().keysRead()).isEqualTo(1);
    assertThat(lookup("g", 6).row()).usingRecursiveComparison().isEqualTo(row("g", 6));
  }

  @Test
  void keysAreComparedByTheirLastEightBytes() {
    byte[] a = {1, 2, 3, 0, 0, 0, 0, 0, 0, 1, 0};
    byte[] b = {1, 2, 3, 0, 0, 0, 0, 0, 0, 0, (byte) 0xf0};
    assertThat(HighWaters.below(a, b)).isEqualTo(16);
    assertThat(HighWaters.below(a, a)).isZero();
    assertThat(HighWaters.below(b, a)).as("above").isEqualTo(-1);
    assertThat(HighWaters.below(a, new byte[] {1, 2, 4, 0, 0, 0, 0, 0, 0, 0, 0}))
        .as("another leading byte")
        .isEqualTo(-1);
    assertThat(HighWaters.below(a, new byte[] {1, 2, 3})).as("another length").isEqualTo(-1);
    byte[] high = {(byte) 0xff, (byte) 0xff, 0, 0, 0, 0, 0, 0};
    byte[] low = {0, (byte) 0xff, 0, 0, 0, 0, 0, 0};
    assertThat(HighWaters.below(high, low)).as("unsigned").isEqualTo(0xff00_0000_0000_0000L);
  }

  @Test
  void aClientNeverSeenHasNoRowsUntilOneIsPut() throws Exception {
    insert(row("c", 9));
    assertThat(lookup("new", 1).row()).isNull(); // learns an empty partition
    insert(row("new", 1));
    assertThat(lookup("new", 1).row()).usingRecursiveComparison().isEqualTo(row("new", 1));
    Lookup after = lookup("new", 2);
    assertThat(after.row()).isNull();
    assertThat(after.counts().keysRead()).isZero();
  }

  @Test
  void marksAreLearntAgainAfterAReopen() throws Exception {
    insert(row("d", 7));
    storage.close();
    storage = Storages.open(DalConfig.embeddedInMemory(name));

    assertThat(lookup("d", 7).row()).usingRecursiveComparison().isEqualTo(row("d", 7));
    Lookup next = lookup("d", 8);
    assertThat(next.row()).isNull();
    assertThat(next.counts().keysRead()).isZero();
  }

  @Test
  void aMarkStaysAboveAWriteInFlightWhenSettledMarksAreDropped() throws Exception {
    RocksStore store = ((EmbeddedStorage) storage).store();
    PrefixReads reader = new PrefixReads(store);
    HighWaters marks = new HighWaters(4);
    KeyBytes p = partition("flying");
    byte[] k = rowKey("flying", 5);

    // A commit raised its key and is still writing it: the store does not hold it yet.
    marks.raisePartition(p, k);
    for (int i = 0; i < 20; i++) {
      assertThat(marks.partitionNeverHeld(reader, partition("other-" + i), rowKey("other-" + i, 1)))
          .isTrue();
    }
    assertThat(marks.partitionMarks()).isLessThanOrEqualTo(5);
    assertThat(marks.partitionNeverHeld(reader, p, k))
        .as("the mark kept through the drops")
        .isFalse();

    // Settled (here: the write failed, nothing is in the store), it may be dropped and learnt
    // again.
    marks.settlePartition(p);
    for (int i = 20; i < 30; i++) {
      marks.partitionNeverHeld(reader, partition("other-" + i), rowKey("other-" + i, 1));
    }
    assertThat(marks.partitionNeverHeld(reader, p, k)).as("learnt again from the store").isTrue();
  }

  @Test
  void aRowReadWhileItsCommitReturnsIsFoundByEveryLaterLookup() throws Exception {
    int calls = 500;
    AtomicReference<Throwable> failed = new AtomicReference<>();
    Thread writer =
        new Thread(
            () -> {
              try {
                for (int c = 1; c <= calls; c++) {
                  insert(row("e", c));
                }
              } catch (Throwable e) {
                failed.set(e);
              }
            });
    writer.start();
    try {
      for (int c = 1; c <= calls && failed.get() == null; c++) {
        long deadline = System.nanoTime() + 10_000_000_000L;
        RetryCacheRow seen = null;
        while (seen == null && System.nanoTime() < deadline && failed.get() == null) {
          try (Transaction tx = storage.begin()) {
            seen = tx.find(T, T.key(client("e"), c), LockMode.READ_COMMITTED);
          }
        }
        assertThat(seen).as("call %d", c).usingRecursiveComparison().isEqualTo(row("e", c));
        assertThat(lookup("e", c).row())
            .as("call %d, locked", c)
            .usingRecursiveComparison()
            .isEqualTo(row("e", c));
      }
    } finally {
      writer.join();
    }
    assertThat(failed.get()).isNull();
  }

  private record Lookup(RetryCacheRow row, AccessCounts counts) {}

  private Lookup lookup(String client, int call) throws Exception {
    try (Transaction tx = storage.begin()) {
      RetryCacheRow row = tx.find(T, T.key(client(client), call), LockMode.EXCLUSIVE);
      tx.commit();
      return new Lookup(row, tx.accessCounts());
    }
  }

  private void insert(RetryCacheRow... rows) throws Exception {
    try (Transaction tx = storage.begin()) {
      for (RetryCacheRow r : rows) {
        tx.insert(T, r);
      }
      tx.commit();
    }
  }

  private static RetryCacheRow row(String client, int call) {
    return new RetryCacheRow(client(client), call, (byte) 1, 60_000L, new byte[] {(byte) call});
  }

  /** A 16-byte client id named {@code name}. */
  private static byte[] client(String name) {
    return Arrays.copyOf(name.getBytes(StandardCharsets.UTF_8), 16);
  }

  private static KeyBytes partition(String client) {
    return STORED.partitionSpace(STORED.rowKeyBytes(T.key(client(client), 0)));
  }

  private static byte[] rowKey(String client, int call) {
    return STORED.rowKey(T.key(client(client), call));
  }
}
