package io.hops.namenode.ops;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockOffsets;
import io.hops.namenode.blocks.FileBlocks;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.ops.snapshot.SmallFileTails;
import io.hops.namenode.ops.snapshot.SnapshotView;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.SnapshotException;

/**
 * {@code concat}: the blocks of the source files move, in order, to the end of the target file, and
 * the sources go (HDFS FSDirConcatOp). Same rules and messages as HDFS: every file in one
 * directory, the target closed, each source closed, non-empty, distinct, not the target, not in the
 * latest snapshot covering it, with a preferred block size no larger than the target's.
 *
 * <p>The block-related rows of a file live in its partition (docs/architecture.md, "Metadata
 * schema"), so moving a block moves its rows: block, replicas, corrupt and excess replicas are
 * re-inserted under the target, its lookup row points to the target, and a replication check is
 * queued when the replication differs (pending copies are dropped: re-replication decides again).
 * Locks the directory and every file exclusively, in path order, then each file's blocks.
 *
 * <p>A concat is one transaction, as HDFS's is one atomic edit: split, a crash or a reader between
 * its parts would see some sources moved and others not. So the rows it moves are bounded ({@code
 * hops.namenode.transaction.max-rows}): a concat whose sources' blocks would pass the bound is
 * refused, before anything is written, with a message that says to concat fewer files at a time.
 */
public final class Concat extends Operation<Void> {
  private final BlockManager bm;
  private final PermissionChecker pc;
  private final String target;
  private final String[] srcs;
  private final Map<String, ResolvedPath> resolved = new HashMap<>();
  private final Map<Long, FileBlocks> blocks = new HashMap<>();
  private final Map<Long, List<ExcessReplicaRow>> excess = new HashMap<>();
  private final Map<Long, List<PendingBlockRow>> pending = new HashMap<>();
  private AncestorQuotas quotas = AncestorQuotas.none();

  /** The sources that the latest snapshot covering them has (by inode id). */
  private final Set<Long> inLatestSnapshot = new HashSet<>();

  /** Sources a snapshot has under an earlier entry (a reference mark whose directory keeps it). */
  private final Set<Long> referencedInSnapshots = new HashSet<>();

  /** Where the snapshots had the marked sources (they go with the sources). */
  private final List<SnapshotEarlierEntryRow> earlierEntries = new ArrayList<>();

  /** The sources' extended attributes and ACL entries, which go with them. */
  private final List<XAttrRow> attributes = new ArrayList<>();

  private SmallFileStore smallFiles;
  private long adoptedId = -1;
  private IdPool inodeIds;

  /** Keeps an adopted database target's bytes for the snapshots that read them, or null. */
  private SmallFileTails adoptedTails;

  private byte[] adoptedData;

  public Concat(BlockManager bm, PermissionChecker pc, String target, String[] srcs) {
    this.bm = bm;
    this.pc = pc;
    this.target = target;
    this.srcs = srcs;
  }

  /**
   * Makes this the last step of moving a database file to datanodes ({@link
   * io.hops.namenode.smallfiles.DatabaseFileMover}): the target may be the database file {@code
   * targetId}, whose one source holds the same bytes in blocks; the target's rows go and it becomes
   * a plain file with those blocks. Refused if the target changed meanwhile. A snapshot that has
   * the target keeps its rows' bytes under a tail ({@link
   * io.hops.namenode.ops.snapshot.SmallFileTails}), whose id comes from {@code ids}.
   */
  public Concat adoptingDatabaseTarget(SmallFileStore store, long targetId, IdPool ids) {
    this.smallFiles = store;
    this.adoptedId = targetId;
    this.inodeIds = ids;
    return this;
  }

