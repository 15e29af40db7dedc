package io.hops.namenode.security;

import java.util.HashMap;
import java.util.Map;

/**
 * The ACLs one transaction attempt read in its lock phase, by inode id, for the permission checks
 * of its execute phase: the runner opens a fresh set per attempt on the attempt's thread, path
 * resolution fills it for every inode on the path that has an ACL, and {@link PermissionChecker}
 * reads it. Nothing survives the attempt: every namenode enforces what the database holds.
 */
public final class LoadedAcls {
  private static final ThreadLocal<Map<Long, InodeAcl>> CURRENT = new ThreadLocal<>();

  private LoadedAcls() {}

  /** Opens a fresh set for this thread; returns the one it replaces (for {@link #end}). */
  public static Map<Long, InodeAcl> begin() {
    Map<Long, InodeAcl> previous = CURRENT.get();
    CURRENT.set(new HashMap<>());
    return previous;
  }

  public static void end(Map<Long, InodeAcl> previous) {
    if (previous == null) {
      CURRENT.remove();
    } else {
      CURRENT.set(previous);
    }
  }

  /** Whether the ACL of inode {@code id} was read in this attempt. */
  public static boolean contains(long id) {
    Map<Long, InodeAcl> m = CURRENT.get();
    return m != null && m.containsKey(id);
  }

  public static void put(long id, InodeAcl acl) {
    Map<Long, InodeAcl> m = CURRENT.get();
    if (m != null) {
      m.put(id, acl);
    }
  }

  /** The ACL of inode {@code id} as read in this attempt, or null. */
  public static InodeAcl get(long id) {
    Map<Long, InodeAcl> m = CURRENT.get();
    return m == null ? null : m.get(id);
  }
}
