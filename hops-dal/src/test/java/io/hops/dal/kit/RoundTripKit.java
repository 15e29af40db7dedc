package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.KeyRange;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.ColumnType;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;

/**
 * Every row type is written and read back unchanged, at the edges of every column type; rows over a
 * limit are refused before anything is sent; update, delete and duplicate inserts touch exactly
 * what they should.
 */
public abstract class RoundTripKit extends DalKit {
  /** A retry-cache client id, for the range-delete tests. */
  private static final byte[] CLIENT = "client-a".getBytes(StandardCharsets.UTF_8);

  @Test
  public void everyRowTypeRoundTripsTypicalValuesAtEveryLockMode() {
    forEveryTable(this::roundTripTypical);
  }

  @Test
  public void everyRowTypeRoundTripsANullInEveryNullableColumn() {
    assertThat(Tables.ALL.stream().flatMap(t -> t.columns().stream()).filter(Column::nullable))
        .as("the schema has nullable columns to test")
        .isNotEmpty();
    forEveryTable(this::roundTripNulls);
  }

  @Test
  public void everyRowTypeRoundTripsMinimumValuesFalseEmptyStringsAndEmptyByteArrays() {
    forEveryTable(this::roundTripMinimum);
  }

  @Test
  public void everyRowTypeRoundTripsMaximumValuesTrueAndValuesOfExactlyTheMaximumLength() {
    forEveryTable(this::roundTripMaximum);
  }

  @Test
  public void extremeKeysCoexistAndScanInPrimaryKeyOrder() {
    forEveryTable(this::extremesInKeyOrder);
  }

  @Test
  public void aStringOneByteOverItsLimitIsRefusedAtInsertNamingTheColumnAndNothingIsWritten() {
    assertOverLimitInsertsRefused(ColumnType.STRING);
  }

  @Test
  public void aByteArrayOneByteOverItsLimitIsRefusedAtInsertNamingTheColumnAndNothingIsWritten() {
    assertOverLimitInsertsRefused(ColumnType.BYTES);
  }

  @Test
  public void aNullKeyIsRefusedAtInsertNamingTheColumnAndNothingIsWritten() {
    List<String> checked = new ArrayList<>();
    forEveryTable(t -> checked.addAll(nullKeysRefused(t)));
    assertThat(checked).as("key columns of reference type").contains("inodes.name");
  }

  @Test
  public void anUpdateOverALimitIsRefusedNamingTheColumnAndTheRowKeepsItsValues() {
    forEveryTable(this::overLimitUpdateRefused);
  }

  @Test
  public void updateChangesExactlyOneRow() {
    forEveryTable(this::updateChangesOneRow);
  }

  @Test
  public void deleteRemovesExactlyThatRow() {
    forEveryTable(this::deleteRemovesOneRow);
  }

  @Test
  public void aRangeDeleteRemovesTheRowsBetweenItsKeysAndNoOthers() {
    List<String> tested = new ArrayList<>();
    forEveryTable(
        t -> {
          if (KeyRange.supports(t)) {
            rangeDeleteRemovesItsRows(t);
            tested.add(t.name());
          }
        });
    assertThat(tested)
        .as("tables without indexes, keyed by an integer last")
        .contains("retry_cache");
  }

  @Test
  public void aRangeDeleteOfATableWithIndexesAcrossPartitionsOrBackwardsIsRefused()
      throws Exception {
    Storage s = storage();
    Table<RetryCacheRow> t = RetryCacheRow.TABLE;
    try (Transaction tx = s.begin()) {
      assertThatThrownBy(
              () ->
                  tx.deleteRange(
                      InodeRow.TABLE, InodeRow.TABLE.key(1L, "a"), InodeRow.TABLE.key(1L, "b")))
          .isInstanceOf(IllegalArgumentException.class);
      assertThatThrownBy(
              () ->
                  tx.deleteRange(
                      t, t.key(CLIENT, 1), t.key("client-b".getBytes(StandardCharsets.UTF_8), 2)))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("last column only");
      assertThatThrownBy(() -> tx.deleteRange(t, t.key(CLIENT, 2), t.key(CLIENT, 1)))
          .isInstanceOf(IllegalArgumentException.class);
      tx.rollback();
    }
  }