  @Override
  public String name() {
    return "concat";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (target.isEmpty()) {
      throw new IllegalArgumentException("Target file name is empty");
    }
    if (srcs == null || srcs.length == 0) {
      throw new IllegalArgumentException("No sources given");
    }
    for (String p : allPaths()) {
      if (p.equals("/.reserved") || p.startsWith("/.reserved/")) {
        throw new IOException("Concat operation doesn't support .reserved relative path : " + p);
      }
    }
    // One global order: the paths sorted; each locks the shared parent, then itself.
    for (String p : new TreeSet<>(allPaths())) {
      resolved.put(p, tx.resolve(p, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE));
    }
    long moved = 0;
    for (String p : new TreeSet<>(allPaths())) {
      InodeRow f = resolved.get(p).target();
      if (f != null && !f.isDir() && !blocks.containsKey(f.id())) {
        FileBlocks fb = FileBlocks.lock(tx, f.id(), LockMode.EXCLUSIVE, bm.datanodes());
        blocks.put(f.id(), fb);
        if (!p.equals(target)) {
          SnapshotKeptFileRow keeper = tx.snapshotKeeperOf(f);
          if (f.snapshotId() != 0) {
            earlierEntries.addAll(
                tx.findByPartition(SnapshotEarlierEntryRow.TABLE, f.id(), LockMode.READ_COMMITTED));
          }
          if (keeper != null && SnapshotView.inLatestSnapshot(tx, resolved.get(p))) {
            inLatestSnapshot.add(f.id());
          } else if (keeper != null
              && f.snapshotId() != 0
              && !SnapshotView.lengthsAtEarlierEntries(tx, f).isEmpty()) {
            // Renamed after a snapshot had it: refused while one that has it remains (HDFS's
            // reference count), not merely while its directory has snapshots.
            referencedInSnapshots.add(f.id());
          }
          moved += rowsMoved(fb);
          if (moved > tx.maxRows()) {
            throw new HadoopIllegalArgumentException(
                "concat: the source files' blocks would move more than "
                    + tx.maxRows()
                    + " rows in one transaction ("
                    + NamenodeConfig.TRANSACTION_MAX_ROWS
                    + "); concat fewer or smaller files at a time");
          }
        }
        excess.put(
            f.id(), tx.findByPartition(ExcessReplicaRow.TABLE, f.id(), LockMode.READ_COMMITTED));
        pending.put(
            f.id(), tx.findByPartition(PendingBlockRow.TABLE, f.id(), LockMode.READ_COMMITTED));
        // A source's extended attributes and ACL go with it.
        if (!p.equals(target) && InodeFlags.hasAttributeRows(f.permission())) {
          attributes.addAll(tx.findByPartition(XAttrRow.TABLE, f.id(), LockMode.READ_COMMITTED));
        }
      }
    }
    ResolvedPath t = resolved.get(target);
    if (smallFiles != null) {
      adoptedTails = SmallFileTails.lock(tx, t.target(), List.of());
      if (adoptedTails != null && adoptedTails.copies()) {
        adoptedData = smallFiles.read(tx, t.target().id(), t.target().size());
      }
    }
    quotas = AncestorQuotas.lock(tx, t, t.depth());
  }

  /**
   * The rows moving a source's blocks reads and writes: per block its block, offset and lookup rows
   * read, deleted and inserted or updated, a replication check, and each replica read, deleted and
   * inserted.
   */
  private static long rowsMoved(FileBlocks fb) {
    long rows = 0;
    for (BlockInfoRow b : fb.blocks()) {
      rows += 8 + 3L * fb.replicas(b.blockId()).size();
    }
    return rows;
  }

  private List<String> allPaths() {
    List<String> all = new ArrayList<>();
    all.add(target);
    all.addAll(List.of(srcs));
    return all;
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    ResolvedPath t = resolved.get(target);
    String targetPath = PathNames.prefix(t.components(), t.depth());
    Checks.traverseNotCreating(pc, t);
    InodeRow trg = t.target();
    if (trg != null) {
      pc.check(trg, targetPath, FsAction.WRITE);
    }
    trg = Checks.file(t, targetPath);
    boolean adopting = trg.fileStoredInDb() && adoptedId >= 0;
    if (adopting && (trg.id() != adoptedId || srcs.length != 1)) {
      throw new IOException(targetPath + " changed while it moved to datanodes");
    }
    if (trg.fileStoredInDb() && !adopting) {
      throw new StoredInDatabaseException(
          target, "concat: target file " + target + " is stored in the database, not in blocks");
    }
    if (trg.underConstruction()) {
      throw new HadoopIllegalArgumentException(
          "concat: target file " + target + " is under construction");
    }
    List<InodeRow> sources = new ArrayList<>();
    Set<Long> seen = new HashSet<>();
    for (String src : srcs) {
      ResolvedPath s = resolved.get(src);
      String path = PathNames.prefix(s.components(), s.depth());
      Checks.traverseNotCreating(pc, s);
      if (s.target() != null) {
        pc.check(s.target(), path, FsAction.READ);
      }
      if (s.parent() != null) {
        pc.check(s.parent(), PathNames.prefix(s.components(), s.depth() - 1), FsAction.WRITE);
      }
      InodeRow f = Checks.file(s, path);
      if (f.parentId() != trg.parentId()) {
        throw new HadoopIllegalArgumentException(
            "Source file " + src + " is not in the same directory with the target " + targetPath);
      }
      if (inLatestSnapshot.contains(f.id())) {
        // HDFS's INode.isInLatestSnapshot: the source's blocks would leave a file a snapshot has.
        throw new SnapshotException("Concat: the source file " + src + " is in snapshot");
      }
      if (referencedInSnapshots.contains(f.id())) {
        // HDFS's reference count above 1: a snapshot still reads the file under its old name.
        throw new SnapshotException(
            "Concat: the source file "
                + src
                + " is referred by some other reference in some snapshot.");
      }
      if (f.id() == trg.id()) {
        throw new HadoopIllegalArgumentException(
            "concat: the src file " + src + " is the same with the target file " + targetPath);
      }
      if (f.fileStoredInDb()) {
        throw new StoredInDatabaseException(
            src, "concat: source file " + src + " is stored in the database, not in blocks");
      }
      if (f.underConstruction() || blocks.get(f.id()).isEmpty()) {
        throw new HadoopIllegalArgumentException(
            "concat: source file " + src + " is invalid or empty or underConstruction");
      }
      if (f.preferredBlockSize() > trg.preferredBlockSize()) {
        throw new HadoopIllegalArgumentException(
            "concat: source file "
                + src
                + " has preferred block size "
                + f.preferredBlockSize()
                + " which is greater than the target file's preferred block size "
                + trg.preferredBlockSize());
      }
      if (seen.add(f.id())) {
        sources.add(f);
      }
    }
    if (sources.size() < srcs.length) {
      throw new HadoopIllegalArgumentException(
          "concat: at least two of the source files are the same");
    }

    MutableInode file = MutableInode.of(trg);
    if (adopting) {
      if (sources.get(0).size() != trg.size()) {
        throw new IOException(targetPath + " changed while it moved to datanodes");
      }
      // Its bytes are counted once, in the blocks it adopts.
      quotas.add(0, -trg.size() * trg.replication());
      if (adoptedTails != null) {
        if (adoptedTails.copies() && adoptedData == null) {
          throw new IOException(targetPath + ": its rows are missing, it cannot move to datanodes");
        }
        // The snapshots keep the bytes they have; as an append to HDFS's block, charged once.
        adoptedTails.keep(tx, inodeIds, smallFiles, adoptedData);
      }
      smallFiles.delete(tx, trg.id(), trg.size());
      file.fileStoredInDb = false;
      file.size = 0;
    }
    // HDFS FSDirConcatOp.computeQuotaDeltas: the sources' bytes take the target's replication.
    long space = 0;
    for (InodeRow src : sources) {
      space += src.size() * (trg.replication() - src.replication());
    }
    quotas.verify(0, space);
    quotas.add(-sources.size(), space);
    quotas.flush(tx);
    long now = bm.now();
    FileBlocks into = blocks.get(trg.id());
    int index = into.blocks().size();
    long start = into.length();
    for (InodeRow src : sources) {
      for (BlockInfoRow b : blocks.get(src.id()).blocks()) {
        move(tx, blocks.get(src.id()), b, file, index++, start);
        start += b.numBytes();
      }
      file.size += src.size();
      tx.delete(InodeRow.TABLE, src);
      for (SnapshotEarlierEntryRow e : earlierEntries) {
        if (e.inodeId() == src.id()) {
          tx.delete(SnapshotEarlierEntryRow.TABLE, e);
        }
      }
      tx.hintRemoved(src.parentId(), src.name());
      for (XAttrRow a : attributes) {
        if (a.inodeId() == src.id()) {
          tx.delete(XAttrRow.TABLE, a);
        }
      }
    }
    file.modificationTime = now;
    tx.update(InodeRow.TABLE, file.toRow());
    MutableInode parent = MutableInode.of(t.parent());
    parent.childrenCount -= sources.size();
    parent.modificationTime = now;
    tx.update(InodeRow.TABLE, parent.toRow());
    return null;
  }

