package io.hops.namenode;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Checks the namespace invariants straight from the database: one root; every other inode's parent
 * exists and is a directory; ids are unique; no two children of a directory share a name; every
 * inode is reachable from the root; a directory's children count is its number of children; every
 * row sits in the partition its parent and name call for.
 */
public final class NamespaceChecker {
  private NamespaceChecker() {}

  /** The violations found; empty when the namespace is consistent. */
  public static List<String> violations(Storage storage) throws StorageException {
    List<InodeRow> all;
    try (Transaction tx = storage.begin()) {
      all = tx.scanAll(InodeRow.TABLE, LockMode.READ_COMMITTED);
      tx.commit();
    }
    List<String> problems = new ArrayList<>();
    Map<Long, InodeRow> byId = new HashMap<>();
    Map<Long, Integer> children = new HashMap<>();
    Set<String> names = new HashSet<>();
    for (InodeRow r : all) {
      if (byId.put(r.id(), r) != null) {
        problems.add("two inodes with id " + r.id());
      }
      if (!names.add(r.parentId() + "/" + r.name())) {
        problems.add("two children named " + r.name() + " under " + r.parentId());
      }
      if (r.id() != Inodes.ROOT_ID
          && r.partitionId() != Inodes.partitionOf(r.parentId(), r.name())) {
        problems.add(r.name() + " (" + r.id() + ") is in the wrong partition");
      }
      children.merge(r.parentId(), 1, Integer::sum);
    }
    InodeRow root = byId.get(Inodes.ROOT_ID);
    if (root == null || root.parentId() != Inodes.NO_PARENT) {
      problems.add("no root inode");
      return problems;
    }
    for (InodeRow r : all) {
      if (r.id() != Inodes.ROOT_ID) {
        InodeRow parent = byId.get(r.parentId());
        if (parent == null) {
          problems.add(
              "orphan " + r.name() + " (" + r.id() + "): parent " + r.parentId() + " missing");
        } else if (!parent.isDir()) {
          problems.add(r.name() + " (" + r.id() + ") has a file as parent");
        }
        if (!reachable(r, byId)) {
          problems.add(r.name() + " (" + r.id() + ") is not reachable from the root");
        }
      }
      if (r.isDir() && r.childrenCount() != children.getOrDefault(r.id(), 0)) {
        problems.add(
            "directory "
                + r.name()
                + " ("
                + r.id()
                + ") counts "
                + r.childrenCount()
                + " children but has "
                + children.getOrDefault(r.id(), 0));
      }
    }
    return problems;
  }

  private static boolean reachable(InodeRow r, Map<Long, InodeRow> byId) {
    Set<Long> seen = new HashSet<>();
    InodeRow cur = r;
    while (cur != null && cur.id() != Inodes.ROOT_ID) {
      if (!seen.add(cur.id())) {
        return false; // a cycle
      }
      cur = byId.get(cur.parentId());
    }
    return cur != null;
  }
}
