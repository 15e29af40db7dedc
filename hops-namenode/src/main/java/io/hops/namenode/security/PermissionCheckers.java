package io.hops.namenode.security;

import java.io.IOException;
import java.util.Set;

/**
 * The permission checkers of one namenode: a new one for each call (a checker caches the caller's
 * ids and groups as it goes), either of the current RPC's caller or of the namenode's own user, the
 * superuser, for work it does on its own behalf.
 */
public final class PermissionCheckers {
  private final UsersAndGroups users;
  private final String fsOwner;
  private final String supergroup;
  private final boolean enabled;

  /**
   * @param fsOwner the namenode's own user, the superuser
   * @param supergroup {@code dfs.permissions.superusergroup}
   * @param enabled {@code dfs.permissions.enabled}
   */
  public PermissionCheckers(
      UsersAndGroups users, String fsOwner, String supergroup, boolean enabled) {
    this.users = users;
    this.fsOwner = fsOwner;
    this.supergroup = supergroup;
    this.enabled = enabled;
  }

  /** The permission checker of the current RPC's caller. */
  public PermissionChecker ofCaller() throws IOException {
    return new PermissionChecker(Caller.current(), users, fsOwner, supergroup, enabled);
  }

  /**
   * A permission checker of this namenode's own user, the superuser: for work the namenode does on
   * its own behalf (housekeeping, the audit log's status reads, moving a database file to datanodes
   * once the caller's rights were checked).
   */
  public PermissionChecker ofSuperuser() throws IOException {
    return new PermissionChecker(
        new Caller(fsOwner, Set.of(supergroup), ""), users, fsOwner, supergroup, enabled);
  }
}
