package io.hops.namenode.web.webhdfs;

import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.permission.FsCreateModes;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.XAttrHelper;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.web.resources.AccessTimeParam;
import org.apache.hadoop.hdfs.web.resources.AclPermissionParam;
import org.apache.hadoop.hdfs.web.resources.BlockSizeParam;
import org.apache.hadoop.hdfs.web.resources.BufferSizeParam;
import org.apache.hadoop.hdfs.web.resources.CreateFlagParam;
import org.apache.hadoop.hdfs.web.resources.CreateParentParam;
import org.apache.hadoop.hdfs.web.resources.DestinationParam;
import org.apache.hadoop.hdfs.web.resources.ECPolicyParam;
import org.apache.hadoop.hdfs.web.resources.GroupParam;
import org.apache.hadoop.hdfs.web.resources.ModificationTimeParam;
import org.apache.hadoop.hdfs.web.resources.NameSpaceQuotaParam;
import org.apache.hadoop.hdfs.web.resources.OldSnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.OverwriteParam;
import org.apache.hadoop.hdfs.web.resources.OwnerParam;
import org.apache.hadoop.hdfs.web.resources.PermissionParam;
import org.apache.hadoop.hdfs.web.resources.PutOpParam;
import org.apache.hadoop.hdfs.web.resources.RenameOptionSetParam;
import org.apache.hadoop.hdfs.web.resources.ReplicationParam;
import org.apache.hadoop.hdfs.web.resources.SnapshotNameParam;
import org.apache.hadoop.hdfs.web.resources.StoragePolicyParam;
import org.apache.hadoop.hdfs.web.resources.StorageSpaceQuotaParam;
import org.apache.hadoop.hdfs.web.resources.StorageTypeParam;
import org.apache.hadoop.hdfs.web.resources.UnmaskedPermissionParam;
import org.apache.hadoop.hdfs.web.resources.XAttrNameParam;
import org.apache.hadoop.hdfs.web.resources.XAttrSetFlagParam;
import org.apache.hadoop.hdfs.web.resources.XAttrValueParam;

/** WebHDFS's PUT operations: namespace changes, and CREATE by redirect to a datanode. */
final class PutOps {
  private PutOps() {}