  @Test
  public void aTransactionThatWritesARowWithinARangeItDeletesIsRefusedAndWritesNothing()
      throws Exception {
    Storage s = storage();
    Table<RetryCacheRow> t = RetryCacheRow.TABLE;
    RetryCacheRow kept = new RetryCacheRow(CLIENT, 1, (byte) 1, 5L, new byte[] {1});
    insertCommitted(s, t, kept);
    RetryCacheRow elsewhere = new RetryCacheRow(CLIENT, 9, (byte) 1, 5L, new byte[] {9});
    try (Transaction tx = s.begin()) {
      tx.deleteRange(t, t.key(CLIENT, 0), t.key(CLIENT, 4));
      tx.insert(t, elsewhere);
      tx.insert(t, new RetryCacheRow(CLIENT, 3, (byte) 1, 5L, new byte[] {3}));
      assertThatThrownBy(tx::commit).isInstanceOf(IllegalArgumentException.class);
    }
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, List.of(kept)));
    try (Transaction tx = s.begin()) {
      tx.deleteRange(t, t.key(CLIENT, 0), t.key(CLIENT, 4));
      tx.rollback();
    }
    assertThat(readAll(s, t)).as("rolled back").isEqualTo(Cells.inKeyOrder(t, List.of(kept)));
  }

  @Test
  public void insertOfAnExistingKeyFailsAtCommitWithDuplicateKeyAndLeavesNothingOfTheTransaction() {
    forEveryTable(this::duplicateInsertFails);
  }

  @Test
  public void aDeferredCommitIsVisibleAndUnlockedAtOnceAndItsStageCompletes() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow row = SampleRows.typical(t, 1);
    java.util.concurrent.CompletionStage<Void> durable;
    try (Transaction tx = s.begin()) {
      tx.find(t, t.keyOf(row), LockMode.EXCLUSIVE);
      tx.insert(t, row);
      durable = tx.commitDeferred();
      assertThatThrownBy(tx::commit).isInstanceOf(IllegalStateException.class);
    }
    // Visible and its lock released before (or whether or not) it is durable.
    try (Transaction other = s.begin()) {
      assertThat(cells(t, other.find(t, t.keyOf(row), LockMode.EXCLUSIVE)))
          .isEqualTo(cells(t, row));
      other.commit();
    }
    durable.toCompletableFuture().get(PROMPT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
    s.durable().toCompletableFuture().get(PROMPT_SECONDS, java.util.concurrent.TimeUnit.SECONDS);
  }

  @Test
  public void netChangesOfOneTransactionReachTheDatabase() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow replaced = SampleRows.typical(t, 1);
    InodeRow updatedThenDeleted = SampleRows.typical(t, 2);
    insertCommitted(s, t, replaced, updatedThenDeleted);
    InodeRow replacement = SampleRows.withKeyOf(t, SampleRows.typical(t, 11), replaced);
    InodeRow insertedThenUpdated = SampleRows.typical(t, 3);
    InodeRow update = SampleRows.withKeyOf(t, SampleRows.typical(t, 13), insertedThenUpdated);
    InodeRow insertedThenDeleted = SampleRows.typical(t, 4);
    try (Transaction tx = s.begin()) {
      tx.delete(t, replaced);
      tx.insert(t, replacement);
      tx.insert(t, insertedThenUpdated);
      tx.update(t, update);
      tx.insert(t, insertedThenDeleted);
      tx.delete(t, insertedThenDeleted);
      tx.update(t, SampleRows.withKeyOf(t, SampleRows.typical(t, 12), updatedThenDeleted));
      tx.delete(t, t.keyOf(updatedThenDeleted));
      tx.commit();
    }
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, List.of(replacement, update)));
  }

  @Test
  public void aRowMovedToANewKeyInOneTransactionKeepsItsIndexedId() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow before = SampleRows.typical(t, 1);
    insertCommitted(s, t, before);
    InodeRow after =
        SampleRows.with(t, SampleRows.with(t, before, "name", "renamed"), "parent_id", 77L);
    after = SampleRows.inPartition(t, after, 77L);
    try (Transaction tx = s.begin()) {
      tx.delete(t, before);
      tx.insert(t, after);
      tx.commit();
    }
    try (Transaction tx = s.begin()) {
      assertThat(Cells.ofAll(t, tx.findByIndex(t, "id", before.id(), LockMode.READ_COMMITTED)))
          .containsExactly(cells(t, after));
      assertThat(tx.find(t, t.keyOf(before), LockMode.READ_COMMITTED)).isNull();
      tx.commit();
    }
  }

  @Test
  public void readsDoNotSeeTheTransactionsOwnBufferedWrites() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    InodeRow committed = SampleRows.typical(t, 1);
    insertCommitted(s, t, committed);
    InodeRow buffered =
        SampleRows.inPartition(t, SampleRows.typical(t, 2), committed.partitionId());
    try (Transaction tx = s.begin()) {
      tx.insert(t, buffered);
      tx.update(t, SampleRows.withKeyOf(t, SampleRows.typical(t, 3), committed));
      assertThat(tx.find(t, t.keyOf(buffered), LockMode.READ_COMMITTED)).isNull();
      assertThat(cells(t, tx.find(t, t.keyOf(committed), LockMode.READ_COMMITTED)))
          .isEqualTo(cells(t, committed));
      assertThat(Cells.ofAll(t, tx.findByPartition(t, committed.partitionId(), LockMode.SHARED)))
          .containsExactly(cells(t, committed));
      tx.rollback();
    }
  }

  private <R extends Record> void roundTripTypical(Table<R> t) throws Exception {
    roundTrip(t, List.of(SampleRows.typical(t, 1), SampleRows.typical(t, 2)));
  }

  private <R extends Record> void roundTripNulls(Table<R> t) throws Exception {
    roundTrip(t, List.of(SampleRows.withNulls(t, 3)));
  }

  private <R extends Record> void roundTripMinimum(Table<R> t) throws Exception {
    roundTrip(t, List.of(SampleRows.minimum(t)));
  }

  private <R extends Record> void roundTripMaximum(Table<R> t) throws Exception {
    assertMaximumLengths(t);
    roundTrip(t, List.of(SampleRows.maximum(t)));
  }

  private <R extends Record> List<String> nullKeysRefused(Table<R> t) throws Exception {
    List<String> checked = new ArrayList<>();
    for (Column c : t.keyColumns()) {
      if (SampleRows.sized(c)) {
        checked.add(t.name() + "." + c.name());
        assertInsertRefused(t, SampleRows.with(t, SampleRows.typical(t, 1), c.name(), null), c);
      }
    }
    return checked;
  }

  private <R extends Record> List<String> overLimitInsertsRefused(Table<R> t, ColumnType type)
      throws Exception {
    List<String> checked = new ArrayList<>();
    for (Column c : t.columns()) {
      if (c.type() == type) {
        checked.add(t.name() + "." + c.name());
        assertInsertRefused(t, SampleRows.oneByteOver(t, c), c);
      }
    }
    return checked;
  }

  private <R extends Record> void roundTrip(Table<R> t, List<R> rows) throws Exception {
    Storage s = storage();
    insertCommitted(s, t, rows);
    for (LockMode mode : LockMode.values()) {
      try (Transaction tx = s.begin()) {
        for (R row : rows) {
          assertThat(cells(t, tx.find(t, t.keyOf(row), mode)))
              .as("%s read back at %s", t, mode)
              .isEqualTo(cells(t, row));
        }
        tx.commit();
      }
    }
    assertThat(readAll(s, t)).as("scan of %s", t).isEqualTo(Cells.inKeyOrder(t, rows));
  }

  private static <R extends Record> void assertMaximumLengths(Table<R> t) {
    R row = SampleRows.maximum(t);
    for (Column c : t.columns()) {
      Object v = t.get(row, c.position());
      if (c.type() == ColumnType.STRING) {
        String s = (String) v;
        assertThat(s.getBytes(StandardCharsets.UTF_8)).hasSize(c.maxBytes());
        if (c.maxBytes() >= 10) {
          assertThat(s).contains("é", "€", "\uD83D\uDE00");
        }
      } else if (c.type() == ColumnType.BYTES) {
        byte[] bytes = (byte[]) v;
        assertThat(bytes).hasSize(c.maxBytes()).contains(Byte.MIN_VALUE, Byte.MAX_VALUE);
        if (bytes.length >= 256) {
          assertThat(IntStream.range(0, bytes.length).map(i -> bytes[i]).distinct().count())
              .as("distinct byte values in %s.%s", t, c.name())
              .isEqualTo(256);
        }
      }
    }
  }

  private <R extends Record> void extremesInKeyOrder(Table<R> t) throws Exception {
    Storage s = storage();
    List<R> rows = List.of(SampleRows.maximum(t), SampleRows.typical(t, 5), SampleRows.minimum(t));
    insertCommitted(s, t, rows);
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, rows));
  }

  private void assertOverLimitInsertsRefused(ColumnType type) {
    List<String> checked = new ArrayList<>();
    forEveryTable(t -> checked.addAll(overLimitInsertsRefused(t, type)));
    assertThat(checked).as("columns of type %s", type).isNotEmpty();
  }

  /** The insert is refused at once naming the column; committing what is left writes nothing. */
  private <R extends Record> void assertInsertRefused(Table<R> t, R row, Column c)
      throws Exception {
    Storage s = storage();
    try (Transaction tx = s.begin()) {
      assertThatThrownBy(() -> tx.insert(t, row))
          .as("insert into %s with a bad %s", t, c.name())
          .isInstanceOf(StorageException.class)
          .hasMessageContaining(t.name() + "." + c.name());
      commitIfStillOpen(tx);
    }
    assertThat(readAll(s, t)).as("rows of %s after the refused insert", t).isEmpty();
  }

  private <R extends Record> void overLimitUpdateRefused(Table<R> t) throws Exception {
    Storage s = storage();
    R row = SampleRows.typical(t, 1);
    insertCommitted(s, t, row);
    for (Column c : t.columns()) {
      if (!SampleRows.sized(c) || c.primaryKey()) {
        continue;
      }
      R over = SampleRows.withKeyOf(t, SampleRows.oneByteOver(t, c), row);
      try (Transaction tx = s.begin()) {
        assertThatThrownBy(() -> tx.update(t, over))
            .as("update of %s with %s over its limit", t, c.name())
            .isInstanceOf(StorageException.class)
            .hasMessageContaining(t.name() + "." + c.name());
        commitIfStillOpen(tx);
      }
      assertThat(readAll(s, t)).containsExactly(cells(t, row));
    }
  }

  private static void commitIfStillOpen(Transaction tx) throws StorageException {
    try {
      tx.commit();
    } catch (IllegalStateException alreadyRolledBack) {
      // A driver may roll back on the refusal; then there is nothing to commit.
    }
  }

  /** Three rows, two of them in one partition when the key has room for that. */
  private static <R extends Record> List<R> threeRows(Table<R> t) {
    R a = SampleRows.typical(t, 1);
    R b = SampleRows.typical(t, 2);
    R c = SampleRows.typical(t, 3);
    if (t.keyColumns().size() > 1) {
      Object partition = t.get(b, t.partitionColumn().orElseThrow().position());
      c = SampleRows.inPartition(t, c, partition);
    }
    return List.of(a, b, c);
  }

  private <R extends Record> void updateChangesOneRow(Table<R> t) throws Exception {
    Storage s = storage();
    List<R> rows = threeRows(t);
    insertCommitted(s, t, rows);
    R changed = SampleRows.withKeyOf(t, SampleRows.typical(t, 102), rows.get(1));
    updateCommitted(s, t, changed);
    assertThat(readAll(s, t))
        .isEqualTo(Cells.inKeyOrder(t, List.of(rows.get(0), changed, rows.get(2))));
  }

  private <R extends Record> void deleteRemovesOneRow(Table<R> t) throws Exception {
    Storage s = storage();
    List<R> rows = threeRows(t);
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      tx.delete(t, t.keyOf(rows.get(1)));
      tx.commit();
    }
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, List.of(rows.get(0), rows.get(2))));
    assertThat(readCommitted(s, t, t.keyOf(rows.get(1)))).isNull();
    try (Transaction tx = s.begin()) {
      tx.delete(t, rows.get(2));
      tx.commit();
    }
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, List.of(rows.get(0))));
  }

  /**
   * Six rows in each of two runs (rows alike but for the key's last column), read once (so that an
   * engine that keeps rows has them); a range of the middle of one run goes, then a range of one
   * row, then one of no rows; the other run and the rows outside stay.
   */
  private <R extends Record> void rangeDeleteRemovesItsRows(Table<R> t) throws Exception {
    Storage s = storage();
    List<Column> keys = t.keyColumns();
    Column last = keys.get(keys.size() - 1);
    List<R> a = new ArrayList<>();
    List<R> b = new ArrayList<>();
    for (int v = 1; v <= 6; v++) {
      a.add(SampleRows.with(t, SampleRows.typical(t, 1), last.name(), number(last, v)));
      if (keys.size() > 1) {
        b.add(SampleRows.with(t, SampleRows.typical(t, 2), last.name(), number(last, v)));
      }
    }
    List<R> all = new ArrayList<>(a);
    all.addAll(b);
    insertCommitted(s, t, all);
    for (R r : all) {
      assertThat(readCommitted(s, t, t.keyOf(r))).isNotNull();
    }
    try (Transaction tx = s.begin()) {
      tx.deleteRange(t, t.keyOf(a.get(1)), t.keyOf(a.get(3)));
      tx.commit();
    }
    List<R> left = new ArrayList<>(List.of(a.get(0), a.get(4), a.get(5)));
    left.addAll(b);
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, left));
    for (int i = 1; i <= 3; i++) {
      assertThat(readCommitted(s, t, t.keyOf(a.get(i)))).isNull();
    }
    try (Transaction tx = s.begin()) {
      tx.deleteRange(t, t.keyOf(a.get(4)), t.keyOf(a.get(4)));
      tx.deleteRange(t, t.keyOf(a.get(2)), t.keyOf(a.get(3)));
      tx.commit();
    }
    left.remove(a.get(4));
    assertThat(readAll(s, t)).isEqualTo(Cells.inKeyOrder(t, left));
    assertThat(readCommitted(s, t, t.keyOf(a.get(4)))).isNull();
    assertThat(readCommitted(s, t, t.keyOf(a.get(5)))).isNotNull();
  }

  private static Object number(Column c, int v) {
    return switch (c.type()) {
      case BIGINT -> (long) v;
      case INT -> v;
      case SMALLINT -> (short) v;
      case TINYINT -> (byte) v;
      default -> throw new IllegalArgumentException(c + " is not a number");
    };
  }

  private <R extends Record> void duplicateInsertFails(Table<R> t) throws Exception {
    Storage s = storage();
    R existing = SampleRows.typical(t, 1);
    insertCommitted(s, t, existing);
    R fresh = SampleRows.typical(t, 5);
    R clash = SampleRows.withKeyOf(t, SampleRows.typical(t, 6), existing);
    Key freshKey = t.keyOf(fresh);
    try (Transaction tx = s.begin()) {
      tx.insert(t, fresh);
      tx.insert(t, clash);
      assertThatThrownBy(tx::commit)
          .as("commit of an insert of an existing key of %s", t)
          .isInstanceOf(DuplicateKeyException.class);
      assertThatThrownBy(() -> tx.find(t, freshKey, LockMode.READ_COMMITTED))
          .as("a failed transaction is unusable")
          .isInstanceOf(IllegalStateException.class);
    }
    assertThat(readAll(s, t)).containsExactly(cells(t, existing));
  }
}
