package io.hops.namenode.security;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.GroupRow;
import io.hops.dal.rows.UserRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * User and group names, stored once in {@code hdfs_users} / {@code hdfs_groups} and referenced by
 * id from inodes. The mapping never changes once written, so caching it is safe on every namenode;
 * a miss costs one short transaction of its own, outside any operation.
 */
public final class UsersAndGroups {
  private final Storage storage;
  private final LongNames longNames;
  private final Names users = new Names();
  private final Names groups = new Names();

  private static final class Names {
    final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    final ConcurrentHashMap<Integer, String> names = new ConcurrentHashMap<>();

    void learn(int id, String name) {
      ids.put(name, id);
      names.put(id, name);
    }
  }

  public UsersAndGroups(Storage storage) {
    this.storage = storage;
    this.longNames = new LongNames(storage);
  }

  /** The text of names too long to be keys, which client names share (see {@link LongNames}). */
  public LongNames longNames() {
    return longNames;
  }

  /**
   * The id of a user, created if new: only for a name about to be stored in an inode, after the
   * permission checks, never on a mere call.
   */
  public int userId(String name) throws StorageException {
    Integer id = users.ids.get(name);
    return id != null ? id : create(UserRow.TABLE, "user_id", name, users);
  }

  /** The id of a group, created if new: as {@link #userId}. */
  public int groupId(String name) throws StorageException {
    Integer id = groups.ids.get(name);
    return id != null ? id : create(GroupRow.TABLE, "group_id", name, groups);
  }

  /**
   * The id of a user this namenode has seen (registered or read), or -1; never touches the
   * database.
   */
  public int knownUserId(String name) {
    Integer id = users.ids.get(name);
    return id == null ? -1 : id;
  }

  /**
   * The id of a group this namenode has seen (registered or read), or -1; never touches the
   * database, so a caller's groups that are registered nowhere cost nothing per RPC.
   */
  public int knownGroupId(String name) {
    Integer id = groups.ids.get(name);
    return id == null ? -1 : id;
  }

  public String userName(int id) throws StorageException {
    String n = users.names.get(id);
    return n != null ? n : lookupById(UserRow.TABLE, id, users);
  }

  public String groupName(int id) throws StorageException {
    String n = groups.names.get(id);
    return n != null ? n : lookupById(GroupRow.TABLE, id, groups);
  }

  /**
   * Registers a name. Creators of one kind serialize on the row of its id counter, and look for the
   * name again under that lock, so two namenodes never give one name two ids.
   */
  private <R extends Record> int create(Table<R> table, String counter, String name, Names cache)
      throws StorageException {
    Integer existing = lookupByName(table, name, cache);
    if (existing != null) {
      return existing;
    }
    String key = longNames.remember(name);
    int id = (int) storage.allocateIds(counter, 1).first(); // also makes sure the row exists
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        tx.find(VariableRow.TABLE, VariableRow.TABLE.key(counter), LockMode.EXCLUSIVE);
        List<R> rows = tx.findByIndex(table, "name", key, LockMode.READ_COMMITTED);
        if (rows.isEmpty()) {
          tx.insert(table, newRow(table, id, key));
        } else {
          id = (Integer) table.get(rows.get(0), 0);
        }
        tx.commit();
        cache.learn(id, name);
        return id;
      } catch (TransientStorageException e) {
        if (attempt >= 10) {
          throw e;
        }
      }
    }
  }

  private <R extends Record> Integer lookupByName(Table<R> table, String name, Names cache)
      throws StorageException {
    try (Transaction tx = storage.begin()) {
      List<R> rows = tx.findByIndex(table, "name", LongNames.key(name), LockMode.READ_COMMITTED);
      tx.commit();
      if (rows.isEmpty()) {
        return null;
      }
      int id = (Integer) table.get(rows.get(0), 0);
      cache.learn(id, name);
      return id;
    }
  }

  private <R extends Record> String lookupById(Table<R> table, int id, Names cache)
      throws StorageException {
    try (Transaction tx = storage.begin()) {
      R row = tx.find(table, table.key(id), LockMode.READ_COMMITTED);
      tx.commit();
      if (row == null) {
        return String.valueOf(id);
      }
      String name = longNames.name((String) table.get(row, 1));
      cache.learn(id, name);
      return name;
    }
  }

  @SuppressWarnings("unchecked")
  private static <R extends Record> R newRow(Table<R> table, int id, String name) {
    return (R) (table == (Table<?>) UserRow.TABLE ? new UserRow(id, name) : new GroupRow(id, name));
  }
}
