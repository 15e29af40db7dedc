package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptReplicationRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The replication check of some blocks of one file (HDFS BlockManager.scheduleReconstruction,
 * processExtraRedundancyBlock and markBlockAsCorrupt's second half), one transaction: the block
 * rows locked exclusively (they protect the replica rows), then the file's inode read committed by
 * its id (an index scan), then the directories above it up to the first that names a storage policy
 * (read committed by id: a PK read each where the hint cache knows the place, else an index scan),
 * then the file's replica-related rows read committed, one pruned scan per table: B + IS + (up to
 * depth) PK + 6 PPIS + W.
 *
 * <p>The file's replication is read after the block rows are locked, so a setReplication, which
 * locks them too before it queues its blocks, is either seen here or queues them again afterwards.
 *
 * <p>The blocks of a file kept only for snapshots (deleted, or a copy-on-truncate tail) are checked
 * as a live file's, against the replication the snapshots keep ({@link #readKept}).
 *
 * <p>Per block, with the replicas counted as HDFS counts them (live: on a live datanode, not
 * corrupt, not being deleted): a block no file has any more, or that is not complete, leaves the
 * queue; corrupt replicas are deleted once there are enough good ones; a block with too many live
 * replicas has the surplus deleted (from racks holding more than one first, then the datanode with
 * the least room first); one with too few, or with enough but all on one rack of several
 * (mis-replicated: one more copy, on another rack), is copied from a live replica to new datanodes
 * and the copies become pending; a block that is satisfied, counting pending copies, leaves the
 * queue; one that cannot be helped now stays, at HDFS's priority level. Deleting a replica keeps
 * its row until the datanode reports it gone, and adds an excess-replica row (the replica is no
 * longer counted) and an invalidation. {@link CountedReplicas} counts a block's replicas; {@link
 * CopyChooser} chooses a copy's source and targets.
 */
final class ReplicationCheck extends Operation<ReplicationCheck.Outcome> {
  /** HDFS LowRedundancyBlocks' priority levels. */
  static final int HIGHEST_PRIORITY = 0;

  static final int VERY_LOW_REDUNDANCY = 1;
  static final int LOW_REDUNDANCY = 2;
  static final int BADLY_DISTRIBUTED = 3;
  static final int CORRUPT_OR_MISSING = 4;

  /** A copy to make: the source datanode sends the block to the targets. */
  record Transfer(DatanodeState source, BlockInfoRow block, List<StorageStat> targets) {}

  /** What one check did, to be acted on once it committed. */
  static final class Outcome {
    final List<Transfer> transfers = new ArrayList<>();
    int satisfied;
    int waiting;

    /** Rows of blocks the datanodes as they are cannot help, as this check left them. */
    final List<UnderReplicatedBlockRow> parked = new ArrayList<>();

    int excessDeleted;
    int corruptDeleted;
    int dropped;
  }

  /** What the round allows: copies left to schedule, copies each source already sends. */
  static final class Budget {
    int transfersLeft;
    final Map<String, Integer> perSource = new HashMap<>();

    Budget(int transfersLeft) {
      this.transfersLeft = transfersLeft;
    }

    Budget copy() {
      Budget b = new Budget(transfersLeft);
      b.perSource.putAll(perSource);
      return b;
    }

    void take(Outcome o) {
      for (Transfer t : o.transfers) {
        transfersLeft--;
        perSource.merge(t.source().uuid(), 1, Integer::sum);
      }
    }
  }

  /** Settings of the replication monitor. */
  record Limits(int maxStreams, int maxStreamsHard, long staleMillis) {}

  private final BlockManager bm;
  private final DatanodeManager dm;
  private final long inodeId;
  private final List<Long> blockIds;
  private final Budget budget;
  private final Limits limits;
  private final CopyChooser copies;
  private final Map<Long, BlockInfoRow> blocks = new HashMap<>();

  /** The file's replication; 0 when no file has the blocks (gone, or a directory's id). */
  private int replication;

  private BlockStoragePolicy policy;
  private Map<Long, List<ReplicaRow>> replicas = Map.of();
  private Map<Long, List<CorruptReplicaRow>> corrupt = Map.of();
  private Map<Long, List<ExcessReplicaRow>> excess = Map.of();
  private final Set<Key> invalidated = new HashSet<>();
  private final Map<Long, UnderReplicatedBlockRow> marks = new HashMap<>();
  private final Map<Long, PendingBlockRow> pending = new HashMap<>();

