package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlockTail;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.ipc.RetriableException;

/**
 * {@code addBlock}: the writer of a file gets a new block and the datanodes to write it to (HDFS
 * FSDirWriteFileOp.getAdditionalBlock). Commits the writer's {@code previous} block on the way
 * (completing it if enough replicas reported it); refuses with {@link NotReplicatedYetException},
 * which the client retries, while the block before it is not complete; recognizes a retried call
 * and returns the block it allocated before. Locks the file and the file's blocks' tail (its last
 * and penultimate blocks only, whose ids its lease path keeps): B + 2 PK + (B or PK) + 3 PPIS per
 * tail block + W, whatever the length of the file. Like HDFS, it checks the writer against the file
 * and does not renew the lease, so it reads no lease row: the files of one client get their blocks
 * in parallel.
 */
public final class AddBlock extends Operation<LocatedBlock> {
  private final BlockManager bm;
  private final String src;
  private final long fileId;
  private final String clientName;
  private final ExtendedBlock previous;
  private final Set<String> excluded = new HashSet<>();
  private final List<String> favored;
  private final String writer;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;
  private FileBlocks blocks;
  private long waitingFor = -1;
  private AncestorQuotas quotas = AncestorQuotas.none();

  public AddBlock(
      BlockManager bm,
      String writer,
      String src,
      long fileId,
      String clientName,
      ExtendedBlock previous,
      DatanodeInfo[] excludedNodes,
      String[] favoredNodes) {
    this.bm = bm;
    this.writer = writer;
    this.src = src;
    this.fileId = fileId;
    this.clientName = clientName;
    this.previous = previous;
    if (excludedNodes != null) {
      for (DatanodeInfo d : excludedNodes) {
        excluded.add(d.getDatanodeUuid());
      }
    }
    this.favored = favoredNodes == null ? List.of() : List.of(favoredNodes);
  }

  /** The block not yet reported by enough replicas when the call was refused, or -1. */
  public long waitingFor() {
    return waitingFor;
  }

  @Override
  public String name() {
    return "addBlock";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    OpenFiles.checkPool(bm.blockPoolId(), previous);
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    file = OpenFiles.lock(tx, resolved, fileId);
    // HDFS's getAdditionalBlock checks the writer against the inode and does not renew the lease:
    // no lease row is read, so the blocks of one client's files are added in parallel.
    leases = OpenFiles.leasesToCheck(tx, file, clientName);
    if (file != null && !file.isDir()) {
      blocks = FileBlockTail.lock(tx, file, LockMode.EXCLUSIVE, bm.datanodes(), -1, false);
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    }
  }

  @Override
  protected LocatedBlock execute(ExecutePhase tx) throws IOException {
    OpenFiles.checkLease(file, src, fileId, clientName, leases);
    BlockInfoRow last = blocks.last();
    BlockInfoRow penultimate = blocks.penultimate();
    if (!sameBlock(previous, last)) {
      boolean fullComplete =
          previous == null
              && last != null
              && last.numBytes() >= file.preferredBlockSize()
              && last.underConstructionState() == BlockState.COMPLETE;
      if (!fullComplete) {
        if (sameBlock(previous, penultimate)) {
          if (last.numBytes() != 0) {
            throw new IOException(
                "Request looked like a retry to allocate block "
                    + bm.extended(last).getLocalBlock()
                    + " but it already contains "
                    + last.numBytes()
                    + " bytes");
          }
          // A retry: the block allocated before, where it was expected.
          return bm.locatedBlock(blocks, last, blocks.length() - last.numBytes(), writer);
        }
        throw new IOException(
            "Cannot allocate block in "
                + src
                + ": passed 'previous' block "
                + previous
                + " does not match actual last block in file "
                + (last == null ? null : bm.extended(last).getLocalBlock()));
      }
    }
    // The block before the previous one must be complete (HDFS checkFileProgress).
    if (penultimate != null && penultimate.underConstructionState() != BlockState.COMPLETE) {
      waitingFor = penultimate.blockId();
      throw new NotReplicatedYetException("Not replicated yet: " + src);
    }
    MutableInode inode = MutableInode.of(file);
    long spaceBefore = FileSpace.of(file, last);
    if (previous != null) {
      Completion.commit(tx, bm, blocks, last, previous, src);
    }
    if (penultimate != null) {
      // From now on no tail read sees it: its replication is checked now (HDFS checks a block's
      // redundancy when it completes; complete() checks the tail's).
      bm.queueReplicationCheck(tx, blocks, penultimate, inode.replication);
    }
    Set<String> excludedNow = new HashSet<>(excluded); // placement adds the nodes it tried
    List<StorageStat> targets =
        bm.placement()
            .chooseTargets(
                inode.replication,
                writer,
                excludedNow,
                favored,
                inode.preferredBlockSize,
                StoragePolicies.ofFile(resolved.inodes(), file),
                List.of());
    if (targets.size() < bm.minReplication()) {
      int awaited = bm.datanodes().notYetHeardFrom();
      if (awaited > 0) {
        // A namenode that has just started has not heard from every datanode yet: the client
        // retries (on another namenode of an HA nameservice) instead of failing the write.
        throw new RetriableException(
            String.format(
                "File %s could only be written to %d of the %d minReplication nodes: this namenode"
                    + " has not yet heard from %d datanode(s) since it started.",
                src, targets.size(), bm.minReplication(), awaited));
      }
      int running = bm.datanodes().heardFromLive().size();
      throw new IOException(
          String.format(
              "File %s could only be written to %d of the %d minReplication nodes. There are %d"
                  + " datanode(s) running and %d node(s) are excluded in this operation.",
              src, targets.size(), bm.minReplication(), running, excludedNow.size()));
    }
    // HDFS FSDirectory.addBlock: the new block counts in full, against every quota above.
    long spaceAfter = (blocks.length() + inode.preferredBlockSize) * inode.replication;
    quotas.verify(0, spaceAfter - spaceBefore);
    quotas.add(0, spaceAfter - spaceBefore);
    quotas.flush(tx);
    long offset = blocks.length();
    BlockInfoRow added =
        bm.addBlock(tx, inode.id, blocks.nextIndex(), offset, bm.newGenerationStamp(0), targets);
    blocks.replace(added);
    blocks.recordTail(tx);
    inode.size = blocks.length();
    tx.update(InodeRow.TABLE, inode.toRow());
    return bm.locatedNewBlock(added, targets, offset);
  }

  static boolean sameBlock(ExtendedBlock a, BlockInfoRow b) {
    if (a == null || b == null) {
      return a == null && b == null;
    }
    return a.getBlockId() == b.blockId() && a.getGenerationStamp() == b.generationStamp();
  }
}
