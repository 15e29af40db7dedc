package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.Mkdirs;
import io.hops.namenode.ops.SetOwner;
import io.hops.namenode.ops.SetPermission;
import io.hops.namenode.ops.SetQuota;
import io.hops.namenode.ops.SetReplication;
import io.hops.namenode.ops.SetStoragePolicy;
import io.hops.namenode.ops.SetTimes;
import java.io.IOException;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;

/**
 * The {@code ClientProtocol} calls that change the namespace: mkdirs, delete and rename (subtree
 * operations on directories), quotas, and the attributes of a file or directory (permission, owner,
 * times, replication, storage policy).
 */
final class ClientNamespaceWrites {
  private final Namesystem ns;

  ClientNamespaceWrites(Namesystem ns) {
    this.ns = ns;
  }

  boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    var pc = ns.checker();
    return ns.run(
        () ->
            new Mkdirs(
                ns.limits(), ns.blocks().clock(), ns.inodeIds(), pc, src, masked, createParent));
  }

  boolean delete(String src, boolean recursive) throws IOException {
    // HDFS resolves the path without checking its name first (FSDirDeleteOp.delete), so a relative
    // or empty one fails in INode.checkAbsolutePath, with an AssertionError.
    if (!src.startsWith("/")) {
      throw new AssertionError("Absolute path required, but got '" + src + "'");
    }
    var pc = ns.checker();
    return ns.subtrees().delete(pc, src, recursive, ClientCalls.keptWith("delete"));
  }

  boolean rename(String src, String dst) throws IOException {
    var pc = ns.checker();
    return ns.subtrees().rename(pc, src, dst, true, null, ClientCalls.keptWith("rename"));
  }

  void rename2(String src, String dst, Options.Rename... options) throws IOException {
    var pc = ns.checker();
    ns.subtrees().rename(pc, src, dst, false, options, ClientCalls.keptWith("rename2"));
  }

  void setQuota(String path, long nsQuota, long dsQuota, StorageType type) throws IOException {
    NamenodeRpc.checkSuperuser(ns.checkers(), SetQuota.command(nsQuota, dsQuota));
    SetQuota.checkArguments(nsQuota, dsQuota, type);
    var pc = ns.checker();
    ns.subtrees().setQuota(pc, path, nsQuota, dsQuota);
  }

  void setPermission(String src, FsPermission permission) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetPermission(pc, src, permission));
  }

  void setOwner(String src, String username, String groupname) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetOwner(pc, ns.users(), src, username, groupname));
  }

  void setTimes(String src, long mtime, long atime) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetTimes(pc, src, mtime, atime));
  }

  boolean setReplication(String src, short replication) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new SetReplication(ns.limits(), ns.blocks().clock(), pc, src, replication));
  }

  void setStoragePolicy(String src, String policyName) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetStoragePolicy(ns.conf(), pc, src, policyName));
  }

  void unsetStoragePolicy(String src) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetStoragePolicy(ns.conf(), pc, src, null));
  }

  /** hops has no storage policy satisfier: HDFS's answer when the satisfier is off. */
  void satisfyStoragePolicy(String path) throws IOException {
    SetStoragePolicy.checkEnabled(ns.conf(), "satisfy storage policy");
    throw new UnsupportedActionException(
        "Cannot request to satisfy storage policy when storage policy satisfier feature has been"
            + " disabled by admin. Seek for an admin help to enable it or use Mover tool.");
  }
}
