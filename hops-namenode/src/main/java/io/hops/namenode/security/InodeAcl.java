package io.hops.namenode.security;

import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclEntryScope;
import org.apache.hadoop.fs.permission.AclEntryType;
import org.apache.hadoop.fs.permission.AclUtil;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.fs.permission.ScopedAclEntries;
import org.apache.hadoop.hdfs.protocol.AclException;

/**
 * An inode's ACL as HDFS keeps it: the owner, mask (or group) and other entries live in the mode
 * bits, and only the rest (named users, the unnamed and named groups of an extended access ACL, and
 * the whole default ACL) is stored, in sorted order, here as one hidden row of {@code xattrs} in
 * Hadoop's own ACL spec text. {@code entries} is that stored part ("the feature").
 */
public record InodeAcl(List<AclEntry> entries) {
  /** The name of the ACL's row in the hidden namespace. */
  public static final String ROW_NAME = "acl";

  /** What an ACL change leaves: the new mode and the feature, null when the ACL is minimal. */
  public record Change(FsPermission mode, InodeAcl acl) {}

  public static Key key(long inodeId) {
    return XAttrRow.TABLE.key(inodeId, XAttrRow.HIDDEN, ROW_NAME);
  }

  public static InodeAcl of(XAttrRow row) {
    String text = new String(row.value(), StandardCharsets.UTF_8);
    return new InodeAcl(List.copyOf(AclEntry.parseAclSpec(text, true)));
  }

  public XAttrRow toRow(long inodeId) {
    StringBuilder b = new StringBuilder();
    for (AclEntry e : entries) {
      if (b.length() > 0) {
        b.append(',');
      }
      b.append(e.toStringStable());
    }
    return new XAttrRow(
        inodeId, XAttrRow.HIDDEN, ROW_NAME, b.toString().getBytes(StandardCharsets.UTF_8), 0);
  }

  /** Whether the stored part starts with access entries (else it is only a default ACL). */
  public boolean hasAccessEntries() {
    return !entries.isEmpty() && entries.get(0).getScope() == AclEntryScope.ACCESS;
  }

  public List<AclEntry> defaultEntries() {
    return new ScopedAclEntries(entries).getDefaultEntries();
  }

  /**
   * The whole ACL (HDFS's "logical" ACL) of an inode with mode {@code perm} and ACL {@code acl}.
   */
  public static List<AclEntry> logical(FsPermission perm, InodeAcl acl) {
    if (acl == null) {
      return AclUtil.getMinimalAcl(perm);
    }
    ScopedAclEntries scoped = new ScopedAclEntries(acl.entries());
    List<AclEntry> out = new ArrayList<>(acl.entries().size() + 3);
    if (scoped.getAccessEntries().isEmpty()) {
      out.addAll(AclUtil.getMinimalAcl(perm));
    } else {
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.USER, perm.getUserAction()));
      out.addAll(scoped.getAccessEntries());
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.MASK, perm.getGroupAction()));
      out.add(entry(AclEntryScope.ACCESS, AclEntryType.OTHER, perm.getOtherAction()));
    }
    out.addAll(scoped.getDefaultEntries());
    return out;
  }

  /**
   * Stores a whole, valid, sorted ACL on an inode with mode {@code perm}: the mode takes the owner,
   * mask (or group) and other entries; a default ACL on a file is refused (AclStorage).
   */
  public static Change store(List<AclEntry> acl, FsPermission perm, boolean isDir, String path)
      throws AclException {
    if (AclUtil.isMinimalAcl(acl)) {
      return new Change(mode(acl.get(0), acl.get(1), acl.get(2), perm), null);
    }
    ScopedAclEntries scoped = new ScopedAclEntries(acl);
    List<AclEntry> access = scoped.getAccessEntries();
    List<AclEntry> defaults = scoped.getDefaultEntries();
    if (!defaults.isEmpty() && !isDir) {
      throw new AclException("Invalid ACL: only directories may have a default ACL. Path: " + path);
    }
    return new Change(
        mode(access.get(0), access.get(access.size() - 2), access.get(access.size() - 1), perm),
        feature(access, defaults));
  }

  /**
   * The ACL of a new child of a directory with this ACL, or null if this ACL has no default part:
   * the default entries become the child's access entries, filtered by the child's mode for owner,
   * mask and other (and group, when the default ACL is minimal); a directory also gets the default
   * ACL (AclStorage.copyINodeDefaultAcl).
   */
  public Change inherit(FsPermission childMode, boolean childIsDir) {
    List<AclEntry> defaults = defaultEntries();
    if (defaults.isEmpty()) {
      return null;
    }
    boolean minimal = AclUtil.isMinimalAcl(defaults);
    List<AclEntry> access = new ArrayList<>(defaults.size());
    for (AclEntry e : defaults) {
      FsAction p = e.getPermission();
      if (e.getType() == AclEntryType.USER && e.getName() == null) {
        p = p.and(childMode.getUserAction());
      } else if ((e.getType() == AclEntryType.GROUP && minimal)
          || e.getType() == AclEntryType.MASK) {
        p = p.and(childMode.getGroupAction());
      } else if (e.getType() == AclEntryType.OTHER) {
        p = p.and(childMode.getOtherAction());
      }
      access.add(
          new AclEntry.Builder()
              .setScope(AclEntryScope.ACCESS)
              .setType(e.getType())
              .setName(e.getName())
              .setPermission(p)
              .build());
    }
    List<AclEntry> childDefaults = childIsDir ? defaults : List.of();
    if (AclUtil.isMinimalAcl(access) && childDefaults.isEmpty()) {
      return new Change(mode(access.get(0), access.get(1), access.get(2), childMode), null);
    }
    return new Change(
        mode(
            access.get(0), access.get(access.size() - 2), access.get(access.size() - 1), childMode),
        feature(access, childDefaults));
  }

  /**
   * The mode after the ACL is removed: the group bits come back from the unnamed group entry,
   * replacing the mask (FSDirAclOp.unprotectedRemoveAcl).
   */
  public FsPermission modeWithout(FsPermission perm) {
    if (!hasAccessEntries()) {
      return perm;
    }
    for (AclEntry e : entries) {
      if (e.getScope() == AclEntryScope.ACCESS
          && e.getType() == AclEntryType.GROUP
          && e.getName() == null) {
        return new FsPermission(
            perm.getUserAction(), e.getPermission(), perm.getOtherAction(), perm.getStickyBit());
      }
    }
    return perm;
  }

  private static InodeAcl feature(List<AclEntry> access, List<AclEntry> defaults) {
    List<AclEntry> stored = new ArrayList<>();
    if (!AclUtil.isMinimalAcl(access)) {
      stored.addAll(access.subList(1, access.size() - 2));
    }
    stored.addAll(defaults);
    return new InodeAcl(List.copyOf(stored));
  }

  private static FsPermission mode(AclEntry user, AclEntry group, AclEntry other, FsPermission p) {
    return new FsPermission(
        user.getPermission(), group.getPermission(), other.getPermission(), p.getStickyBit());
  }

  private static AclEntry entry(AclEntryScope scope, AclEntryType type, FsAction perm) {
    return new AclEntry.Builder().setScope(scope).setType(type).setPermission(perm).build();
  }
}
