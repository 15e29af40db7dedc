package io.hops.namenode.security;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import java.util.HashSet;
import java.util.Set;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.security.AccessControlException;

/**
 * HDFS's permission rules over inode rows: owner, group and other bits, or the inode's access ACL
 * (named users and groups limited by the mask, read with the path: {@link LoadedAcls}), traversal
 * of ancestors, the sticky bit and the superuser (the namenode's own user, or a member of the
 * supergroup). Names are compared through their ids, which never change; ACL entries name users and
 * groups by name, as HDFS's do.
 *
 * <p>An inode whose flag says it has an ACL but whose ACL was not read in the current transaction
 * attempt is checked by its mode bits (whose group bits are then the mask): every path the
 * operations resolve, and the subtree scans and walks, read the ACLs they check.
 */
public final class PermissionChecker {
  private final Caller caller;
  private final boolean superuser;
  private final boolean enabled;
  private final UsersAndGroups names;

  /**
   * The caller's user id if this namenode has seen the name (registered or read), else -1: a call
   * registers no name (any caller could grow {@code hdfs_users} without bound); an inode written
   * with the caller as owner does, through {@link #ownerId()}.
   */
  private int userId;

  /** The caller's group ids, found when a check first needs them (a superuser's calls never do). */
  private Set<Integer> groupIds;

  /**
   * The caller's groups whose ids this namenode has not seen (most are registered nowhere: no inode
   * carries them). Membership in them is decided by name, from an inode's group id: id-to-name
   * never changes, so that name is cached for good, and no RPC looks a missing group up again.
   */
  private Set<String> unseenGroups;

  public PermissionChecker(
      Caller caller, UsersAndGroups names, String fsOwner, String supergroup, boolean enabled)
      throws StorageException {
    this.caller = caller;
    this.names = names;
    this.enabled = enabled;
    this.superuser = caller.user().equals(fsOwner) || caller.groups().contains(supergroup);
    this.userId = names.knownUserId(caller.user());
  }

  private void loadGroups() {
    groupIds = new HashSet<>();
    unseenGroups = new HashSet<>();
    for (String g : caller.groups()) {
      int id = names.knownGroupId(g);
      if (id >= 0) {
        groupIds.add(id);
      } else {
        unseenGroups.add(g);
      }
    }
  }

  public boolean isSuperuser() {
    return superuser;
  }

  /** dfs.permissions.enabled. */
  public boolean enabled() {
    return enabled;
  }

  public Caller caller() {
    return caller;
  }

  /**
   * The caller's user id, for an inode written with the caller as owner, after the permission
   * checks: the name is registered now if it is new (a short transaction of its own).
   */
  public int ownerId() throws StorageException {
    if (userId < 0) {
      userId = names.userId(caller.user());
    }
    return userId;
  }

  /**
   * Whether the caller owns an inode of this owner id: by id if this namenode knows the caller's,
   * else by the name of the inode's owner (a name registered by another namenode, or since this
   * checker was made), as {@link #inGroup} does for groups.
   */
  private boolean owns(int ownerId) throws StorageException {
    return ownerId == userId || (userId < 0 && caller.user().equals(names.userName(ownerId)));
  }

  /**
   * Execute permission on every existing directory above the target, top-down; a file above the
   * target is a {@link ParentNotDirectoryException}, whoever asks (as in HDFS).
   */
  public void checkTraverse(ResolvedPath p)
      throws AccessControlException, ParentNotDirectoryException, StorageException {
    int last = Math.min(p.inodes().size(), p.depth());
    // The path of a component is spelled only for an error: no strings on the way down.
    boolean checks = enabled && !superuser;
    for (int i = 0; i < last; i++) {
      InodeRow dir = p.inodes().get(i);
      if (!dir.isDir()) {
        throw new ParentNotDirectoryException(
            PathNames.prefix(p.components(), i) + " (is not a directory)");
      }
      if (checks && !permits(dir, FsAction.EXECUTE)) {
        throw new AccessControlException(
            denied(dir, PathNames.prefix(p.components(), i), FsAction.EXECUTE));
      }
    }
  }

  /**
   * {@code access} on the inode at the first {@code n} of {@code components}; the path is spelled
   * only for a denial.
   */
  public void check(InodeRow inode, String[] components, int n, FsAction access)
      throws AccessControlException, StorageException {
    if (denies(inode, access)) {
      throw new AccessControlException(denied(inode, PathNames.prefix(components, n), access));
    }
  }

  /** {@code access} on one inode at {@code path}. */
  public void check(InodeRow inode, String path, FsAction access)
      throws AccessControlException, StorageException {
    if (denies(inode, access)) {
      throw new AccessControlException(denied(inode, path, access));
    }
  }

  /** Whether the caller lacks {@code access} to the inode (never with checks off or for root). */
  private boolean denies(InodeRow inode, FsAction access) throws StorageException {
    return enabled && !superuser && access != FsAction.NONE && !permits(inode, access);
  }