  /** {@code blockIds} sorted; {@code budget} is this attempt's own copy. */
  ReplicationCheck(
      BlockManager bm, long inodeId, List<Long> blockIds, Budget budget, Limits limits) {
    this.bm = bm;
    this.dm = bm.datanodes();
    this.inodeId = inodeId;
    this.blockIds = blockIds;
    this.budget = budget;
    this.limits = limits;
    this.copies = new CopyChooser(bm, budget, limits);
  }

  @Override
  public String name() {
    return "replicationCheck";
  }

  @Override
  public Object partitionHint() {
    return inodeId;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<Key> keys = blockIds.stream().map(b -> BlockInfoRow.TABLE.key(inodeId, b)).toList();
    List<BlockInfoRow> rows =
        keys.size() == 1
            ? Collections.singletonList(
                tx.find(BlockInfoRow.TABLE, keys.get(0), LockMode.EXCLUSIVE))
            : tx.findBatch(BlockInfoRow.TABLE, keys, LockMode.EXCLUSIVE);
    rows.stream().filter(r -> r != null).forEach(r -> blocks.put(r.blockId(), r));
    if (!blocks.isEmpty()) {
      List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", inodeId, LockMode.READ_COMMITTED);
      InodeRow file = found.isEmpty() ? null : found.get(0);
      if (file == null) {
        readKept(tx);
      } else if (!file.isDir()) {
        replication = file.replication();
        policy = policyOf(tx, file);
      }
      replicas = byBlock(tx.findByPartition(ReplicaRow.TABLE, inodeId, rc()), ReplicaRow::blockId);
      for (List<ReplicaRow> rs : replicas.values()) {
        for (ReplicaRow r : rs) {
          dm.storage(r.storageId());
        }
      }
      corrupt =
          byBlock(
              tx.findByPartition(CorruptReplicaRow.TABLE, inodeId, rc()),
              CorruptReplicaRow::blockId);
      excess =
          byBlock(
              tx.findByPartition(ExcessReplicaRow.TABLE, inodeId, rc()), ExcessReplicaRow::blockId);
      for (InvalidatedBlockRow r : tx.findByPartition(InvalidatedBlockRow.TABLE, inodeId, rc())) {
        invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
      }
    }
    for (UnderReplicatedBlockRow r :
        tx.findByPartition(UnderReplicatedBlockRow.TABLE, inodeId, rc())) {
      marks.put(r.blockId(), r);
    }
    for (PendingBlockRow r : tx.findByPartition(PendingBlockRow.TABLE, inodeId, rc())) {
      pending.put(r.blockId(), r);
    }
  }

  /**
   * The replication and storage policy that blocks of {@code inodeId}, which no live inode has,
   * keep for snapshots (HDFS keeps them in its blocks map with the snapshot's INodeFile as their
   * collection, so they are re-replicated as a live file's): a deleted file kept for snapshots has
   * its replication row and the default policy; a copy-on-truncate tail has its file's, live or
   * kept (docs/architecture.md, "Snapshots"). Neither: blocks of no file, which leave the queue.
   */
  private void readKept(LockPhase tx) throws IOException {
    if (keptReplication(tx, inodeId)) {
      return;
    }
    for (SnapshotFileTailRow t :
        tx.findByIndex(SnapshotFileTailRow.TABLE, "tail_id", inodeId, rc())) {
      if (t.isReleased()) {
        return; // its blocks are being released
      }
      List<InodeRow> owner = tx.findByIndex(InodeRow.TABLE, "id", t.inodeId(), rc());
      if (owner.isEmpty()) {
        keptReplication(tx, t.inodeId());
      } else {
        replication = owner.get(0).replication();
        policy = policyOf(tx, owner.get(0));
      }
    }
  }

  /** Whether {@code file} is a deleted file kept for snapshots; if so, takes its replication. */
  private boolean keptReplication(LockPhase tx, long file) throws IOException {
    SnapshotKeptReplicationRow kept =
        tx.find(SnapshotKeptReplicationRow.TABLE, SnapshotKeptReplicationRow.TABLE.key(file), rc());
    if (kept == null) {
      return false;
    }
    replication = kept.replication();
    policy = StoragePolicies.byId(HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED);
    return true;
  }

