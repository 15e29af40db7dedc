package io.hops.namenode.rpc;

import io.hops.namenode.ops.ChangeAcl;
import io.hops.namenode.ops.CheckAccess;
import io.hops.namenode.ops.GetAclStatus;
import io.hops.namenode.ops.GetXAttrs;
import io.hops.namenode.ops.RemoveXAttr;
import io.hops.namenode.ops.SetXAttr;
import io.hops.namenode.ops.XAttrSettings;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * The {@code ClientProtocol} calls on extended attributes and ACLs (both stored in the xattrs
 * table), and the access check.
 */
public final class ClientXAttrsAndAcls {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final SnapshotSettings snapshots;
  private final UsersAndGroups users;
  private final XAttrSettings xattrs;

  public ClientXAttrsAndAcls(
      TransactionRunner runner,
      PermissionCheckers checkers,
      SnapshotSettings snapshots,
      UsersAndGroups users,
      XAttrSettings xattrs) {
    this.runner = runner;
    this.checkers = checkers;
    this.snapshots = snapshots;
    this.users = users;
    this.xattrs = xattrs;
  }

  void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    var pc = checkers.ofCaller();
    runner.runAtMostOnce(
        () -> new SetXAttr(xattrs, pc, src, xAttr, flag), ClientCalls.keptWith("setXAttr"));
  }

  List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetXAttrs(xattrs, snapshots, pc, src, xAttrs, false));
  }

  List<XAttr> listXAttrs(String src) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetXAttrs(xattrs, snapshots, pc, src, null, true));
  }

  void removeXAttr(String src, XAttr xAttr) throws IOException {
    var pc = checkers.ofCaller();
    runner.runAtMostOnce(
        () -> new RemoveXAttr(xattrs, pc, src, xAttr), ClientCalls.keptWith("removeXAttr"));
  }

  void changeAcl(String src, ChangeAcl.Kind kind, List<AclEntry> spec) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new ChangeAcl(xattrs, pc, src, kind, spec));
  }

  AclStatus getAclStatus(String src) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetAclStatus(xattrs, snapshots, users, pc, src));
  }

  void checkAccess(String src, FsAction mode) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new CheckAccess(pc, src, mode));
  }
}
