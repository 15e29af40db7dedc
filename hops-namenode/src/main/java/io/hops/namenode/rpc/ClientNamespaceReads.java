package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signedForRead;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.BatchedListing;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.ops.GetFileInfo;
import io.hops.namenode.ops.GetListing;
import io.hops.namenode.ops.GetPreferredBlockSize;
import io.hops.namenode.ops.GetStoragePolicy;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.subtree.SubtreeOperations;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.QuotaUsage;
import org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus;

/**
 * The {@code ClientProtocol} calls that read the namespace: statuses, listings, content summaries
 * and quota usage, a file's block size and storage policy.
 */
public final class ClientNamespaceReads {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final Configuration conf;
  private final Limits limits;
  private final SmallFileStore smallFiles;
  private final SnapshotSettings snapshots;
  private final FileStatuses statuses;
  private final SubtreeOperations subtrees;
  private final BlockTokens blockTokens;

  public ClientNamespaceReads(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      Configuration conf,
      Limits limits,
      SmallFileStore smallFiles,
      SnapshotSettings snapshots,
      FileStatuses statuses,
      SubtreeOperations subtrees,
      BlockTokens blockTokens) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.conf = conf;
    this.limits = limits;
    this.smallFiles = smallFiles;
    this.snapshots = snapshots;
    this.statuses = statuses;
    this.subtrees = subtrees;
    this.blockTokens = blockTokens;
  }

  private GetFileInfo fileInfo(PermissionChecker pc, String src, String opName) {
    return new GetFileInfo(statuses, snapshots, pc, src, opName);
  }

  private GetListing listing(
      PermissionChecker pc, String src, byte[] startAfter, boolean needLocation) {
    return new GetListing(
        statuses, snapshots, limits, blocks, smallFiles, pc, src, startAfter, needLocation);
  }

  HdfsFileStatus getFileInfo(String src) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> fileInfo(pc, src, "getFileInfo"));
  }

  HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    // hops has no symlinks yet, so the link's own status is the file's.
    var pc = checkers.ofCaller();
    return runner.run(() -> fileInfo(pc, src, "getFileLinkInfo"));
  }

  DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation)
      throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> listing(pc, src, startAfter, needLocation));
  }

  /** A file's status with its block locations; a directory's plain status; null if missing. */
  HdfsLocatedFileStatus getLocatedFileInfo(String src, boolean needBlockToken) throws IOException {
    HdfsFileStatus stat = getFileInfo(src);
    if (stat == null || stat.isDirectory()) {
      return (HdfsLocatedFileStatus) stat;
    }
    var pc = checkers.ofCaller();
    DirectoryListing one = runner.run(() -> listing(pc, src, HdfsFileStatus.EMPTY_NAME, true));
    if (one == null
        || one.getPartialListing().length != 1
        || one.getPartialListing()[0].isDirectory()) {
      return null; // replaced by a directory meanwhile: as if looked up a moment later
    }
    var located = (HdfsLocatedFileStatus) one.getPartialListing()[0];
    if (needBlockToken) {
      signedForRead(blockTokens, located.getLocatedBlocks());
    }
    return located;
  }

  BatchedDirectoryListing getBatchedListing(String[] srcs, byte[] startAfter, boolean needLocation)
      throws IOException {
    var pc = checkers.ofCaller();
    return BatchedListing.list(
        runner, conf, (src, from) -> listing(pc, src, from, needLocation), srcs, startAfter);
  }

  ContentSummary getContentSummary(String path) throws IOException {
    var pc = checkers.ofCaller();
    return subtrees.contentSummary(pc, path);
  }

  QuotaUsage getQuotaUsage(String path) throws IOException {
    var pc = checkers.ofCaller();
    return subtrees.quotaUsage(pc, path);
  }

  long getPreferredBlockSize(String src) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetPreferredBlockSize(pc, src));
  }

  BlockStoragePolicy getStoragePolicy(String path) throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new GetStoragePolicy(pc, path));
  }

  BlockStoragePolicy[] getStoragePolicies() {
    return StoragePolicies.all();
  }
}
