package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.List;

/**
 * The two narrow reads of a file's block tables that the range and tail views ({@link
 * FileBlockRange}, {@link FileBlockTail}) make instead of a scan of the whole partition: rows by
 * {@code (inode id, block id)} key, and one block's rows.
 */
final class BlockRowReads {
  private BlockRowReads() {}

  static <R extends Record> List<R> byKeys(
      LockPhase tx, Table<R> table, long inodeId, List<Long> ids) throws StorageException {
    return byKeys(tx, table, inodeId, ids, LockMode.READ_COMMITTED);
  }

  /**
   * The rows of {@code (inodeId, id)} keys that exist: one PK read for one key, one batch for more.
   */
  static <R extends Record> List<R> byKeys(
      LockPhase tx, Table<R> table, long inodeId, List<Long> ids, LockMode mode)
      throws StorageException {
    List<R> found = new ArrayList<>(ids.size());
    if (ids.size() == 1) {
      R r = tx.find(table, table.key(inodeId, ids.get(0)), mode);
      if (r != null) {
        found.add(r);
      }
    } else if (!ids.isEmpty()) {
      List<Key> keys = new ArrayList<>(ids.size());
      ids.forEach(b -> keys.add(table.key(inodeId, b)));
      for (R r : tx.findBatch(table, keys, mode)) {
        if (r != null) {
          found.add(r);
        }
      }
    }
    return found;
  }

  /** One block's rows of a table keyed (inode id, block id, ...): a scan bounded by the block. */
  static <R extends Record> List<R> perBlock(
      LockPhase tx, Table<R> table, long inodeId, long blockId) throws StorageException {
    return tx.findByPartition(table, inodeId, "block_id", blockId, LockMode.READ_COMMITTED);
  }
}