  /**
   * The storage policy of {@code file}: its own, else its nearest ancestor's (HDFS
   * INodeFile.getStoragePolicyID), each directory above read committed by its id: a PK read where
   * the hint cache knows its place, else an index scan. Most files have none of their own, so this
   * walks to the root unless a directory on the way names one.
   */
  private static BlockStoragePolicy policyOf(LockPhase tx, InodeRow file) throws IOException {
    InodeRow at = file;
    while (at.storagePolicy() == HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED
        && at.id() != Inodes.ROOT_ID) {
      at = byId(tx, at.parentId());
      if (at == null) {
        break; // deleted meanwhile: the block leaves the queue anyway
      }
    }
    return StoragePolicies.byId(
        at == null ? HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED : at.storagePolicy());
  }

  private static InodeRow byId(LockPhase tx, long id) throws IOException {
    InodeHintCache.Hint place = tx.placeOf(id);
    if (place != null) {
      InodeRow there = tx.find(InodeRow.TABLE, Inodes.key(place.parentId(), place.name()), rc());
      if (there != null && there.id() == id) {
        return there;
      }
    }
    List<InodeRow> found = tx.findByIndex(InodeRow.TABLE, "id", id, rc());
    return found.isEmpty() ? null : found.get(0);
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  private static <R> Map<Long, List<R>> byBlock(List<R> rows, Function<R, Long> blockId) {
    Map<Long, List<R>> out = new HashMap<>();
    for (R r : rows) {
      out.computeIfAbsent(blockId.apply(r), k -> new ArrayList<>()).add(r);
    }
    return out;
  }

  @Override
  protected Outcome execute(ExecutePhase tx) throws IOException {
    Outcome out = new Outcome();
    for (long blockId : blockIds) {
      UnderReplicatedBlockRow mark = marks.get(blockId);
      if (mark == null) {
        continue; // checked meanwhile (by a previous leader, say)
      }
      BlockInfoRow b = blocks.get(blockId);
      if (b == null || replication == 0) {
        // The file is gone: nothing to replicate (its delete removed the rest).
        tx.delete(UnderReplicatedBlockRow.TABLE, mark);
        PendingBlockRow p = pending.get(blockId);
        if (p != null) {
          tx.delete(PendingBlockRow.TABLE, p);
        }
        out.dropped++;
      } else if (b.underConstructionState() != BlockState.COMPLETE) {
        // Being written or recovered: closing the file queues it again if it needs it (HDFS
        // skips blocks that are not complete or committed and drops them from the queue).
        tx.delete(UnderReplicatedBlockRow.TABLE, mark);
        out.dropped++;
      } else {
        check(tx, b, mark, out);
      }
    }
    return out;
  }

  private void check(ExecutePhase tx, BlockInfoRow b, UnderReplicatedBlockRow mark, Outcome out)
      throws IOException {
    long blockId = b.blockId();
    int expected = replication;
    CountedReplicas counted =
        CountedReplicas.count(
            tx,
            dm,
            replicas.getOrDefault(blockId, List.of()),
            excess.getOrDefault(blockId, List.of()),
            corrupt.getOrDefault(blockId, List.of()));
    List<StorageRef> live = counted.live;
    List<StorageRef> retiring = counted.retiring;
    List<StorageRef> corruptHeld = counted.corruptHeld;
    int maintenance = counted.maintenance;
    PendingBlockRow p = pending.get(blockId);
    int pendingNum = p == null ? 0 : Math.max(0, p.numReplicasInProgress());
    // HDFS getExpectedLiveRedundancyNum: maintenance replicas stand in for live ones, down to the
    // maintenance minimum.
    int expectedLive =
        Math.max(expected - maintenance, dm.admin().minMaintenanceReplicas(expected));

    // Corrupt replicas go once enough good ones exist (HDFS markBlockAsCorrupt, cases 1 and 2).
    if (!corruptHeld.isEmpty()
        && (live.size() >= expected
            || (live.size() >= bm.minReplication()
                && live.size() + corruptHeld.size() > expected))) {
      for (StorageRef c : corruptHeld) {
        delete(tx, b, c);
        out.corruptDeleted++;
      }
      corruptHeld.clear();
    }
    if (live.size() > expected) {
      for (StorageRef s :
          bm.placement().chooseExcess(live, live.size() - expected, limits.staleMillis())) {
        delete(tx, b, s);
        out.excessDeleted++;
      }
      tx.delete(UnderReplicatedBlockRow.TABLE, mark);
      return;
    }
    // A block with enough replicas, all on one rack of several, gets one more on another rack;
    // the surplus is then deleted from the shared rack (HDFS: misplaced, "badly distributed").
    boolean misplaced =
        live.size() >= expectedLive
            && !bm.placement()
                .isPlacementSatisfied(
                    live.stream().map(StorageRef::datanodeUuid).toList(), expectedLive);
    if (misplaced && pendingNum > 0) {
      keep(tx, mark, b, BADLY_DISTRIBUTED, expected); // its copy is on its way
      out.waiting++;
      return;
    }
    if (live.size() + pendingNum >= expectedLive && !misplaced) {
      tx.delete(UnderReplicatedBlockRow.TABLE, mark);
      out.satisfied++;
      return;
    }
    int priority =
        misplaced
            ? BADLY_DISTRIBUTED
            : live.isEmpty() && !retiring.isEmpty()
                ? HIGHEST_PRIORITY // HDFS: only out-of-service replicas left
                : priority(live.size(), expectedLive);
    int needed = misplaced ? 1 : expectedLive - live.size() - pendingNum;
    CopyChooser.Choice choice =
        copies.choose(b, live, retiring, counted.containing, p, needed, priority, policy);
    Transfer t = choice.transfer();
    boolean hopeless = choice.hopeless();
    if (t != null && misplaced && !copies.spreads(live, t)) {
      t = null; // HDFS validateReconstructionWork: a copy that leaves it misplaced is not made
      hopeless = true;
    }
    if (t == null) {
      UnderReplicatedBlockRow kept = keep(tx, mark, b, priority, expected);
      out.waiting++;
      if (hopeless) {
        out.parked.add(kept);
      }
      return;
    }
    out.transfers.add(t);
    budget.transfersLeft--;
    budget.perSource.merge(t.source().uuid(), 1, Integer::sum);
    long now = bm.now();
    StringBuilder targets = new StringBuilder(p == null ? "" : p.targets());
    for (StorageStat s : t.targets()) {
      targets.append(targets.length() == 0 ? "" : ",").append(s.ref.id());
    }
    PendingBlockRow next =
        new PendingBlockRow(
            inodeId, blockId, now, pendingNum + t.targets().size(), targets.toString());
    if (p == null) {
      tx.insert(PendingBlockRow.TABLE, next);
    } else {
      tx.update(PendingBlockRow.TABLE, next);
    }
    if (live.size() + pendingNum + t.targets().size() >= expectedLive && !misplaced) {
      tx.delete(UnderReplicatedBlockRow.TABLE, mark);
    } else {
      keep(tx, mark, b, priority, expected);
    }
  }

  /** The replica on {@code s} is to be deleted: no longer counted, and its datanode told. */
  private void delete(ExecutePhase tx, BlockInfoRow b, StorageRef s) throws IOException {
    long now = bm.now();
    tx.insert(ExcessReplicaRow.TABLE, new ExcessReplicaRow(inodeId, b.blockId(), s.id(), now));
    InvalidatedBlockRow inv =
        new InvalidatedBlockRow(inodeId, b.blockId(), s.id(), b.generationStamp(), b.numBytes());
    if (invalidated.add(InvalidatedBlockRow.TABLE.keyOf(inv))) {
      tx.insert(InvalidatedBlockRow.TABLE, inv);
    }
  }

  /** The block stays queued, at its priority, behind the others of its level. */
  private UnderReplicatedBlockRow keep(
      ExecutePhase tx, UnderReplicatedBlockRow mark, BlockInfoRow b, int priority, int expected)
      throws IOException {
    UnderReplicatedBlockRow kept =
        new UnderReplicatedBlockRow(mark.inodeId(), b.blockId(), priority, bm.now(), expected);
    tx.update(UnderReplicatedBlockRow.TABLE, kept);
    return kept;
  }

  /** HDFS LowRedundancyBlocks.getPriority for a replicated block without decommissioning. */
  static int priority(int live, int expected) {
    if (live >= expected) {
      return BADLY_DISTRIBUTED;
    }
    if (live == 0) {
      return CORRUPT_OR_MISSING;
    }
    if (live == 1) {
      return HIGHEST_PRIORITY;
    }
    return live * 3 < expected ? VERY_LOW_REDUNDANCY : LOW_REDUNDANCY;
  }
}
