package io.hops.namenode.security;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.TransientStorageException;
import io.hops.dal.embedded.HeapEstimate;
import io.hops.dal.rows.GroupRow;
import io.hops.dal.rows.UserRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Table;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;

/**
 * User and group names, stored once in {@code hdfs_users} / {@code hdfs_groups} and referenced by
 * id from inodes. The mapping never changes once written, so caching it is safe on every namenode;
 * a miss costs one short transaction of its own, outside any operation. The cache is bounded in
 * bytes of heap ({@link HeapEstimate}): users and groups together start over when they reach it,
 * and a name not cached is only slower (a caller whose id is not known is matched by name).
 */
public final class UsersAndGroups {
  private final Storage storage;
  private final LongNames longNames;
  private final long maxBytes;
  private final AtomicLong bytes = new AtomicLong();
  private final LongAdder hits = new LongAdder();
  private final LongAdder misses = new LongAdder();
  private final Names users = new Names();
  private final Names groups = new Names();

  private final class Names {
    final ConcurrentHashMap<String, Integer> ids = new ConcurrentHashMap<>();
    final ConcurrentHashMap<Integer, String> names = new ConcurrentHashMap<>();

    void learn(int id, String name) {
      boolean added = ids.put(name, id) == null;
      names.put(id, name);
      if (added && bytes.addAndGet(entryBytes(name)) > maxBytes) {
        startOver();
      }
    }

    <T> T counted(T cached) {
      (cached == null ? misses : hits).increment();
      return cached;
    }
  }

  /** A name in both maps: a node in each, the boxed id in each, the name once. */
  static long entryBytes(String name) {
    return 2L * HeapEstimate.MAP_ENTRY + 2L * HeapEstimate.BOXED + HeapEstimate.string(name);
  }

  private synchronized void startOver() {
    if (bytes.get() <= maxBytes) {
      return;
    }
    for (Names n : List.of(users, groups)) {
      n.ids.clear();
      n.names.clear();
    }
    bytes.set(0);
  }

  /** With the default bounds of the names' caches. */
  public UsersAndGroups(Storage storage) {
    this(
        storage,
        io.hops.namenode.config.NamenodeConfig.USER_GROUP_NAMES_BYTES_DEFAULT,
        io.hops.namenode.config.NamenodeConfig.LONG_NAMES_BYTES_DEFAULT);
  }

  /** Caching at most {@code maxBytes} of names, and {@code longNameBytes} of long names. */
  public UsersAndGroups(Storage storage, long maxBytes, long longNameBytes) {
    this.storage = storage;
    this.maxBytes = maxBytes;
    this.longNames = new LongNames(storage, longNameBytes);
  }

  /** The heap the cached names take, estimated. */
  public long bytes() {
    return bytes.get();
  }

  /** Names (of users and groups) cached. */
  public long size() {
    return users.ids.size() + groups.ids.size();
  }

  /** Lookups answered from the cache. */
  public long hits() {
    return hits.sum();
  }

  /** Lookups the cache could not answer. */
  public long misses() {
    return misses.sum();
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
    Integer id = users.counted(users.ids.get(name));
    return id != null ? id : create(UserRow.TABLE, "user_id", name, users);
  }

  /** The id of a group, created if new: as {@link #userId}. */
  public int groupId(String name) throws StorageException {
    Integer id = groups.counted(groups.ids.get(name));
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
    String n = users.counted(users.names.get(id));
    return n != null ? n : lookupById(UserRow.TABLE, id, users);
  }

  public String groupName(int id) throws StorageException {
    String n = groups.counted(groups.names.get(id));
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