  /**
   * Whether the caller (not as superuser) has {@code access} to the inode: by its ACL if it has an
   * access ACL (read in the lock phase, {@link LoadedAcls}), else by its mode bits.
   */
  private boolean permits(InodeRow inode, FsAction access) throws StorageException {
    InodeAcl acl = InodeFlags.hasAcl(inode.permission()) ? LoadedAcls.get(inode.id()) : null;
    if (acl != null && acl.hasAccessEntries()) {
      return aclPermits(inode, new FsPermission(inode.permission()), acl, access);
    }
    // The mode's bits straight from the row: owner, group, other, three bits each.
    int shift;
    if (owns(inode.userId())) {
      shift = 6;
    } else if (inGroup(inode.groupId())) {
      shift = 3;
    } else {
      shift = 0;
    }
    int granted = (inode.permission() >>> shift) & 7;
    return access != null && (granted & access.ordinal()) == access.ordinal();
  }

  /**
   * HDFS's ACL evaluation (FSPermissionChecker.hasAclPermission): the owner by the user bits; else
   * the first named user entry that names the caller, masked by the group bits (the mask); else any
   * group entry (unnamed: the inode's group) of a group of the caller that grants the access after
   * the mask, and if the caller is in some such group but none grants it, denied; else the other
   * bits.
   */
  private boolean aclPermits(InodeRow inode, FsPermission mode, InodeAcl acl, FsAction access)
      throws StorageException {
    if (owns(inode.userId())) {
      return mode.getUserAction().implies(access);
    }
    FsAction mask = mode.getGroupAction();
    boolean matched = false;
    for (AclEntry e : acl.entries()) {
      if (e.getScope() == AclEntryScope.DEFAULT) {
        break;
      }
      if (e.getType() == AclEntryType.USER) {
        if (caller.user().equals(e.getName())) {
          return e.getPermission().and(mask).implies(access);
        }
      } else if (e.getType() == AclEntryType.GROUP) {
        boolean member =
            e.getName() == null ? inGroup(inode.groupId()) : caller.groups().contains(e.getName());
        if (member) {
          if (e.getPermission().and(mask).implies(access)) {
            return true;
          }
          matched = true;
        }
      }
    }
    return !matched && mode.getOtherAction().implies(access);
  }

  /**
   * Whether the caller is in the group with this id: by id if this namenode knows the caller's
   * group, else by the name of the inode's group (a group registered by another namenode after this
   * one last saw the caller).
   */
  private boolean inGroup(int groupId) throws StorageException {
    if (groupIds == null) {
      loadGroups();
    }
    if (groupIds.contains(groupId)) {
      return true;
    }
    return !unseenGroups.isEmpty() && unseenGroups.contains(names.groupName(groupId));
  }

  /**
   * Only the owner (or the superuser) may do this; HDFS enforces it even with permissions disabled
   * (FSDirectory.checkOwner).
   */
  public void checkOwner(InodeRow inode, String path)
      throws AccessControlException, StorageException {
    if (!superuser && !owns(inode.userId())) {
      throw new AccessControlException(
          "Permission denied. user=" + caller.user() + " is not the owner of inode=" + path);
    }
  }

  /**
   * In a directory with the sticky bit, only the owner of an entry or of the directory (or the
   * superuser) may delete or rename the entry.
   */
  public void checkStickyBit(InodeRow parent, String parentPath, InodeRow target, String path)
      throws AccessControlException, StorageException {
    checkStickyBit(parent, parentPath, target, path, parent);
  }

  /**
   * As above, for the entry at the first {@code n} of {@code components}; the paths are spelled
   * only for a denial.
   */
  public void checkStickyBit(InodeRow parent, InodeRow target, String[] components, int n)
      throws AccessControlException, StorageException {
    if (stickyDenies(parent, target)) {
      checkStickyBit(
          parent, PathNames.prefix(components, n - 1), target, PathNames.prefix(components, n));
    }
  }

  /** Whether the parent's sticky bit keeps the caller from deleting or renaming the target. */
  private boolean stickyDenies(InodeRow parent, InodeRow target) throws StorageException {
    return enabled
        && !superuser
        && (parent.permission() & STICKY_BIT) != 0
        && !owns(parent.userId())
        && !owns(target.userId());
  }

  /** The sticky bit of a mode ({@link FsPermission#getStickyBit()}). */
  private static final int STICKY_BIT = 01000;

  /**
   * As {@link #checkStickyBit(InodeRow, String, InodeRow, String)}, with {@code shown}'s owner,
   * group and mode in the message as the parent's: HDFS's sub-access check of a delete names the
   * subtree's root there (FSPermissionChecker.checkSubAccess passes it, not the parent).
   */
  public void checkStickyBit(
      InodeRow parent, String parentPath, InodeRow target, String path, InodeRow shown)
      throws AccessControlException, StorageException {
    if (!stickyDenies(parent, target)) {
      return;
    }
    throw new AccessControlException(
        "Permission denied by sticky bit: user="
            + caller.user()
            + ", path=\""
            + path
            + "\":"
            + names.userName(target.userId())
            + ":"
            + names.groupName(target.groupId())
            + ":"
            + (target.isDir() ? 'd' : '-')
            + new FsPermission(target.permission())
            + ", parent=\""
            + parentPath
            + "\":"
            + names.userName(shown.userId())
            + ":"
            + names.groupName(shown.groupId())
            + ":d"
            + new FsPermission(shown.permission()));
  }

  private String denied(InodeRow inode, String path, FsAction access) throws StorageException {
    return "Permission denied: user="
        + caller.user()
        + ", access="
        + access
        + ", inode=\""
        + path
        + "\":"
        + names.userName(inode.userId())
        + ":"
        + names.groupName(inode.groupId())
        + ":"
        + (inode.isDir() ? 'd' : '-')
        + new FsPermission(inode.permission());
  }
}
