package io.hops.namenode.rpc;

import io.hops.dal.IdPool;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.Mkdirs;
import io.hops.namenode.ops.SetOwner;
import io.hops.namenode.ops.SetPermission;
import io.hops.namenode.ops.SetQuota;
import io.hops.namenode.ops.SetReplication;
import io.hops.namenode.ops.SetStoragePolicy;
import io.hops.namenode.ops.SetTimes;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.subtree.SubtreeOperations;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;

/**
 * The {@code ClientProtocol} calls that change the namespace: mkdirs, delete and rename (subtree
 * operations on directories), quotas, and the attributes of a file or directory (permission, owner,
 * times, replication, storage policy).
 */
public final class ClientNamespaceWrites {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final Configuration conf;
  private final IdPool inodeIds;
  private final Limits limits;
  private final SubtreeOperations subtrees;
  private final UsersAndGroups users;

  public ClientNamespaceWrites(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      Configuration conf,
      IdPool inodeIds,
      Limits limits,
      SubtreeOperations subtrees,
      UsersAndGroups users) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.conf = conf;
    this.inodeIds = inodeIds;
    this.limits = limits;
    this.subtrees = subtrees;
    this.users = users;
  }

  boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(
        () -> new Mkdirs(limits, blocks.clock(), inodeIds, pc, src, masked, createParent));
  }

  boolean delete(String src, boolean recursive) throws IOException {
    // HDFS resolves the path without checking its name first (FSDirDeleteOp.delete), so a relative
    // or empty one fails in INode.checkAbsolutePath, with an AssertionError.
    if (!src.startsWith("/")) {
      throw new AssertionError("Absolute path required, but got '" + src + "'");
    }
    var pc = checkers.ofCaller();
    return subtrees.delete(pc, src, recursive, ClientCalls.keptWith("delete"));
  }

  boolean rename(String src, String dst) throws IOException {
    var pc = checkers.ofCaller();
    return subtrees.rename(pc, src, dst, true, null, ClientCalls.keptWith("rename"));
  }

  void rename2(String src, String dst, Options.Rename... options) throws IOException {
    var pc = checkers.ofCaller();
    subtrees.rename(pc, src, dst, false, options, ClientCalls.keptWith("rename2"));
  }

  void setQuota(String path, long nsQuota, long dsQuota, StorageType type) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, SetQuota.command(nsQuota, dsQuota));
    SetQuota.checkArguments(nsQuota, dsQuota, type);
    var pc = checkers.ofCaller();
    subtrees.setQuota(pc, path, nsQuota, dsQuota);
  }

  void setPermission(String src, FsPermission permission) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new SetPermission(pc, src, permission));
  }

  void setOwner(String src, String username, String groupname) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new SetOwner(pc, users, src, username, groupname));
  }

  void setTimes(String src, long mtime, long atime) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new SetTimes(pc, src, mtime, atime));
  }

  boolean setReplication(String src, short replication) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new SetReplication(limits, blocks.clock(), pc, src, replication));
  }

  void setStoragePolicy(String src, String policyName) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new SetStoragePolicy(conf, pc, src, policyName));
  }

  void unsetStoragePolicy(String src) throws IOException {
    var pc = checkers.ofCaller();
    runner.run(() -> new SetStoragePolicy(conf, pc, src, null));
  }

  /** hops has no storage policy satisfier: HDFS's answer when the satisfier is off. */
  void satisfyStoragePolicy(String path) throws IOException {
    SetStoragePolicy.checkEnabled(conf, "satisfy storage policy");
    throw new UnsupportedActionException(
        "Cannot request to satisfy storage policy when storage policy satisfier feature has been"
            + " disabled by admin. Seek for an admin help to enable it or use Mover tool.");
  }
}