  /**
   * One block of a source becomes block {@code index} of the target, beginning at {@code start},
   * with its rows.
   */
  private void move(
      ExecutePhase tx, FileBlocks from, BlockInfoRow b, MutableInode to, int index, long start)
      throws IOException {
    long id = b.blockId();
    long source = b.inodeId();
    BlockOffsets.delete(tx, b);
    BlockOffsets.insert(
        tx,
        new BlockInfoRow(
            to.id,
            id,
            index,
            start,
            b.numBytes(),
            b.generationStamp(),
            b.underConstructionState(),
            b.timestamp(),
            b.primaryNodeIndex(),
            b.blockRecoveryId()));
    tx.update(BlockLookupRow.TABLE, new BlockLookupRow(id, to.id));
    for (ReplicaRow r : from.replicas(id)) {
      tx.delete(ReplicaRow.TABLE, r);
      tx.insert(ReplicaRow.TABLE, new ReplicaRow(to.id, id, r.storageId(), r.replicaIndex()));
    }
    for (CorruptReplicaRow r : from.corrupt(id)) {
      tx.delete(CorruptReplicaRow.TABLE, r);
      tx.insert(
          CorruptReplicaRow.TABLE,
          new CorruptReplicaRow(to.id, id, r.storageId(), r.timestamp(), r.reason()));
    }
    for (ExcessReplicaRow r : excess.get(source)) {
      if (r.blockId() == id) {
        tx.delete(ExcessReplicaRow.TABLE, r);
        tx.insert(
            ExcessReplicaRow.TABLE, new ExcessReplicaRow(to.id, id, r.storageId(), r.timestamp()));
      }
    }
    for (PendingBlockRow r : pending.get(source)) {
      if (r.blockId() == id) {
        tx.delete(PendingBlockRow.TABLE, r);
      }
    }
    boolean queued = from.queuedForCheck(id);
    if (queued) {
      tx.delete(UnderReplicatedBlockRow.TABLE, UnderReplicatedBlockRow.TABLE.key(source, id));
    }
    if (queued || bm.liveReplicas(from, id) != to.replication) {
      tx.insert(
          UnderReplicatedBlockRow.TABLE,
          new UnderReplicatedBlockRow(to.id, id, 0, bm.now(), to.replication));
    }
  }
}
