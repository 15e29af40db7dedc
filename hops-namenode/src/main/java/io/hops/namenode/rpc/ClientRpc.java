package io.hops.namenode.rpc;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BadBlockReports;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.ops.ChangeAcl;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.smallfiles.DatabaseFileMover;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.fs.XAttr;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.AclStatus;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * The {@code ClientProtocol} methods hops implements. This class holds the file system's calls,
 * each handed to the class of its protocol area (namespace reads and writes, file reads and writes,
 * pipelines, leases, xattrs and ACLs), which runs it as a transaction. Below it, each layer a
 * protocol area: {@link ClientServiceRpc} the calls about the service (operators' calls and
 * reports, open and corrupt files, delegation tokens), {@link ClientSnapshotRpc} snapshots, {@link
 * FeaturesOff} the features hops does not have, answered as HDFS answers with them off; what
 * remains is refused by {@link UnsupportedClientProtocol}, naming the method.
 */
public class ClientRpc extends ClientServiceRpc {
  private final TransactionRunner runner;
  private final BlockManager blocks;
  private final ClientNamespaceReads namespaceReads;
  private final ClientNamespaceWrites namespaceWrites;
  private final ClientFileReads fileReads;
  private final ClientFileWrites fileWrites;
  private final ClientPipeline pipeline;
  private final ClientLeases leases;
  private final ClientXAttrsAndAcls xattrsAndAcls;

  /**
   * @param areas the protocol areas the calls go to
   * @param runner runs bad block reports, and the path checks of the features hops does not have
   * @param checkers the caller's permission checker for those checks and the operators' calls
   * @param blocks the block manager, for bad block reports
   * @param blockTokens the block tokens, for the server defaults and the data encryption key
   * @param conf the configuration, for the server defaults and the features off
   */
  public ClientRpc(
      ClientProtocolAreas areas,
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      BlockTokens blockTokens,
      Configuration conf) {
    super(areas, runner, checkers, blockTokens, conf);
    this.runner = runner;
    this.blocks = blocks;
    this.namespaceReads = areas.namespaceReads();
    this.namespaceWrites = areas.namespaceWrites();
    this.fileReads = areas.fileReads();
    this.fileWrites = areas.fileWrites();
    this.pipeline = areas.pipeline();
    this.leases = areas.leases();
    this.xattrsAndAcls = areas.xattrsAndAcls();
  }

  /** Set once the namenode's address is known (the mover writes through a client of it). */
  public void setDatabaseFileMover(DatabaseFileMover mover) {
    fileWrites.setDatabaseFileMover(mover);
  }

  /**
   * A file was read by another call than {@code getBlockLocations} (hops-client's one-call read of
   * a database file): its access time is kept the same way, in the background.
   */
  public void fileRead(InodeRow file) {
    fileReads.fileRead(file);
  }

  // ---- namespace reads ----

  @Override
  public HdfsFileStatus getFileInfo(String src) throws IOException {
    return namespaceReads.getFileInfo(src);
  }

