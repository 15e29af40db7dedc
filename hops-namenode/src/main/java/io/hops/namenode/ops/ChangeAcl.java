package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.LoadedAcls;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.AclException;
import org.apache.hadoop.hdfs.server.namenode.HopsAclTransformation;

/**
 * The five ACL changes ({@code modifyAclEntries}, {@code removeAclEntries}, {@code
 * removeDefaultAcl}, {@code removeAcl}, {@code setAcl}): the target locked exclusively with its ACL
 * row (B + PK(EXCLUSIVE) + PK if it has an ACL + W); only its owner or the superuser may; the new
 * ACL is computed by Hadoop's own transformations over the whole ACL, then split between the mode
 * bits and the stored entries as HDFS does (FSDirAclOp, AclStorage).
 */
public final class ChangeAcl extends Operation<Void> {
  /** Which change. */
  public enum Kind {
    MODIFY("modifyAclEntries"),
    REMOVE_ENTRIES("removeAclEntries"),
    REMOVE_DEFAULT("removeDefaultAcl"),
    REMOVE("removeAcl"),
    SET("setAcl");

    final String opName;

    Kind(String opName) {
      this.opName = opName;
    }
  }

  private final XAttrSettings settings;
  private final PermissionChecker pc;
  private final String path;
  private final Kind kind;
  private final List<AclEntry> spec;
  private ResolvedPath resolved;

  public ChangeAcl(
      XAttrSettings settings, PermissionChecker pc, String path, Kind kind, List<AclEntry> spec) {
    this.settings = settings;
    this.pc = pc;
    this.path = path;
    this.kind = kind;
    this.spec = spec == null ? List.of() : spec;
  }

  @Override
  public String name() {
    return kind.opName;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    settings.checkAclsEnabled();
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    tx.coverOwnAttributes(resolved.target());
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String normalized = PathNames.prefix(resolved.components(), resolved.depth());
    // setAcl names the path as given, the others as resolved (FSDirAclOp).
    String shown = kind == Kind.SET ? path : normalized;
    try {
      InodeRow target = resolved.target();
      if (target == null) {
        throw new FileNotFoundException("Directory/File does not exist " + normalized);
      }
      pc.checkOwner(target, normalized);
      InodeAcl acl = InodeFlags.hasAcl(target.permission()) ? LoadedAcls.get(target.id()) : null;
      FsPermission perm = new FsPermission(target.permission());
      if (kind == Kind.REMOVE || (kind == Kind.SET && spec.isEmpty())) {
        if (acl != null) {
          write(tx, target, acl, new InodeAcl.Change(acl.modeWithout(perm), null));
        }
        return null;
      }
      List<AclEntry> existing = InodeAcl.logical(perm, acl);
      List<AclEntry> updated =
          switch (kind) {
            case MODIFY -> HopsAclTransformation.merge(existing, spec);
            case REMOVE_ENTRIES -> HopsAclTransformation.filter(existing, spec);
            case REMOVE_DEFAULT -> HopsAclTransformation.withoutDefault(existing);
            default -> HopsAclTransformation.replace(existing, spec);
          };
      write(tx, target, acl, InodeAcl.store(updated, perm, target.isDir(), normalized));
      return null;
    } catch (AclException e) {
      throw new AclException(e.getMessage() + " Path: " + shown, e);
    }
  }

  /** The new mode and ACL row; the inode's flag says whether it has an ACL now. */
  private static void write(ExecutePhase tx, InodeRow target, InodeAcl before, InodeAcl.Change c)
      throws IOException {
    tx.recordModification(target); // a snapshot keeps the ACL as it was
    MutableInode inode = MutableInode.of(target);
    inode.permission =
        InodeFlags.set(
            InodeFlags.withFlagsOf(c.mode().toShort(), target.permission()),
            InodeFlags.ACL,
            c.acl() != null);
    if (inode.permission != target.permission()) {
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    if (c.acl() == null) {
      if (before != null) {
        tx.delete(XAttrRow.TABLE, InodeAcl.key(target.id()));
      }
    } else if (before != null) {
      tx.update(XAttrRow.TABLE, c.acl().toRow(target.id()));
    } else {
      tx.insert(XAttrRow.TABLE, c.acl().toRow(target.id()));
    }
  }
}