  static Reply handle(WebHdfsContext c, WebHdfsRequest r) throws IOException {
    PutOpParam op = r.get(PutOpParam.NAME, PutOpParam.DEFAULT, PutOpParam::new);
    ClientProtocol cp = c.cp();
    String path = r.path();
    switch (op.getValue()) {
      case CREATE -> {
        BlockSizeParam blockSize =
            r.get(BlockSizeParam.NAME, BlockSizeParam.DEFAULT, BlockSizeParam::new);
        return Reply.redirect(
            c.redirect()
                .uri(
                    r,
                    op.getValue(),
                    -1L,
                    GetOps.excluded(r),
                    permission(r),
                    unmasked(r),
                    r.get(OverwriteParam.NAME, OverwriteParam.DEFAULT, OverwriteParam::new),
                    r.get(BufferSizeParam.NAME, BufferSizeParam.DEFAULT, BufferSizeParam::new),
                    replication(r),
                    blockSize,
                    r.get(
                        CreateParentParam.NAME, CreateParentParam.DEFAULT, CreateParentParam::new),
                    r.get(CreateFlagParam.NAME, CreateFlagParam.DEFAULT, CreateFlagParam::new)),
            GetOps.noRedirect(r));
      }
      case MKDIRS -> {
        PermissionParam permission = permission(r);
        UnmaskedPermissionParam unmasked = unmasked(r);
        FsPermission masked =
            unmasked.getValue() == null
                ? permission.getDirFsPermission()
                : FsCreateModes.create(
                    permission.getDirFsPermission(), unmasked.getDirFsPermission());
        return Reply.json("boolean", cp.mkdirs(path, masked, true));
      }
      case RENAME -> {
        DestinationParam destination =
            r.get(DestinationParam.NAME, DestinationParam.DEFAULT, DestinationParam::new);
        WebHdfsOp.require(op, destination);
        EnumSet<Options.Rename> options =
            r.get(
                    RenameOptionSetParam.NAME,
                    RenameOptionSetParam.DEFAULT,
                    RenameOptionSetParam::new)
                .getValue();
        if (options.isEmpty()) {
          return Reply.json("boolean", cp.rename(path, destination.getValue()));
        }
        cp.rename2(path, destination.getValue(), options.toArray(new Options.Rename[0]));
        return Reply.ok();
      }
      case SETREPLICATION -> {
        return Reply.json("boolean", cp.setReplication(path, replication(r).getValue(c.conf())));
      }
      case SETOWNER -> {
        String owner = r.get(OwnerParam.NAME, OwnerParam.DEFAULT, OwnerParam::new).getValue();
        String group = r.get(GroupParam.NAME, GroupParam.DEFAULT, GroupParam::new).getValue();
        if (owner == null && group == null) {
          throw new IllegalArgumentException("Both owner and group are empty.");
        }
        cp.setOwner(path, owner, group);
        return Reply.ok();
      }
      case SETPERMISSION -> {
        cp.setPermission(path, permission(r).getDirFsPermission());
        return Reply.ok();
      }
      case SETTIMES -> {
        long mtime =
            r.get(
                    ModificationTimeParam.NAME,
                    ModificationTimeParam.DEFAULT,
                    ModificationTimeParam::new)
                .getValue();
        long atime =
            r.get(AccessTimeParam.NAME, AccessTimeParam.DEFAULT, AccessTimeParam::new).getValue();
        cp.setTimes(path, mtime, atime);
        return Reply.ok();
      }
      case MODIFYACLENTRIES -> {
        AclPermissionParam acl = acl(r);
        WebHdfsOp.require(op, acl);
        cp.modifyAclEntries(path, acl.getAclPermission(true));
        return Reply.ok();
      }
      case REMOVEACLENTRIES -> {
        AclPermissionParam acl = acl(r);
        WebHdfsOp.require(op, acl);
        cp.removeAclEntries(path, acl.getAclPermission(false));
        return Reply.ok();
      }
      case REMOVEDEFAULTACL -> {
        cp.removeDefaultAcl(path);
        return Reply.ok();
      }
      case REMOVEACL -> {
        cp.removeAcl(path);
        return Reply.ok();
      }
      case SETACL -> {
        AclPermissionParam acl = acl(r);
        WebHdfsOp.require(op, acl);
        cp.setAcl(path, acl.getAclPermission(true));
        return Reply.ok();
      }
      case SETXATTR -> {
        XAttrNameParam name = xattrName(r);
        XAttrSetFlagParam flag =
            r.get(XAttrSetFlagParam.NAME, XAttrSetFlagParam.DEFAULT, XAttrSetFlagParam::new);
        WebHdfsOp.require(op, name, flag);
        XAttrValueParam value =
            r.get(XAttrValueParam.NAME, XAttrValueParam.DEFAULT, XAttrValueParam::new);
        cp.setXAttr(
            path,
            XAttrHelper.buildXAttr(name.getXAttrName(), value.getXAttrValue()),
            flag.getFlag());
        return Reply.ok();
      }
      case REMOVEXATTR -> {
        XAttrNameParam name = xattrName(r);
        WebHdfsOp.require(op, name);
        cp.removeXAttr(path, XAttrHelper.buildXAttr(name.getXAttrName()));
        return Reply.ok();
      }
      case SETSTORAGEPOLICY -> {
        String policy =
            r.get(StoragePolicyParam.NAME, StoragePolicyParam.DEFAULT, StoragePolicyParam::new)
                .getValue();
        if (policy == null) {
          throw new IllegalArgumentException("Storage policy name is empty.");
        }
        cp.setStoragePolicy(path, policy);
        return Reply.ok();
      }
      case SATISFYSTORAGEPOLICY -> {
        cp.satisfyStoragePolicy(path);
        return Reply.ok();
      }
      case CREATESYMLINK -> {
        DestinationParam destination =
            r.get(DestinationParam.NAME, DestinationParam.DEFAULT, DestinationParam::new);
        WebHdfsOp.require(op, destination);
        cp.createSymlink(
            destination.getValue(),
            path,
            PermissionParam.getDefaultSymLinkFsPermission(),
            r.get(CreateParentParam.NAME, CreateParentParam.DEFAULT, CreateParentParam::new)
                .getValue());
        return Reply.ok();
      }
      case ALLOWSNAPSHOT -> {
        cp.allowSnapshot(path);
        return Reply.ok();
      }
      case DISALLOWSNAPSHOT -> {
        cp.disallowSnapshot(path);
        return Reply.ok();
      }
      case CREATESNAPSHOT -> {
        return Reply.json("Path", cp.createSnapshot(path, snapshotName(r).getValue()));
      }
      case RENAMESNAPSHOT -> {
        OldSnapshotNameParam old =
            r.get(
                OldSnapshotNameParam.NAME, OldSnapshotNameParam.DEFAULT, OldSnapshotNameParam::new);
        SnapshotNameParam name = snapshotName(r);
        WebHdfsOp.require(op, old, name);
        cp.renameSnapshot(path, old.getValue(), name.getValue());
        return Reply.ok();
      }
      case ENABLEECPOLICY, DISABLEECPOLICY, SETECPOLICY -> {
        ECPolicyParam policy = r.get(ECPolicyParam.NAME, ECPolicyParam.DEFAULT, ECPolicyParam::new);
        WebHdfsOp.require(op, policy);
        switch (op.getValue()) {
          case ENABLEECPOLICY -> cp.enableErasureCodingPolicy(policy.getValue());
          case DISABLEECPOLICY -> cp.disableErasureCodingPolicy(policy.getValue());
          default -> cp.setErasureCodingPolicy(path, policy.getValue());
        }
        return Reply.ok();
      }
      case SETQUOTA -> {
        NameSpaceQuotaParam ns =
            r.get(NameSpaceQuotaParam.NAME, NameSpaceQuotaParam.DEFAULT, NameSpaceQuotaParam::new);
        StorageSpaceQuotaParam ss = spaceQuota(r);
        WebHdfsOp.require(op, ns, ss);
        cp.setQuota(path, ns.getValue(), ss.getValue(), null);
        return Reply.ok();
      }
      case SETQUOTABYSTORAGETYPE -> {
        StorageSpaceQuotaParam ss = spaceQuota(r);
        StorageTypeParam type =
            r.get(StorageTypeParam.NAME, StorageTypeParam.DEFAULT, StorageTypeParam::new);
        WebHdfsOp.require(op, ss, type);
        cp.setQuota(
            path,
            HdfsConstants.QUOTA_DONT_SET,
            ss.getValue(),
            StorageType.parseStorageType(type.getValue()));
        return Reply.ok();
      }
      case RENEWDELEGATIONTOKEN -> {
        long expiry = cp.renewDelegationToken(WebHdfsTokens.argument(op, r));
        return Reply.json("long", expiry);
      }
      case CANCELDELEGATIONTOKEN -> {
        cp.cancelDelegationToken(WebHdfsTokens.argument(op, r));
        return Reply.ok();
      }
      default -> throw WebHdfsOp.unsupported(op);
    }
  }