  @Override
  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    return namespaceReads.getFileLinkInfo(src);
  }

  @Override
  public DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation)
      throws IOException {
    return namespaceReads.getListing(src, startAfter, needLocation);
  }

  @Override
  public HdfsLocatedFileStatus getLocatedFileInfo(String src, boolean needBlockToken)
      throws IOException {
    return namespaceReads.getLocatedFileInfo(src, needBlockToken);
  }

  @Override
  public BatchedDirectoryListing getBatchedListing(
      String[] srcs, byte[] startAfter, boolean needLocation) throws IOException {
    return namespaceReads.getBatchedListing(srcs, startAfter, needLocation);
  }

  @Override
  public ContentSummary getContentSummary(String path) throws IOException {
    return namespaceReads.getContentSummary(path);
  }

  @Override
  public QuotaUsage getQuotaUsage(String path) throws IOException {
    return namespaceReads.getQuotaUsage(path);
  }

  @Override
  public long getPreferredBlockSize(String src) throws IOException {
    return namespaceReads.getPreferredBlockSize(src);
  }

  @Override
  public BlockStoragePolicy getStoragePolicy(String path) throws IOException {
    return namespaceReads.getStoragePolicy(path);
  }

  @Override
  public BlockStoragePolicy[] getStoragePolicies() {
    return namespaceReads.getStoragePolicies();
  }

  // ---- namespace writes ----

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    return namespaceWrites.mkdirs(src, masked, createParent);
  }

  @Override
  public boolean delete(String src, boolean recursive) throws IOException {
    return namespaceWrites.delete(src, recursive);
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    return namespaceWrites.rename(src, dst);
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    namespaceWrites.rename2(src, dst, options);
  }

  @Override
  public void setQuota(String path, long nsQuota, long dsQuota, StorageType type)
      throws IOException {
    namespaceWrites.setQuota(path, nsQuota, dsQuota, type);
  }

  @Override
  public void setPermission(String src, FsPermission permission) throws IOException {
    namespaceWrites.setPermission(src, permission);
  }

  @Override
  public void setOwner(String src, String username, String groupname) throws IOException {
    namespaceWrites.setOwner(src, username, groupname);
  }

  @Override
  public void setTimes(String src, long mtime, long atime) throws IOException {
    namespaceWrites.setTimes(src, mtime, atime);
  }

  @Override
  public boolean setReplication(String src, short replication) throws IOException {
    return namespaceWrites.setReplication(src, replication);
  }

  @Override
  public void setStoragePolicy(String src, String policyName) throws IOException {
    namespaceWrites.setStoragePolicy(src, policyName);
  }

  @Override
  public void unsetStoragePolicy(String src) throws IOException {
    namespaceWrites.unsetStoragePolicy(src);
  }

  @Override
  public void satisfyStoragePolicy(String path) throws IOException {
    namespaceWrites.satisfyStoragePolicy(path);
  }

  // ---- file reads ----

  @Override
  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    return fileReads.getBlockLocations(src, offset, length);
  }

  @Override
  public void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    BadBlockReports.report(this.blocks, runner, blocks);
  }

  // ---- file writes ----

  @Override
  public HdfsFileStatus create(
      String src,
      FsPermission masked,
      String clientName,
      EnumSetWritable<CreateFlag> flag,
      boolean createParent,
      short replication,
      long blockSize,
      CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName,
      String storagePolicy)
      throws IOException {
    return fileWrites.create(
        src,
        masked,
        clientName,
        flag,
        createParent,
        replication,
        blockSize,
        supportedVersions,
        ecPolicyName,
        storagePolicy);
  }

  @Override
  public LocatedBlock addBlock(
      String src,
      String clientName,
      ExtendedBlock previous,
      DatanodeInfo[] excludeNodes,
      long fileId,
      String[] favoredNodes,
      EnumSet<AddBlockFlag> addBlockFlags)
      throws IOException {
    return fileWrites.addBlock(
        src, clientName, previous, excludeNodes, fileId, favoredNodes, addBlockFlags);
  }

  @Override
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId)
      throws IOException {
    return fileWrites.complete(src, clientName, last, fileId);
  }

  @Override
  public LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    return fileWrites.append(src, clientName, flag);
  }

  @Override
  public void fsync(String src, long fileId, String clientName, long lastBlockLength)
      throws IOException {
    fileWrites.fsync(src, fileId, clientName, lastBlockLength);
  }

  @Override
  public void abandonBlock(ExtendedBlock b, long fileId, String src, String holder)
      throws IOException {
    fileWrites.abandonBlock(b, fileId, src, holder);
  }

  @Override
  public void concat(String trg, String[] srcs) throws IOException {
    fileWrites.concat(trg, srcs);
  }

  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    return fileWrites.truncate(src, newLength, clientName);
  }

  // ---- pipeline recovery ----

  @Override
  public LocatedBlock getAdditionalDatanode(
      String src,
      long fileId,
      ExtendedBlock blk,
      DatanodeInfo[] existings,
      String[] existingStorageIDs,
      DatanodeInfo[] excludes,
      int numAdditionalNodes,
      String clientName)
      throws IOException {
    return pipeline.getAdditionalDatanode(
        src, fileId, blk, existings, existingStorageIDs, excludes, numAdditionalNodes, clientName);
  }

  @Override
  public LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName)
      throws IOException {
    return pipeline.updateBlockForPipeline(block, clientName);
  }

  @Override
  public void updatePipeline(
      String clientName,
      ExtendedBlock oldBlock,
      ExtendedBlock newBlock,
      DatanodeID[] newNodes,
      String[] newStorageIDs)
      throws IOException {
    pipeline.updatePipeline(clientName, oldBlock, newBlock, newNodes, newStorageIDs);
  }

  // ---- leases ----

  @Override
  public void renewLease(String clientName, List<String> namespaces) throws IOException {
    leases.renewLease(clientName, namespaces);
  }

  @Override
  public boolean recoverLease(String src, String clientName) throws IOException {
    return leases.recoverLease(src, clientName);
  }

  @Override
  public boolean isFileClosed(String src) throws IOException {
    return leases.isFileClosed(src);
  }

  // ---- extended attributes, ACLs and access checks ----

  @Override
  public void setXAttr(String src, XAttr xAttr, EnumSet<XAttrSetFlag> flag) throws IOException {
    xattrsAndAcls.setXAttr(src, xAttr, flag);
  }

  @Override
  public List<XAttr> getXAttrs(String src, List<XAttr> xAttrs) throws IOException {
    return xattrsAndAcls.getXAttrs(src, xAttrs);
  }

  @Override
  public List<XAttr> listXAttrs(String src) throws IOException {
    return xattrsAndAcls.listXAttrs(src);
  }

  @Override
  public void removeXAttr(String src, XAttr xAttr) throws IOException {
    xattrsAndAcls.removeXAttr(src, xAttr);
  }

  @Override
  public void modifyAclEntries(String src, List<AclEntry> spec) throws IOException {
    xattrsAndAcls.changeAcl(src, ChangeAcl.Kind.MODIFY, spec);
  }

  @Override
  public void removeAclEntries(String src, List<AclEntry> spec) throws IOException {
    xattrsAndAcls.changeAcl(src, ChangeAcl.Kind.REMOVE_ENTRIES, spec);
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    xattrsAndAcls.changeAcl(src, ChangeAcl.Kind.REMOVE_DEFAULT, null);
  }

  @Override
  public void removeAcl(String src) throws IOException {
    xattrsAndAcls.changeAcl(src, ChangeAcl.Kind.REMOVE, null);
  }

  @Override
  public void setAcl(String src, List<AclEntry> spec) throws IOException {
    xattrsAndAcls.changeAcl(src, ChangeAcl.Kind.SET, spec);
  }

  @Override
  public AclStatus getAclStatus(String src) throws IOException {
    return xattrsAndAcls.getAclStatus(src);
  }

  @Override
  public void checkAccess(String src, FsAction mode) throws IOException {
    xattrsAndAcls.checkAccess(src, mode);
  }
}
