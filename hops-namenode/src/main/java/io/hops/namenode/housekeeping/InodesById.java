package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Inodes read committed by their ids, as the replication and decommission checks read the files of
 * their blocks: by primary key where this namenode's hint cache knows an inode's place (a row found
 * there with another id is a stale hint), else by id (an index scan over every partition).
 */
final class InodesById {
  private InodesById() {}

  /** The inode {@code id}, or null: a PK read where its place is known, else an index scan. */
  static InodeRow read(LockPhase tx, long id) throws IOException {
    InodeHintCache.Hint place = tx.placeOf(id);
    if (place != null) {
      InodeRow there =
          tx.find(
              InodeRow.TABLE, Inodes.key(place.parentId(), place.name()), LockMode.READ_COMMITTED);
      if (there != null && there.id() == id) {
        return there;
      }
    }
    List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    return found.isEmpty() ? null : found.get(0);
  }

  /**
   * The inodes of {@code ids} that exist: those whose places are known in one batched read, the
   * others (and those of stale hints) one at a time as {@link #read(LockPhase, long)}.
   */
  static Map<Long, InodeRow> read(LockPhase tx, List<Long> ids) throws IOException {
    if (ids.size() == 1) {
      InodeRow r = read(tx, ids.get(0));
      return r == null ? Map.of() : Map.of(r.id(), r);
    }
    Map<Long, InodeRow> found = new HashMap<>();
    List<Key> hinted = new ArrayList<>();
    for (long id : ids) {
      InodeHintCache.Hint place = tx.placeOf(id);
      if (place != null) {
        hinted.add(Inodes.key(place.parentId(), place.name()));
      }
    }
    if (!hinted.isEmpty()) {
      for (InodeRow r : tx.findBatch(InodeRow.TABLE, hinted, LockMode.READ_COMMITTED)) {
        if (r != null && ids.contains(r.id())) {
          found.put(r.id(), r);
        }
      }
    }
    for (long id : ids) {
      if (!found.containsKey(id)) {
        List<InodeRow> r = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
        if (!r.isEmpty()) {
          found.put(id, r.get(0));
        }
      }
    }
    return found;
  }
}
