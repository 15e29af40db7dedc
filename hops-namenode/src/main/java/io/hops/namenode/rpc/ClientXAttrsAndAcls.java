package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.ChangeAcl;
import io.hops.namenode.ops.CheckAccess;
import io.hops.namenode.ops.GetAclStatus;
import io.hops.namenode.ops.GetXAttrs;
import io.hops.namenode.ops.RemoveXAttr;
import io.hops.namenode.ops.SetXAttr;
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
final class ClientXAttrsAndAcls {
  private final Namesystem ns;

  ClientXAttrsAndAcls(Namesystem ns) {
    this.ns = ns;
  }

  void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    var pc = ns.checker();
    ns.runAtMostOnce(
        ClientCalls.keptWith("setXAttr"), () -> new SetXAttr(ns.xattrs(), pc, src, xAttr, flag));
  }

  List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetXAttrs(ns.xattrs(), ns.snapshots(), pc, src, xAttrs, false));
  }

  List<XAttr> listXAttrs(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetXAttrs(ns.xattrs(), ns.snapshots(), pc, src, null, true));
  }

  void removeXAttr(String src, XAttr xAttr) throws IOException {
    var pc = ns.checker();
    ns.runAtMostOnce(
        ClientCalls.keptWith("removeXAttr"), () -> new RemoveXAttr(ns.xattrs(), pc, src, xAttr));
  }

  void changeAcl(String src, ChangeAcl.Kind kind, List<AclEntry> spec) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new ChangeAcl(ns.xattrs(), pc, src, kind, spec));
  }

  AclStatus getAclStatus(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetAclStatus(ns.xattrs(), ns.snapshots(), ns.users(), pc, src));
  }

  void checkAccess(String src, FsAction mode) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new CheckAccess(pc, src, mode));
  }
}
