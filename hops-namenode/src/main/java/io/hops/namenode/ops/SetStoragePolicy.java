package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code setStoragePolicy} and {@code unsetStoragePolicy} (HDFS FSDirAttrOp): the policy id is
 * stored on the inode itself (B + PK(EXCLUSIVE) + W); descendants inherit it when they have none.
 * WRITE on the target is needed, the superuser only when {@code
 * dfs.storage.policy.permissions.superuser-only} is set; a copy-on-create policy (LAZY_PERSIST) may
 * not be set on, or changed from, an existing file.
 */
public final class SetStoragePolicy extends Operation<Void> {
  private final Configuration conf;
  private final PermissionChecker pc;
  private final String path;
  private final String policyName;
  private ResolvedPath resolved;

  /** {@code policyName} null unsets the policy. */
  public SetStoragePolicy(
      Configuration conf, PermissionChecker pc, String path, String policyName) {
    this.conf = conf;
    this.pc = pc;
    this.path = path;
    this.policyName = policyName;
  }

  @Override
  public String name() {
    return policyName == null ? "unsetStoragePolicy" : "setStoragePolicy";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    checkEnabled(conf, policyName == null ? "unset storage policy" : "set storage policy");
    if (policyName != null && StoragePolicies.byName(policyName) == null) {
      throw new HadoopIllegalArgumentException(
          "Cannot find a block policy with the name " + policyName);
    }
    if (pc.isSuperuser()
        || !conf.getBoolean(
            DFSConfigKeys.DFS_STORAGE_POLICY_PERMISSIONS_SUPERUSER_ONLY_KEY,
            DFSConfigKeys.DFS_STORAGE_POLICY_PERMISSIONS_SUPERUSER_ONLY_DEFAULT)) {
      resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
      return;
    }
    throw new AccessControlException(
        "Access denied for user "
            + pc.caller().user()
            + ". Superuser privilege is required for operation "
            + (policyName == null ? "unsetStoragePolicy" : "setStoragePolicy"));
  }

  /** HDFS's refusal when storage policies are switched off. */
  public static void checkEnabled(Configuration conf, String what) throws IOException {
    if (!conf.getBoolean(
        DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_KEY,
        DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_DEFAULT)) {
      throw new IOException(
          String.format(
              "Failed to %s since %s is set to false.",
              what, DFSConfigKeys.DFS_STORAGE_POLICY_ENABLED_KEY));
    }
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    String full = PathNames.prefix(resolved.components(), resolved.depth());
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("File/Directory does not exist: " + full);
    }
    pc.check(target, full, FsAction.WRITE);
    byte id =
        policyName == null
            ? HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED
            : StoragePolicies.byName(policyName).getId();
    if (!target.isDir()) {
      if (id != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED) {
        BlockStoragePolicy p = StoragePolicies.byId(id);
        if (p.isCopyOnCreateFile()) {
          throw new HadoopIllegalArgumentException(
              "Policy " + p + " cannot be set after file creation.");
        }
      }
      BlockStoragePolicy current =
          target.storagePolicy() == HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED
              ? null
              : StoragePolicies.byId(target.storagePolicy());
      if (current != null && current.isCopyOnCreateFile()) {
        throw new HadoopIllegalArgumentException(
            "Existing policy " + current.getName() + " cannot be changed after file creation.");
      }
    }
    if (target.storagePolicy() != id) {
      MutableInode inode = MutableInode.of(target);
      inode.storagePolicy = id;
      tx.update(InodeRow.TABLE, inode.toRow());
    }
    return null;
  }
}