  private static SnapshotNameParam snapshotName(WebHdfsRequest r) {
    return r.get(SnapshotNameParam.NAME, SnapshotNameParam.DEFAULT, SnapshotNameParam::new);
  }

  private static StorageSpaceQuotaParam spaceQuota(WebHdfsRequest r) {
    return r.get(
        StorageSpaceQuotaParam.NAME, StorageSpaceQuotaParam.DEFAULT, StorageSpaceQuotaParam::new);
  }

  private static PermissionParam permission(WebHdfsRequest r) {
    return r.get(PermissionParam.NAME, PermissionParam.DEFAULT, PermissionParam::new);
  }

  private static UnmaskedPermissionParam unmasked(WebHdfsRequest r) {
    return r.get(
        UnmaskedPermissionParam.NAME,
        UnmaskedPermissionParam.DEFAULT,
        UnmaskedPermissionParam::new);
  }

  private static ReplicationParam replication(WebHdfsRequest r) {
    return r.get(ReplicationParam.NAME, ReplicationParam.DEFAULT, ReplicationParam::new);
  }

  private static AclPermissionParam acl(WebHdfsRequest r) {
    return r.get(AclPermissionParam.NAME, AclPermissionParam.DEFAULT, AclPermissionParam::new);
  }

  private static XAttrNameParam xattrName(WebHdfsRequest r) {
    return r.get(XAttrNameParam.NAME, XAttrNameParam.DEFAULT, XAttrNameParam::new);
  }
}
