package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InMemoryFileDataRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Inode ids at the edges of every width a driver might put an id in (a varint's 7-bit groups, 3 and
 * 4 bytes, an int's sign, 32 bits, a double's exact integers): the rows keyed by each, an inode in
 * the partition of its id and the file's bytes, are found by key, batch, partition and unique
 * index, updated and deleted, and never answer for an id that differs in the bits a narrower width
 * would drop. Issue 59's build of 10 M files stopped past 2^21 inodes; the ids were not the cause
 * (an empty value of RocksDB's {@code keyMayExist} was), and this keeps them from becoming one.
 */
public abstract class IdBoundaryKit extends DalKit {
  /** Each width's last id, its first past it, and the next. */
  static final List<Long> IDS = ids();

  private static List<Long> ids() {
    Set<Long> ids = new TreeSet<>();
    for (int bits : new int[] {7, 8, 14, 16, 21, 24, 28, 31, 32, 35, 53, 62}) {
      long edge = 1L << bits;
      ids.addAll(List.of(edge - 1, edge, edge + 1));
    }
    ids.add(Long.MAX_VALUE);
    return List.copyOf(ids);
  }

  @Test
  public void rowsKeyedByIdsAtEveryWidthsEdgeAreFoundUpdatedAndDeletedEachApart() throws Exception {
    Storage s = storage();
    List<InodeRow> inodes = new ArrayList<>();
    List<InMemoryFileDataRow> data = new ArrayList<>();
    for (long id : IDS) {
      inodes.add(inode(id, 100));
      data.add(new InMemoryFileDataRow(id, bytesOf(id)));
    }
    try (Transaction tx = s.begin()) {
      for (int i = 0; i < IDS.size(); i++) {
        tx.insert(InodeRow.TABLE, inodes.get(i));
        tx.insert(InMemoryFileDataRow.TABLE, data.get(i));
      }
      tx.commit();
    }
    assertEachIdFindsItsRows(s, inodes, data);

    List<InodeRow> updated = new ArrayList<>();
    for (long id : IDS) {
      updated.add(inode(id, id));
    }
    try (Transaction tx = s.begin()) {
      for (InodeRow r : updated) {
        tx.update(InodeRow.TABLE, r);
      }
      tx.commit();
    }
    assertEachIdFindsItsRows(s, updated, data);

    try (Transaction tx = s.begin()) {
      for (int i = 0; i < IDS.size(); i += 2) {
        tx.delete(InodeRow.TABLE, updated.get(i));
        tx.delete(InMemoryFileDataRow.TABLE, InMemoryFileDataRow.TABLE.keyOf(data.get(i)));
      }
      tx.commit();
    }
    try (Transaction tx = s.begin()) {
      for (int i = 0; i < IDS.size(); i++) {
        long id = IDS.get(i);
        boolean kept = i % 2 == 1;
        assertThat(tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(updated.get(i)), LockMode.SHARED))
            .as("inode %s", id)
            .isEqualTo(kept ? updated.get(i) : null);
        assertThat(tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED))
            .as("inode %s by id", id)
            .hasSize(kept ? 1 : 0);
        assertThat(tx.find(InMemoryFileDataRow.TABLE, dataKey(id), LockMode.READ_COMMITTED))
            .as("data of %s", id)
            .matches(r -> kept ? r != null && r.inodeId() == id : r == null);
      }
      assertThat(tx.countAll(InodeRow.TABLE)).isEqualTo(IDS.size() / 2);
      tx.commit();
    }
  }

  private static void assertEachIdFindsItsRows(
      Storage s, List<InodeRow> inodes, List<InMemoryFileDataRow> data) throws Exception {
    Table<InodeRow> t = InodeRow.TABLE;
    try (Transaction tx = s.begin()) {
      List<Key> keys = new ArrayList<>();
      for (int i = 0; i < IDS.size(); i++) {
        long id = IDS.get(i);
        InodeRow row = inodes.get(i);
        keys.add(t.keyOf(row));
        assertThat(tx.find(t, t.keyOf(row), LockMode.EXCLUSIVE)).as("inode %s", id).isEqualTo(row);
        assertThat(tx.findByPartition(t, id, LockMode.READ_COMMITTED))
            .as("partition %s", id)
            .containsExactly(row);
        assertThat(tx.findByIndex(t, "id", id, LockMode.READ_COMMITTED))
            .as("inode %s by id", id)
            .containsExactly(row);
        assertThat(cells(InMemoryFileDataRow.TABLE, read(tx, id)))
            .as("data of %s", id)
            .isEqualTo(cells(InMemoryFileDataRow.TABLE, data.get(i)));
        for (long narrowed : narrowed(id)) {
          assertThat(tx.findByPartition(t, narrowed, LockMode.READ_COMMITTED))
              .as("partition %s, %s narrowed", narrowed, id)
              .isEmpty();
          assertThat(tx.findByIndex(t, "id", narrowed, LockMode.READ_COMMITTED))
              .as("inode %s by id, %s narrowed", narrowed, id)
              .isEmpty();
          assertThat(tx.find(InMemoryFileDataRow.TABLE, dataKey(narrowed), LockMode.SHARED))
              .as("data of %s, %s narrowed", narrowed, id)
              .isNull();
        }
      }
      assertThat(tx.findBatch(t, keys, LockMode.SHARED)).isEqualTo(inodes);
      assertThat(tx.countAll(t)).isEqualTo(IDS.size());
      assertThat(tx.countAll(InMemoryFileDataRow.TABLE)).isEqualTo(IDS.size());
      tx.commit();
    }
  }

  /** {@code id} cut to each narrower width, where that is an id not written. */
  private static List<Long> narrowed(long id) {
    List<Long> out = new ArrayList<>();
    for (int bits : new int[] {21, 24, 31, 32}) {
      long cut = id & ((1L << bits) - 1);
      if (cut > 0 && cut != id && !IDS.contains(cut) && !out.contains(cut)) {
        out.add(cut);
      }
    }
    return out;
  }

  /** A file in the partition of its own id (a directory's children are its partition). */
  private static InodeRow inode(long id, long size) {
    InodeRow typical = SampleRows.typical(InodeRow.TABLE, 1);
    InodeRow row = SampleRows.with(InodeRow.TABLE, typical, "partition_id", id);
    row = SampleRows.with(InodeRow.TABLE, row, "parent_id", id);
    row = SampleRows.with(InodeRow.TABLE, row, "name", "f" + id);
    row = SampleRows.with(InodeRow.TABLE, row, "id", id);
    return SampleRows.with(InodeRow.TABLE, row, "size", size);
  }

  private static byte[] bytesOf(long id) {
    return ByteBuffer.allocate(Long.BYTES).putLong(id).array();
  }

  private static Key dataKey(long id) {
    return InMemoryFileDataRow.TABLE.key(id);
  }

  private static InMemoryFileDataRow read(Transaction tx, long id) throws Exception {
    return tx.find(InMemoryFileDataRow.TABLE, dataKey(id), LockMode.READ_COMMITTED);
  }
}
