package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.PartitionFold;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.RetryCacheRow;
import io.hops.dal.rows.StorageRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.UserRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/**
 * The finders return exactly the rows they name: batched reads agree with single reads, scans
 * return their partition or index value and nothing else, in primary-key order, and strings compare
 * exactly.
 */
public abstract class FinderKit extends DalKit {
  private static final long[] PARTITIONS = {-7, 3, 1_000_000_007L, Long.MAX_VALUE};

  /** Strings a case-insensitive, padding or normalizing collation would confuse. */
  private static final List<String> LOOKALIKES =
      List.of("a", "A", "a ", "a  ", " a", "á", "a\u0301", "b", "B", "€", "\uD83D\uDE00", "");

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void batchedReadReturnsWhatSingleReadsReturnAlignedWithTheKeys(LockMode mode)
      throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    List<InodeRow> rows = inodesInPartitions();
    insertCommitted(s, t, rows);
    List<Key> keys = new ArrayList<>();
    keys.add(t.keyOf(rows.get(5)));
    keys.add(t.key(PARTITIONS[0], 1L, "missing"));
    keys.add(t.keyOf(rows.get(0)));
    keys.add(t.keyOf(rows.get(5)));
    keys.add(t.keyOf(rows.get(rows.size() - 1)));
    keys.add(t.key(42L, 42L, "also missing"));
    try (Transaction tx = s.begin()) {
      List<InodeRow> batch = tx.findBatch(t, keys, mode);
      List<InodeRow> singles = new ArrayList<>();
      for (Key k : keys) {
        singles.add(tx.find(t, k, mode));
      }
      assertThat(Cells.ofAll(t, batch)).isEqualTo(Cells.ofAll(t, singles));
      assertThat(Cells.ofAll(t, batch))
          .containsExactly(
              cells(t, rows.get(5)),
              null,
              cells(t, rows.get(0)),
              cells(t, rows.get(5)),
              cells(t, rows.get(rows.size() - 1)),
              null);
      tx.commit();
    }
  }

  @Test
  public void batchedReadOfMissingKeysReturnsNullsAndOfOneKeyReturnsOneRow() throws Exception {
    Storage s = storage();
    Table<BlockInfoRow> t = BlockInfoRow.TABLE;
    BlockInfoRow row = SampleRows.typical(t, 1);
    insertCommitted(s, t, row);
    try (Transaction tx = s.begin()) {
      assertThat(tx.findBatch(t, List.of(t.key(1L, 2L), t.key(3L, 4L)), LockMode.READ_COMMITTED))
          .containsExactly(null, null);
      assertThat(Cells.ofAll(t, tx.findBatch(t, List.of(t.keyOf(row)), LockMode.SHARED)))
          .containsExactly(cells(t, row));
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void partitionScanReturnsExactlyThatPartitionInPrimaryKeyOrder(LockMode mode)
      throws Exception {
    Storage s = storage();
    List<InodeRow> inodes = inodesInPartitions();
    List<BlockInfoRow> blocks = blocksInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    insertCommitted(s, BlockInfoRow.TABLE, blocks);
    try (Transaction tx = s.begin()) {
      for (long p : PARTITIONS) {
        assertThat(Cells.ofAll(InodeRow.TABLE, tx.findByPartition(InodeRow.TABLE, p, mode)))
            .as("inodes of partition %s", p)
            .isEqualTo(expected(InodeRow.TABLE, inodes, r -> r.partitionId() == p));
        assertThat(Cells.ofAll(BlockInfoRow.TABLE, tx.findByPartition(BlockInfoRow.TABLE, p, mode)))
            .as("blocks of file %s", p)
            .isEqualTo(expected(BlockInfoRow.TABLE, blocks, r -> r.inodeId() == p));
      }
      assertThat(tx.findByPartition(InodeRow.TABLE, 12345L, mode)).isEmpty();
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void scanOfSeveralPartitionsReturnsEachInTheOrderAskedInPrimaryKeyOrder(LockMode mode)
      throws Exception {
    Storage s = storage();
    List<BlockInfoRow> blocks = blocksInPartitions();
    insertCommitted(s, BlockInfoRow.TABLE, blocks);
    List<Long> asked = List.of(PARTITIONS[2], 12345L, PARTITIONS[0], PARTITIONS[3]);
    List<List<Object>> expected = new ArrayList<>();
    for (long p : asked) {
      expected.addAll(expected(BlockInfoRow.TABLE, blocks, r -> r.inodeId() == p));
    }
    try (Transaction tx = s.begin()) {
      assertThat(
              Cells.ofAll(BlockInfoRow.TABLE, tx.findByPartitions(BlockInfoRow.TABLE, asked, mode)))
          .isEqualTo(expected);
      assertThat(
              Cells.ofAll(
                  BlockInfoRow.TABLE,
                  tx.findByPartitions(BlockInfoRow.TABLE, List.of(PARTITIONS[1]), mode)))
          .isEqualTo(expected(BlockInfoRow.TABLE, blocks, r -> r.inodeId() == PARTITIONS[1]));
      assertThat(tx.findByPartitions(BlockInfoRow.TABLE, List.of(), mode)).isEmpty();
      tx.commit();
    }
  }

  /** A partition's rows as cells, in the order given: a fold that keeps every column. */
  private static final PartitionFold<InodeRow, List<List<Object>>> CELLS =
      rows -> Cells.ofAll(InodeRow.TABLE, rows);

  @Test
  public void aFoldSummarizesExactlyItsPartitionAsLastCommitted() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, t, inodes);
    for (int round = 0; round < 2; round++) { // the second may be answered from what was kept
      try (Transaction tx = s.begin()) {
        for (long p : PARTITIONS) {
          assertThat(tx.foldPartition(t, p, CELLS))
              .as("inodes of partition %s", p)
              .isEqualTo(expected(t, inodes, r -> r.partitionId() == p));
        }
        assertThat(tx.foldPartition(t, 12345L, CELLS)).isEmpty();
        tx.commit();
      }
    }
    // Commits into a partition (an update, a delete, an insert) and into another one.
    long p = PARTITIONS[1];
    List<InodeRow> mine =
        new ArrayList<>(inodes.stream().filter(r -> r.partitionId() == p).toList());
    InodeRow grown = SampleRows.with(t, mine.get(0), "size", 987_654_321L);
    InodeRow added = SampleRows.with(t, mine.get(1), "name", "a new name");
    added = SampleRows.with(t, added, "id", 4_000_000_007L);
    InodeRow gone = mine.get(1);
    InodeRow elsewhere = SampleRows.inPartition(t, SampleRows.typical(t, 99), PARTITIONS[2]);
    try (Transaction tx = s.begin()) {
      tx.update(t, grown);
      tx.delete(t, gone);
      tx.insert(t, added);
      tx.insert(t, elsewhere);
      tx.commit();
    }
    List<InodeRow> now = new ArrayList<>();
    for (InodeRow r : inodes) {
      if (r.equals(gone)) {
        continue;
      }
      now.add(r.equals(mine.get(0)) ? grown : r);
    }
    now.add(added);
    now.add(elsewhere);
    try (Transaction tx = s.begin()) {
      for (long q : PARTITIONS) {
        assertThat(tx.foldPartition(t, q, CELLS))
            .as("inodes of partition %s after the commit", q)
            .isEqualTo(expected(t, now, r -> r.partitionId() == q));
      }
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void pagesFromACursorReadAPartitionOrTheTableInPrimaryKeyOrder(LockMode mode)
      throws Exception {
    Storage s = storage();
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    Table<InodeRow> t = InodeRow.TABLE;
    try (Transaction tx = s.begin()) {
      for (long p : PARTITIONS) {
        List<List<Object>> whole = expected(t, inodes, r -> r.partitionId() == p);
        for (int limit : new int[] {1, 2, 3, 1000}) {
          assertThat(Cells.ofAll(t, pages(tx, t, p, limit, mode)))
              .as("partition %s in pages of %s", p, limit)
              .isEqualTo(whole);
        }
        // A cursor that names no row: the page starts at the next one.
        List<InodeRow> rows = tx.findByPartition(t, p, LockMode.READ_COMMITTED);
        InodeRow first = rows.get(0);
        Key between = t.key(first.partitionId(), first.parentId(), first.name() + "\u0000");
        assertThat(Cells.ofAll(t, tx.scanFrom(t, p, between, 1000, mode)))
            .isEqualTo(whole.subList(1, whole.size()));
        InodeRow last = rows.get(rows.size() - 1);
        assertThat(tx.scanFrom(t, p, t.keyOf(last), 5, mode)).isEmpty();
      }
      assertThat(tx.scanFrom(t, 12345L, null, 5, mode)).isEmpty();
      List<List<Object>> all = expected(t, inodes, r -> true);
      assertThat(Cells.ofAll(t, pages(tx, t, null, 4, mode))).isEqualTo(all);
      assertThat(Cells.ofAll(t, tx.scanFrom(t, null, null, 3, mode))).isEqualTo(all.subList(0, 3));
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void pagesOfAnIndexValueReadItsRowsInPrimaryKeyOrder(LockMode mode) throws Exception {
    Storage s = storage();
    Table<UnderReplicatedBlockRow> t = UnderReplicatedBlockRow.TABLE;
    List<UnderReplicatedBlockRow> rows = new ArrayList<>();
    int seed = 0;
    for (long p : PARTITIONS) {
      for (long block : new long[] {-300, -1, 0, 7, Long.MAX_VALUE}) {
        UnderReplicatedBlockRow r = SampleRows.inPartition(t, SampleRows.typical(t, ++seed), p);
        r = SampleRows.with(t, r, "block_id", block);
        rows.add(SampleRows.with(t, r, "level", seed % 3));
      }
    }
    Collections.shuffle(rows, new Random(7));
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      for (int level = 0; level < 3; level++) {
        int l = level;
        List<List<Object>> whole = expected(t, rows, r -> r.level() == l);
        for (int limit : new int[] {1, 2, 3, 1000}) {
          List<UnderReplicatedBlockRow> read = new ArrayList<>();
          Key after = null;
          while (true) {
            List<UnderReplicatedBlockRow> page =
                tx.findByIndexFrom(t, "level", level, after, limit, mode);
            assertThat(page.size()).isLessThanOrEqualTo(limit);
            read.addAll(page);
            if (page.size() < limit) {
              break;
            }
            after = t.keyOf(page.get(page.size() - 1));
          }
          assertThat(Cells.ofAll(t, read))
              .as("level %s in pages of %s", level, limit)
              .isEqualTo(whole);
        }
        // A cursor that names no row of the value: the page starts at the next one.
        UnderReplicatedBlockRow first = tx.findByIndex(t, "level", level, mode).get(0);
        Key between = t.key(first.inodeId(), first.blockId() + 1);
        assertThat(Cells.ofAll(t, tx.findByIndexFrom(t, "level", level, between, 1000, mode)))
            .isEqualTo(whole.subList(1, whole.size()));
      }
      assertThat(tx.findByIndexFrom(t, "level", 99, null, 5, mode)).isEmpty();

      // A unique index: the one row, or none after it.
      Table<InodeRow> inodes = InodeRow.TABLE;
      InodeRow inode = SampleRows.typical(inodes, 1);
      insertCommitted(s, inodes, inode);
      Key key = inodes.keyOf(inode);
      assertThat(Cells.ofAll(inodes, tx.findByIndexFrom(inodes, "id", inode.id(), null, 5, mode)))
          .containsExactly(cells(inodes, inode));
      assertThat(tx.findByIndexFrom(inodes, "id", inode.id(), key, 5, mode)).isEmpty();
      tx.commit();
    }
  }

  /** Every row, read page by page with the last key of each page as the cursor. */
  private static <R extends Record> List<R> pages(
      Transaction tx, Table<R> t, Object partition, int limit, LockMode mode) throws Exception {
    List<R> out = new ArrayList<>();
    Key after = null;
    while (true) {
      List<R> page = tx.scanFrom(t, partition, after, limit, mode);
      assertThat(page.size()).isLessThanOrEqualTo(limit);
      out.addAll(page);
      if (page.size() < limit) {
        return out;
      }
      after = t.keyOf(page.get(page.size() - 1));
    }
  }

  @Test
  public void partitionScanOverStringAndByteArrayPartitionsReturnsExactlyThatPartition()
      throws Exception {
    Storage s = storage();
    Table<RetryCacheRow> t = RetryCacheRow.TABLE;
    List<RetryCacheRow> rows = new ArrayList<>();
    byte[][] clients = {{1, 2, 3}, {1, 2, 3, 0}, {1, 2}, {(byte) 0xff}, {}};
    int seed = 0;
    for (byte[] client : clients) {
      for (int call : new int[] {5, -1, Integer.MAX_VALUE, 0}) {
        RetryCacheRow r = SampleRows.inPartition(t, SampleRows.typical(t, ++seed), client);
        rows.add(SampleRows.with(t, r, "call_id", call));
      }
    }
    Collections.shuffle(rows, new Random(1));
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      for (byte[] client : clients) {
        assertThat(Cells.ofAll(t, tx.findByPartition(t, client, LockMode.READ_COMMITTED)))
            .as("retry cache of client %s", new Cells.Bytes(client))
            .isEqualTo(expected(t, rows, r -> Arrays.equals(r.clientId(), client)));
      }
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void partitionScanWithAnExtraEqualityReturnsOnlyMatchingRowsOfThatPartition(LockMode mode)
      throws Exception {
    Storage s = storage();
    Table<ReplicaRow> t = ReplicaRow.TABLE;
    List<ReplicaRow> rows = new ArrayList<>();
    int seed = 0;
    for (long file : PARTITIONS) {
      for (long block : new long[] {-3, 8, 9}) {
        for (int storage : new int[] {2, 1, -4}) {
          ReplicaRow r = new ReplicaRow(file, block, storage, ++seed);
          rows.add(r);
        }
      }
    }
    Collections.shuffle(rows, new Random(2));
    insertCommitted(s, t, rows);
    Table<InodeRow> inodes = InodeRow.TABLE;
    List<InodeRow> inodeRows = inodesInPartitions();
    insertCommitted(s, inodes, inodeRows);
    try (Transaction tx = s.begin()) {
      for (long file : PARTITIONS) {
        assertThat(Cells.ofAll(t, tx.findByPartition(t, file, "block_id", 8L, mode)))
            .as("replicas of block 8 of file %s", file)
            .isEqualTo(expected(t, rows, r -> r.inodeId() == file && r.blockId() == 8));
        assertThat(Cells.ofAll(t, tx.findByPartition(t, file, "block_id", 10L, mode))).isEmpty();
        assertThat(Cells.ofAll(inodes, tx.findByPartition(inodes, file, "name", "A", mode)))
            .as("inodes named A in partition %s", file)
            .isEqualTo(
                expected(inodes, inodeRows, r -> r.partitionId() == file && r.name().equals("A")));
      }
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void indexScanReturnsExactlyTheMatchingRowsAcrossPartitionsInPrimaryKeyOrder(LockMode mode)
      throws Exception {
    Storage s = storage();
    Table<ReplicaRow> t = ReplicaRow.TABLE;
    List<ReplicaRow> rows = new ArrayList<>();
    int seed = 0;
    for (long file : PARTITIONS) {
      for (long block : new long[] {4, -4}) {
        for (int storage : new int[] {7, 70, -7}) {
          rows.add(new ReplicaRow(file, block, storage, ++seed));
        }
      }
    }
    Collections.shuffle(rows, new Random(3));
    insertCommitted(s, t, rows);
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    try (Transaction tx = s.begin()) {
      for (int storage : new int[] {7, 70, -7}) {
        assertThat(Cells.ofAll(t, tx.findByIndex(t, "storage_id", storage, mode)))
            .as("replicas on storage %s", storage)
            .isEqualTo(expected(t, rows, r -> r.storageId() == storage));
      }
      assertThat(tx.findByIndex(t, "storage_id", 8, mode)).isEmpty();
      InodeRow one = inodes.get(3);
      assertThat(Cells.ofAll(InodeRow.TABLE, tx.findByIndex(InodeRow.TABLE, "id", one.id(), mode)))
          .containsExactly(cells(InodeRow.TABLE, one));
      tx.commit();
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void indexScanOfSeveralValuesReturnsEachInTheOrderAskedInPrimaryKeyOrder(LockMode mode)
      throws Exception {
    Storage s = storage();
    Table<ReplicaRow> t = ReplicaRow.TABLE;
    List<ReplicaRow> rows = new ArrayList<>();
    int seed = 0;
    for (long file : PARTITIONS) {
      for (int storage : new int[] {7, 70, -7}) {
        rows.add(new ReplicaRow(file, 4, storage, ++seed));
      }
    }
    insertCommitted(s, t, rows);
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    try (Transaction tx = s.begin()) {
      List<List<Object>> expected = new ArrayList<>();
      for (int storage : new int[] {-7, 7}) {
        expected.addAll(expected(t, rows, r -> r.storageId() == storage));
      }
      assertThat(Cells.ofAll(t, tx.findByIndexIn(t, "storage_id", List.of(-7, 8, 7), mode)))
          .isEqualTo(expected);
      InodeRow a = inodes.get(3);
      InodeRow b = inodes.get(0);
      assertThat(
              Cells.ofAll(
                  InodeRow.TABLE,
                  tx.findByIndexIn(InodeRow.TABLE, "id", List.of(a.id(), -99L, b.id()), mode)))
          .containsExactly(cells(InodeRow.TABLE, a), cells(InodeRow.TABLE, b));
      assertThat(tx.findByIndexIn(t, "storage_id", List.of(), mode)).isEmpty();
      tx.commit();
    }
  }

  @Test
  public void keysByIndexAreThePrimaryKeysOfTheIndexScansRowsInOrder() throws Exception {
    Storage s = storage();
    Table<ReplicaRow> t = ReplicaRow.TABLE;
    List<ReplicaRow> rows = new ArrayList<>();
    int seed = 0;
    for (long file : PARTITIONS) {
      for (long block : new long[] {4, -4, Long.MIN_VALUE, Long.MAX_VALUE}) {
        for (int storage : new int[] {7, -7, Integer.MIN_VALUE}) {
          rows.add(new ReplicaRow(file, block, storage, ++seed));
        }
      }
    }
    Collections.shuffle(rows, new Random(5));
    insertCommitted(s, t, rows);
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    try (Transaction tx = s.begin()) {
      for (int storage : new int[] {7, -7, Integer.MIN_VALUE, 8}) {
        List<Key> expected = new ArrayList<>();
        for (ReplicaRow r : tx.findByIndex(t, "storage_id", storage, LockMode.READ_COMMITTED)) {
          expected.add(t.keyOf(r));
        }
        assertThat(tx.findKeysByIndex(t, "storage_id", storage))
            .as("keys of the replicas on storage %s", storage)
            .isEqualTo(expected);
        long[] blocks = expected.stream().mapToLong(k -> (Long) k.value(1)).sorted().toArray();
        assertThat(tx.findKeyLongsByIndex(t, "storage_id", storage, "block_id"))
            .as("block ids of the replicas on storage %s, sorted", storage)
            .isEqualTo(blocks);
        long[] files = expected.stream().mapToLong(k -> (Long) k.value(0)).sorted().toArray();
        assertThat(tx.findKeyLongsByIndex(t, "storage_id", storage, "inode_id"))
            .as("file ids of the replicas on storage %s, sorted", storage)
            .isEqualTo(files);
      }
      // String keys (names with escapes and multi-byte characters) decode exactly too.
      for (InodeRow one : inodes) {
        assertThat(tx.findKeysByIndex(InodeRow.TABLE, "id", one.id()))
            .containsExactly(InodeRow.TABLE.keyOf(one));
      }
      tx.commit();
    }
  }

  @Test
  public void indexScanOnAStringColumnMatchesExactly() throws Exception {
    Storage s = storage();
    Table<UserRow> t = UserRow.TABLE;
    List<UserRow> rows = new ArrayList<>();
    int seed = 0;
    for (String name : LOOKALIKES) {
      for (int i = 0; i < 2; i++) {
        rows.add(SampleRows.with(t, SampleRows.typical(t, ++seed), "name", name));
      }
    }
    Collections.shuffle(rows, new Random(4));
    insertCommitted(s, t, rows);
    Table<StorageRow> st = StorageRow.TABLE;
    List<StorageRow> storages = new ArrayList<>();
    for (String dn : LOOKALIKES) {
      storages.add(SampleRows.with(st, SampleRows.typical(st, ++seed), "datanode_uuid", dn));
    }
    insertCommitted(s, st, storages);
    try (Transaction tx = s.begin()) {
      for (String name : LOOKALIKES) {
        assertThat(Cells.ofAll(t, tx.findByIndex(t, "name", name, LockMode.READ_COMMITTED)))
            .as("users named '%s'", name)
            .isEqualTo(expected(t, rows, r -> r.name().equals(name)));
        assertThat(Cells.ofAll(st, tx.findByIndex(st, "datanode_uuid", name, LockMode.SHARED)))
            .as("storages of datanode '%s'", name)
            .isEqualTo(expected(st, storages, r -> r.datanodeUuid().equals(name)));
      }
      tx.commit();
    }
  }

  /**
   * A partition whose key is a string (a lease holder's files) holds exactly the rows of that
   * string: not those of a holder that differs in case, trailing spaces or normalization.
   */
  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void partitionScanOnAStringPartitionMatchesExactly(LockMode mode) throws Exception {
    Storage s = storage();
    Table<LeasePathRow> t = LeasePathRow.TABLE;
    List<LeasePathRow> rows = new ArrayList<>();
    int seed = 0;
    for (String holder : LOOKALIKES) {
      for (int i = 0; i < 3; i++) {
        rows.add(SampleRows.with(t, SampleRows.typical(t, ++seed), "holder", holder));
      }
    }
    Collections.shuffle(rows, new Random(5));
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      for (String holder : LOOKALIKES) {
        List<LeasePathRow> found = tx.findByPartition(t, holder, mode);
        assertThat(Cells.ofAll(t, found))
            .as("lease paths of holder '%s'", holder)
            .isEqualTo(expected(t, rows, r -> r.holder().equals(holder)));
        assertThat(found)
            .as("in key order")
            .isSortedAccordingTo(Comparator.comparingLong(LeasePathRow::inodeId));
      }
      tx.commit();
    }
  }

  @Test
  public void indexScanOnAColumnWithoutAnIndexIsRefused() throws Exception {
    try (Transaction tx = storage().begin()) {
      assertThatThrownBy(
              () -> tx.findByIndex(ReplicaRow.TABLE, "replica_index", 1, LockMode.READ_COMMITTED))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("replica_index");
    }
  }

  @ParameterizedTest
  @EnumSource(LockMode.class)
  public void scanAllReturnsEveryRowInPrimaryKeyOrder(LockMode mode) throws Exception {
    Storage s = storage();
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    List<BlockInfoRow> blocks = blocksInPartitions();
    insertCommitted(s, BlockInfoRow.TABLE, blocks);
    try (Transaction tx = s.begin()) {
      assertThat(Cells.ofAll(InodeRow.TABLE, tx.scanAll(InodeRow.TABLE, mode)))
          .isEqualTo(Cells.inKeyOrder(InodeRow.TABLE, inodes));
      assertThat(Cells.ofAll(BlockInfoRow.TABLE, tx.scanAll(BlockInfoRow.TABLE, mode)))
          .isEqualTo(Cells.inKeyOrder(BlockInfoRow.TABLE, blocks));
      assertThat(tx.scanAll(ReplicaRow.TABLE, mode)).isEmpty();
      tx.commit();
    }
  }

  @Test
  public void countAllCountsTheCommittedRowsOfThatTableOnly() throws Exception {
    Storage s = storage();
    List<InodeRow> inodes = inodesInPartitions();
    insertCommitted(s, InodeRow.TABLE, inodes);
    List<BlockInfoRow> blocks = blocksInPartitions();
    insertCommitted(s, BlockInfoRow.TABLE, blocks);
    try (Transaction tx = s.begin()) {
      assertThat(tx.countAll(InodeRow.TABLE)).isEqualTo(inodes.size());
      assertThat(tx.countAll(BlockInfoRow.TABLE)).isEqualTo(blocks.size());
      assertThat(tx.countAll(ReplicaRow.TABLE)).isZero();
      tx.delete(InodeRow.TABLE, inodes.get(0));
      tx.commit();
    }
    try (Transaction tx = s.begin()) {
      assertThat(tx.countAll(InodeRow.TABLE)).isEqualTo(inodes.size() - 1);
      tx.commit();
    }
  }

  @Test
  public void stringKeysCompareExactlyByCaseTrailingSpacesAndAccents() throws Exception {
    Storage s = storage();
    Table<LeaseRow> t = LeaseRow.TABLE;
    List<LeaseRow> rows = new ArrayList<>();
    int seed = 0;
    for (String holder : LOOKALIKES) {
      rows.add(SampleRows.with(t, SampleRows.typical(t, ++seed), "holder", holder));
    }
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      for (LeaseRow r : rows) {
        assertThat(cells(t, tx.find(t, t.keyOf(r), LockMode.READ_COMMITTED)))
            .as("lease of '%s'", r.holder())
            .isEqualTo(cells(t, r));
        assertThat(Cells.ofAll(t, tx.findByPartition(t, r.holder(), LockMode.READ_COMMITTED)))
            .containsExactly(cells(t, r));
      }
      assertThat(tx.find(t, t.key("c"), LockMode.READ_COMMITTED)).isNull();
      assertThat(tx.find(t, t.key("a   "), LockMode.READ_COMMITTED)).isNull();
      assertThat(Cells.ofAll(t, tx.scanAll(t, LockMode.READ_COMMITTED)))
          .isEqualTo(Cells.inKeyOrder(t, rows));
      tx.commit();
    }
  }

  @Test
  public void namesInOneDirectoryScanInByteOrder() throws Exception {
    Storage s = storage();
    Table<InodeRow> t = InodeRow.TABLE;
    List<InodeRow> rows = new ArrayList<>();
    int seed = 0;
    for (String name : LOOKALIKES) {
      rows.add(SampleRows.with(t, inode(9, ++seed), "name", name));
    }
    insertCommitted(s, t, rows);
    try (Transaction tx = s.begin()) {
      assertThat(Cells.ofAll(t, tx.findByPartition(t, 9L, LockMode.READ_COMMITTED)))
          .isEqualTo(Cells.inKeyOrder(t, rows));
      tx.commit();
    }
  }

  /** Rows of several partitions with signed ids and case-distinct names, in no useful order. */
  private static List<InodeRow> inodesInPartitions() {
    List<InodeRow> rows = new ArrayList<>();
    int seed = 0;
    for (long p : PARTITIONS) {
      for (String name : new String[] {"b", "A", "a", "é", "Z"}) {
        rows.add(SampleRows.with(InodeRow.TABLE, inode(p, ++seed), "name", name));
      }
      InodeRow other = SampleRows.with(InodeRow.TABLE, inode(p, ++seed), "parent_id", -p);
      rows.add(SampleRows.with(InodeRow.TABLE, other, "name", "A"));
    }
    Collections.shuffle(rows, new Random(5));
    return rows;
  }

  private static InodeRow inode(long partition, int seed) {
    InodeRow r =
        SampleRows.inPartition(InodeRow.TABLE, SampleRows.typical(InodeRow.TABLE, seed), partition);
    return SampleRows.with(InodeRow.TABLE, r, "parent_id", partition);
  }

  private static List<BlockInfoRow> blocksInPartitions() {
    List<BlockInfoRow> rows = new ArrayList<>();
    int seed = 0;
    for (long p : PARTITIONS) {
      for (long block : new long[] {Long.MIN_VALUE, -1, 0, 1, Long.MAX_VALUE, 300, -300}) {
        BlockInfoRow r =
            SampleRows.inPartition(
                BlockInfoRow.TABLE, SampleRows.typical(BlockInfoRow.TABLE, ++seed), p);
        rows.add(SampleRows.with(BlockInfoRow.TABLE, r, "block_id", block));
      }
    }
    Collections.shuffle(rows, new Random(6));
    return rows;
  }

  private static <R extends Record> List<List<Object>> expected(
      Table<R> t, List<R> rows, Predicate<R> filter) {
    return Cells.inKeyOrder(t, rows.stream().filter(filter).toList());
  }
}
