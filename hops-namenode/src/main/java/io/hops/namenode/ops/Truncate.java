package io.hops.namenode.ops;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.leases.BlockRecovery;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.snapshot.CopyOnTruncate;
import io.hops.namenode.ops.snapshot.SmallFileTails;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.NavigableMap;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * {@code truncate} (HDFS FSDirTruncateOp): whole blocks past the new length go at once (their
 * replicas are invalidated). On a block boundary that is all: the answer is true. Inside a block,
 * the file is reopened and the block's replicas are cut by block recovery in place (HDFS's in-place
 * truncate), or copied into a new block when a snapshot reads the block, whose blocks past the new
 * length are kept too ({@link CopyOnTruncate}; docs/architecture.md, "Snapshots"): the file shows
 * the new length at once, the answer is false, and the file closes when the primary datanode
 * commits the recovery. The file passes to the namenode's recovery holder meanwhile, so that the
 * leader re-sends the recovery if needed (HDFS leaves it with the truncating client).
 *
 * <p>Lease rules as for append (recoverLeaseInternal for TRUNCATE_FILE). Locks the file
 * exclusively, the lease rows (the caller's, the current writer's), the recovery holder's lease and
 * the file's lease path, then the blocks with the rows a removal touches.
 */
public final class Truncate extends Operation<Boolean> {
  private final BlockManager bm;
  private final PermissionChecker pc;
  private final LeaseManager leaseManager;
  private final String src;
  private final long newLength;
  private final String clientName;
  private final String clientMachine;
  private final IdPool inodeIds;
  private ResolvedPath resolved;
  private LeaseChanges leases;
  private BlockRecovery.Prepared release;
  private FileBlocks blocks;
  private AncestorQuotas quotas = AncestorQuotas.none();

  /** The longest length an existing snapshot covering the file has of it, or -1. */
  private long snapshotLength = -1;

  /** Keeps the blocks the snapshots read when the truncate goes below their lengths, or null. */
  private CopyOnTruncate copy;

  public Truncate(
      BlockManager bm,
      IdPool inodeIds,
      PermissionChecker pc,
      LeaseManager leaseManager,
      String src,
      long newLength,
      String clientName) {
    this.bm = bm;
    this.inodeIds = inodeIds;
    this.pc = pc;
    this.leaseManager = leaseManager;
    this.src = src;
    this.newLength = newLength;
    this.clientName = clientName;
    this.clientMachine = pc.caller().clientMachine();
  }

  private io.hops.namenode.blocks.SmallFileStore smallFiles;
  private byte[] dbData;

  /** Keeps a database file's bytes for the snapshots that read them, or null. */
  private SmallFileTails dbTails;

  /** Lets this truncate cut files stored in the database (their rows, in this transaction). */
  public Truncate withSmallFiles(io.hops.namenode.blocks.SmallFileStore store) {
    this.smallFiles = store;
    return this;
  }

