package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.StorageRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.StorageType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The datanodes' storages by id and by uuid: a storage uuid gets its id once, from whichever
 * namenode sees it first, persisted ({@code storages}, and a {@code variables} row mapping the uuid
 * to the id); every namenode keeps the ids it has read, which never change.
 */
final class StorageRefs {
  private static final Logger LOG = LoggerFactory.getLogger(StorageRefs.class);

  /** The {@code variables} row that maps a storage uuid to its id: this prefix and the uuid. */
  static final String STORAGE_ID_PREFIX = "storage:";

  private final Storage storage;
  private final IdPool storageIds;
  private final Map<Integer, StorageRef> byId = new ConcurrentHashMap<>();
  private final Map<String, StorageRef> byUuid = new ConcurrentHashMap<>();

  StorageRefs(Storage storage) {
    this.storage = storage;
    this.storageIds = new IdPool(storage, "storage_id", 16);
  }

  /** The id of a storage uuid, made and persisted on first sight. */
  StorageRef storageRef(String storageUuid, String datanodeUuid, StorageType type)
      throws StorageException {
    StorageRef ref = byUuid.get(storageUuid);
    if (ref != null) {
      return ref;
    }
    // The uuid's id is a row keyed by the uuid, written with the storage row: a primary key is
    // unique on every engine, so when namenodes race (a datanode's first heartbeat reaches them all
    // at once) exactly one id is ever made and every loser reads the winner's.
    Key mapping = VariableRow.TABLE.key(STORAGE_ID_PREFIX + storageUuid);
    while (true) {
      try (Transaction tx = storage.begin()) {
        VariableRow known = tx.find(VariableRow.TABLE, mapping, LockMode.READ_COMMITTED);
        if (known != null) {
          return remember(new StorageRef((int) known.longValue(), storageUuid, datanodeUuid, type));
        }
      }
      int id = (int) storageIds.next();
      StorageRow row =
          new StorageRow(id, storageUuid, datanodeUuid, (byte) type.ordinal(), (byte) 0);
      try (Transaction tx = storage.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow(STORAGE_ID_PREFIX + storageUuid, id, null));
        tx.insert(StorageRow.TABLE, row);
        tx.commit();
        return remember(toRef(row));
      } catch (DuplicateKeyException e) {
        LOG.debug("storage {} got its id from another namenode first", storageUuid);
      }
    }
  }

  /** The storage with this id, or null if the store has none. */
  StorageRef storage(int id) throws StorageException {
    StorageRef ref = byId.get(id);
    if (ref != null) {
      return ref;
    }
    try (Transaction tx = storage.begin()) {
      StorageRow row = tx.find(StorageRow.TABLE, StorageRow.TABLE.key(id), LockMode.READ_COMMITTED);
      return row == null ? null : remember(toRef(row));
    }
  }

  /** The storage ref of an id already known to this namenode (no database access), or null. */
  StorageRef cachedStorage(int id) {
    return byId.get(id);
  }

  /** The storage of a storage uuid if any namenode gave it an id, else null (never makes one). */
  StorageRef findStorage(String storageUuid) throws StorageException {
    StorageRef ref = byUuid.get(storageUuid);
    if (ref != null) {
      return ref;
    }
    try (Transaction tx = storage.begin()) {
      List<StorageRow> rows =
          tx.findByIndex(StorageRow.TABLE, "storage_uuid", storageUuid, LockMode.READ_COMMITTED);
      return rows.isEmpty() ? null : remember(toRef(rows.get(0)));
    }
  }

  StorageRef remember(StorageRef ref) {
    byUuid.put(ref.storageUuid(), ref);
    byId.put(ref.id(), ref);
    return ref;
  }

  static StorageRef toRef(StorageRow row) {
    return new StorageRef(
        row.storageId(),
        row.storageUuid(),
        row.datanodeUuid(),
        StorageType.values()[row.storageType()]);
  }
}
