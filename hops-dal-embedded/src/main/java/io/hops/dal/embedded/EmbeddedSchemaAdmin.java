package io.hops.dal.embedded;

import io.hops.dal.SchemaAdmin;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * The schema of a key-value store is a catalog: a table exists once its catalog key is written.
 * Rows carry their column count, so a table that gains a column needs no upgrade step.
 */
final class EmbeddedSchemaAdmin implements SchemaAdmin {
  /**
   * The on-disk format this code writes, recorded at the first format. 2: a unique index's entry is
   * keyed by the value alone (a point read claims it), not by value and row key. 3: a {@link
   * io.hops.dal.schema.SignedByteOrder} key column is stored with its sign bits flipped. 4: a block
   * row records where it begins in its file (a column in the middle of the row), and table {@code
   * block_offsets} finds blocks by offset. 5: a partial index ({@link
   * io.hops.dal.schema.Indexed#only}, {@code inodes.parent_id}) has entries for its values only. 6:
   * {@code retry_cache} has no index on {@code expiration_time}. 7: {@code lease_paths} is keyed by
   * holder and inode id, partitioned by holder, without an index.
   */
  static final byte[] FORMAT_VERSION = "rocksdb-7".getBytes(StandardCharsets.UTF_8);

  private final RocksStore store;
  private final RowReader reader;

  EmbeddedSchemaAdmin(RocksStore store, RowReader reader) {
    this.store = store;
    this.reader = reader;
  }

  @Override
  public List<String> existingTables() throws StorageException {
    return store.use(
        "reading the catalog",
        db -> {
          List<String> names = new ArrayList<>();
          for (Table<?> t : Tables.ALL) {
            if (db.get(StoredTable.of(t).layout.catalogKey()) != null) {
              names.add(t.name());
            }
          }
          return names;
        });
  }

  @Override
  public boolean hasData() throws StorageException {
    for (Table<?> t : Tables.ALL) {
      if (reader.any(StoredTable.of(t).layout.rowPrefix())) {
        return true;
      }
    }
    return false;
  }

  @Override
  public List<String> createOrUpgrade() throws StorageException {
    List<String> existing = existingTables();
    List<String> created = new ArrayList<>();
    try (WriteBatch batch = new WriteBatch()) {
      batch.put(KeyLayout.FORMAT_KEY, FORMAT_VERSION);
      for (Table<?> t : Tables.ALL) {
        if (!existing.contains(t.name())) {
          batch.put(StoredTable.of(t).layout.catalogKey(), new byte[0]);
          created.add(t.name());
        }
      }
      if (!created.isEmpty()) {
        store.commit("creating the schema", batch);
      }
    } catch (RocksDBException e) {
      throw Errors.of("creating the schema", e);
    }
    return created;
  }

  @Override
  public void clearAll() throws StorageException {
    deleteEveryTable(false);
  }

  @Override
  public void dropAll() throws StorageException {
    deleteEveryTable(true);
  }

  /**
   * Range deletes of every table's rows and index entries, and with {@code drop} its catalog key.
   */
  private void deleteEveryTable(boolean drop) throws StorageException {
    try (WriteBatch batch = new WriteBatch()) {
      for (Table<?> t : Tables.ALL) {
        KeyLayout layout = StoredTable.of(t).layout;
        deleteRange(batch, layout.rowPrefix());
        deleteRange(batch, layout.indexPrefix());
        if (drop) {
          batch.delete(layout.catalogKey());
        }
      }
      store.commit(drop ? "dropping the schema" : "clearing every table", batch);
    } catch (RocksDBException e) {
      throw Errors.of(drop ? "dropping the schema" : "clearing every table", e);
    }
  }

  private static void deleteRange(WriteBatch batch, byte[] prefix) throws RocksDBException {
    batch.deleteRange(prefix, OrderedBytes.prefixEnd(prefix));
  }
}