  @Override
  public String name() {
    return "truncate";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (newLength < 0) {
      throw new HadoopIllegalArgumentException(
          "Cannot truncate to a negative file size: " + newLength + ".");
    }
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target == null || target.isDir()) {
      return;
    }
    snapshotLength = tx.snapshotLengthOf(target);
    SnapshotKeptFileRow keeper = tx.entryKeeperOf(target);
    NavigableMap<Long, Long> lengths = new TreeMap<>();
    if (snapshotLength > newLength) {
      // The latest snapshot's id may be a deleted one's: what the existing snapshots have decides.
      lengths = SnapshotView.lengthsAtSnapshots(tx, resolved, target);
      if (lengths.isEmpty() && keeper != null) {
        // Below a directory moved away from its snapshots (a hold): they are not on the path, and
        // the latest that can read the file has it at the length its entry's version says.
        lengths.put(keeper.snapshotId(), snapshotLength);
      }
    }
    List<SnapshotKeptFileRow> otherHolders = List.of();
    if (target.snapshotId() != 0 && newLength < target.size()) {
      List<SnapshotKeptFileRow> holders = tx.tailHoldersOf(target);
      if (!holders.isEmpty()) {
        // Renamed after a snapshot had it (its reference mark): the snapshots of the entries it
        // left read it too, at their lengths (HDFS's WithName references of the file); those of
        // several directories each hold the tail.
        for (var e : SnapshotView.lengthsAtEarlierEntries(tx, target).entrySet()) {
          lengths.merge(e.getKey(), e.getValue(), Math::max);
        }
        keeper = tailKeeper(holders.get(0), lengths);
        otherHolders = holders.subList(1, holders.size());
      }
    }
    snapshotLength = lengths.values().stream().mapToLong(Long::longValue).max().orElse(-1);
    if (snapshotLength > newLength && keeper != null && !target.fileStoredInDb()) {
      copy = CopyOnTruncate.lock(tx, target, keeper, otherHolders, lengths, chargedDirs(resolved));
    }
    if (target.fileStoredInDb() && smallFiles != null) {
      dbData = smallFiles.read(tx, target.id(), target.size());
      dbTails = SmallFileTails.lock(tx, target, chargedDirs(resolved));
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
      return; // closed, no blocks: no lease or recovery involved
    }
    Set<String> holders = new HashSet<>();
    holders.add(clientName);
    if (target.underConstruction()) {
      holders.add(target.clientName());
    }
    leases = LeaseChanges.lock(tx, holders);
    // The recovery a mid-block truncate starts hands the file over like a lease recovery does.
    if (!(leaseManager.recovery().prepare(tx, target) instanceof BlockRecovery.Prepared p)) {
      throw new IOException("truncate needs block recovery as the lease recovery hook");
    }
    release = p;
    blocks = p.blocks().withRemovalRows(tx);
    quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    release.countIn(quotas);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    Checks.traverseNotCreating(pc, resolved);
    if (resolved.target() != null) {
      pc.check(resolved.target(), path, FsAction.WRITE);
    }
    InodeRow target = Checks.file(resolved, path);
    if (target.storagePolicy() == HdfsConstants.MEMORY_STORAGE_POLICY_ID) {
      throw new UnsupportedOperationException("Cannot truncate lazy persist file " + path);
    }
    if (target.fileStoredInDb() && smallFiles != null) {
      return truncateInDatabase(tx, target, path);
    }
    MutableInode file = MutableInode.of(target);
    BlockInfoRow last = blocks.last();
    if (last != null
        && last.underConstructionState() == BlockState.UNDER_RECOVERY
        && BlockRecovery.truncateTarget(blocks, file, last) >= 0) {
      if (newLength == file.size) {
        return false; // the same truncate again
      }
      throw new AlreadyBeingCreatedException(
          takeover().failure(path, path + " is being truncated."));
    }
    long now = bm.now();
    if (file.underConstruction) {
      LeaseRow writer = leases.read(file.clientName);
      boolean expired = writer != null && leaseManager.expiredSoftLimit(writer, now);
      IOException refused =
          takeover().takeOver(tx, file, path, leases, blocks.last(), expired ? release : null, now);
      if (refused != null) {
        tx.failAfterCommit(refused);
        return false;
      }
    }
    long oldLength = blocks.length();
    if (oldLength == newLength) {
      return true;
    }
    if (oldLength < newLength) {
      throw new HadoopIllegalArgumentException(
          "Cannot truncate to a larger file size. Current size: "
              + oldLength
              + ", truncate size: "
              + newLength
              + ".");
    }
    if (newLength < snapshotLength && copy == null) {
      throw new IllegalStateException(
          "no directory keeps the blocks a snapshot reads of " + path + " at " + snapshotLength);
    }
    long spaceBefore = FileSpace.of(target, blocks.last());
    // Whole blocks past the new length go (HDFS collectBlocksBeyondMax).
    long kept = 0;
    for (BlockInfoRow b : List.copyOf(blocks.blocks())) {
      if (kept >= newLength && copy != null && copy.snapshotsRead(b)) {
        copy.keep(tx, inodeIds, blocks, b); // HDFS getSnapshotBlocksToRetain
      } else if (kept >= newLength) {
        bm.removeBlock(tx, blocks, b);
      } else {
        kept += b.numBytes();
      }
    }
    file.modificationTime = now;
    file.size = newLength;
    if (kept == newLength) {
      countSpace(tx, file, spaceBefore);
      tx.update(InodeRow.TABLE, file.toRow());
      return true;
    }
    // Inside the last block: reopen the file and cut the block's replicas by recovery, or, when
    // a snapshot reads the block, copy its first bytes into a new block (HDFS copy-on-truncate).
    last = blocks.last();
    if (copy != null && copy.snapshotsRead(last)) {
      long length = newLength - last.startOffset();
      release.copyInto(copy.copyLast(tx, inodeIds, last, length, bm.newBlockId()));
    }
    file.clientMachine = clientMachine;
    release.adopt(tx, file, leases, path, now);
    BlockInfoRow reopened =
        new BlockInfoRow(
            last.inodeId(),
            last.blockId(),
            last.blockIndex(),
            last.startOffset(),
            last.numBytes(),
            last.generationStamp(),
            BlockState.UNDER_CONSTRUCTION,
            last.timestamp(),
            -1,
            0);
    tx.update(BlockInfoRow.TABLE, reopened);
    blocks.replace(reopened);
    countSpace(tx, file, spaceBefore);
    BlockRecovery.expectedOrReported(tx, blocks, reopened);
    tx.update(InodeRow.TABLE, file.toRow());
    if (release.release(tx, file, leases, now)) {
      throw new IllegalStateException("a truncated block closed without recovery: " + path);
    }
    leases.flush(tx);
    return false;
  }

  /**
   * The file's new space on its quotas (HDFS FSDirTruncateOp verifies it): the block cut by
   * recovery counts in full until the recovery commits it ({@link FileSpace}).
   */
  private void countSpace(ExecutePhase tx, MutableInode file, long before) throws IOException {
    long after =
        FileSpace.of(file.size, file.replication, file.preferredBlockSize, blocks.last()) - before;
    if (copy != null) {
      after += copy.chargeKept(tx, file.replication);
    }
    quotas.verify(0, after);
    quotas.add(0, after);
    quotas.flush(tx);
  }

  /**
   * Where a marked file's tail is kept ({@code marked}: the latest of {@link
   * LockPhase#tailHoldersOf}): at a snapshot no earlier than any that has the file, so that each of
   * them finds it; the other holders' kept rows name the tail too.
   */
  private SnapshotKeptFileRow tailKeeper(
      SnapshotKeptFileRow marked, NavigableMap<Long, Long> lengths) {
    long at =
        lengths.isEmpty() ? marked.snapshotId() : Math.max(marked.snapshotId(), lengths.lastKey());
    return new SnapshotKeptFileRow(marked.dirId(), at, marked.inodeId());
  }

  /**
   * The directories a kept tail's usage is charged to ({@link KeptUsageDirs}: every one above the
   * file), in id order, the order its rows are locked in.
   */
  private static List<Long> chargedDirs(io.hops.namenode.resolve.ResolvedPath p) {
    List<Long> ids = new java.util.ArrayList<>(KeptUsageDirs.of(p, p.depth()));
    ids.sort(Long::compare);
    return ids;
  }

  private LeaseTakeover takeover() {
    return new LeaseTakeover("TRUNCATE_FILE", clientName, clientMachine);
  }

  /** A file stored in the database is cut at once: its rows are rewritten with the prefix. */
  private Boolean truncateInDatabase(ExecutePhase tx, InodeRow target, String path)
      throws IOException {
    if (dbData == null) {
      throw new org.apache.hadoop.hdfs.BlockMissingException(
          path, "Could not obtain the data of " + path + " from the database: row missing", 0);
    }
    if (target.size() == newLength) {
      return true;
    }
    if (target.size() < newLength) {
      throw new HadoopIllegalArgumentException(
          "Cannot truncate to a larger file size. Current size: "
              + target.size()
              + ", truncate size: "
              + newLength
              + ".");
    }
    long kept = 0;
    if (dbTails != null) {
      // HDFS's copy-on-truncate keeps the cut block whole while a snapshot's length passes the cut.
      boolean cutsSnapshot = snapshotLength > newLength && dbTails.liveBytesInSnapshot();
      long tailId = dbTails.keep(tx, inodeIds, smallFiles, dbData);
      if (cutsSnapshot) {
        kept = target.size() * target.replication();
        dbTails.charge(tx, tailId, chargedDirs(resolved), kept);
      }
    }
    smallFiles.delete(tx, target.id(), target.size());
    smallFiles.write(tx, target.id(), java.util.Arrays.copyOf(dbData, (int) newLength));
    quotas.add(0, (newLength - target.size()) * target.replication() + kept);
    quotas.flush(tx);
    MutableInode file = MutableInode.of(target);
    file.size = newLength;
    file.modificationTime = bm.now();
    tx.update(InodeRow.TABLE, file.toRow());
    return true;
  }
}
