package io.hops.namenode;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
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
    attributeRows(storage, byId, problems);
    return problems;
  }

  /**
   * Every row of {@code xattrs} belongs to an inode whose flag says it has such rows (the ACL row
   * to the ACL flag, the others to the xattr flag), and every flagged inode has them.
   */
  private static void attributeRows(
      Storage storage, Map<Long, InodeRow> byId, List<String> problems) throws StorageException {
    List<XAttrRow> rows;
    try (Transaction tx = storage.begin()) {
      rows = tx.scanAll(XAttrRow.TABLE, LockMode.READ_COMMITTED);
      tx.commit();
    }
    Set<Long> withAcl = new HashSet<>();
    Set<Long> withXAttrs = new HashSet<>();
    for (XAttrRow x : rows) {
      InodeRow owner = byId.get(x.inodeId());
      boolean acl = x.namespace() == XAttrRow.HIDDEN;
      (acl ? withAcl : withXAttrs).add(x.inodeId());
      if (owner == null) {
        problems.add("attribute " + x.name() + " of a missing inode " + x.inodeId());
      } else if (acl
          ? !InodeFlags.hasAcl(owner.permission())
          : !InodeFlags.hasXAttrs(owner.permission())) {
        problems.add("attribute " + x.name() + " of " + owner.name() + " without its flag");
      }
    }
    for (InodeRow r : byId.values()) {
      if (InodeFlags.hasAcl(r.permission()) && !withAcl.contains(r.id())) {
        problems.add(r.name() + " (" + r.id() + ") is flagged with an ACL it does not have");
      }
      if (InodeFlags.hasXAttrs(r.permission()) && !withXAttrs.contains(r.id())) {
        problems.add(r.name() + " (" + r.id() + ") is flagged with attributes it does not have");
      }
    }
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
