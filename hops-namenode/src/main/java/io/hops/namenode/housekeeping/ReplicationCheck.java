package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.KeptReplication;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.ToLongFunction;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;

/**
 * The replication check of some blocks of several files (HDFS BlockManager.scheduleReconstruction,
 * processExtraRedundancyBlock and markBlockAsCorrupt's second half), one transaction, one read per
 * table for all the files (docs/architecture.md, "Where the leader's checks read"): the block rows
 * locked exclusively in one batched read (they protect the replica rows), files by id ascending and
 * a file's blocks by id (the lock order); then, read committed, the files' inodes by id ({@link
 * InodesById}), the directories above them up to the first that names a storage policy (each once),
 * the files' replica-related rows (one {@code findByPartitions} per table) and the blocks' queue
 * and pending rows (batched): B + (B or IS per file) + (up to depth) PK + 4 PPIS + 2 B + W.
 *
 * <p>The file's replication is read after the block rows are locked, so a setReplication, which
 * locks them too before it queues its blocks, is either seen here or queues them again afterwards.
 *
 * <p>The blocks of a file kept only for snapshots (deleted, or a copy-on-truncate tail) are checked
 * as a live file's, against the replication the snapshots keep ({@link KeptReplication}).
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

  /** Some blocks of one file to check: {@code blockIds} sorted. */
  record FileBlocks(long inodeId, List<Long> blockIds) {}

  /** A block of a file: the key of its rows in every block-related table. */
  private record FileBlock(long inodeId, long blockId) {}

  /**
   * What a file's blocks are checked against: {@code replication} 0 when no file has them (gone, or
   * a directory's id).
   */
  private record Wanted(int replication, BlockStoragePolicy policy) {
    static final Wanted NONE = new Wanted(0, null);
  }

  private final BlockManager bm;
  private final DatanodeManager dm;
  private final List<FileBlocks> files;
  private final Budget budget;
  private final Limits limits;
  private final CopyChooser copies;
  private final Map<FileBlock, BlockInfoRow> blocks = new HashMap<>();
  private final Map<Long, Wanted> wanted = new HashMap<>();

  /** The storage policy each directory met on the way up gives its files (read once). */
  private final Map<Long, Byte> dirPolicies = new HashMap<>();

  private Map<FileBlock, List<ReplicaRow>> replicas = Map.of();
  private Map<FileBlock, List<CorruptReplicaRow>> corrupt = Map.of();
  private Map<FileBlock, List<ExcessReplicaRow>> excess = Map.of();
  private final Set<Key> invalidated = new HashSet<>();
  private final Map<FileBlock, UnderReplicatedBlockRow> marks = new HashMap<>();
  private final Map<FileBlock, PendingBlockRow> pending = new HashMap<>();

  /**
   * {@code files} in the order their blocks are to be checked (the queue's: priority, then age),
   * each file once; {@code budget} is this attempt's own copy.
   */
  ReplicationCheck(BlockManager bm, List<FileBlocks> files, Budget budget, Limits limits) {
    this.bm = bm;
    this.dm = bm.datanodes();
    this.files = files;
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
    return files.get(0).inodeId();
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // Lock order: files by id ascending, a file's blocks by id ascending (docs/architecture.md,
    // "Lock order"); the checks themselves run in the queue's order.
    List<FileBlocks> byId =
        files.stream().sorted(Comparator.comparingLong(FileBlocks::inodeId)).toList();
    List<Key> keys = new ArrayList<>();
    List<Key> markKeys = new ArrayList<>();
    List<Key> pendingKeys = new ArrayList<>();
    for (FileBlocks f : byId) {
      for (long b : f.blockIds()) {
        keys.add(BlockInfoRow.TABLE.key(f.inodeId(), b));
        markKeys.add(UnderReplicatedBlockRow.TABLE.key(f.inodeId(), b));
        pendingKeys.add(PendingBlockRow.TABLE.key(f.inodeId(), b));
      }
    }
    List<BlockInfoRow> rows =
        keys.size() == 1
            ? Collections.singletonList(
                tx.find(BlockInfoRow.TABLE, keys.get(0), LockMode.EXCLUSIVE))
            : tx.findBatch(BlockInfoRow.TABLE, keys, LockMode.EXCLUSIVE);
    Set<Long> withBlocks = new TreeSet<>();
    for (BlockInfoRow r : rows) {
      if (r != null) {
        blocks.put(new FileBlock(r.inodeId(), r.blockId()), r);
        withBlocks.add(r.inodeId());
      }
    }
    if (!withBlocks.isEmpty()) {
      List<Long> ids = new ArrayList<>(withBlocks);
      Map<Long, InodeRow> inodes = InodesById.read(tx, ids);
      for (long id : ids) {
        InodeRow file = inodes.get(id);
        if (file == null) {
          KeptReplication kept = KeptReplication.of(tx, id);
          wanted.put(
              id,
              new Wanted(
                  kept.replication(),
                  kept.liveFile() == null
                      ? StoragePolicies.byId(HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED)
                      : policyOf(tx, kept.liveFile())));
        } else if (!file.isDir()) {
          wanted.put(id, new Wanted(file.replication(), policyOf(tx, file)));
        }
      }
      replicas =
          byBlock(
              tx.findByPartitions(ReplicaRow.TABLE, ids, rc()),
              ReplicaRow::inodeId,
              ReplicaRow::blockId);
      for (List<ReplicaRow> rs : replicas.values()) {
        for (ReplicaRow r : rs) {
          dm.storage(r.storageId());
        }
      }
      corrupt =
          byBlock(
              tx.findByPartitions(CorruptReplicaRow.TABLE, ids, rc()),
              CorruptReplicaRow::inodeId,
              CorruptReplicaRow::blockId);
      excess =
          byBlock(
              tx.findByPartitions(ExcessReplicaRow.TABLE, ids, rc()),
              ExcessReplicaRow::inodeId,
              ExcessReplicaRow::blockId);
      for (InvalidatedBlockRow r : tx.findByPartitions(InvalidatedBlockRow.TABLE, ids, rc())) {
        invalidated.add(InvalidatedBlockRow.TABLE.keyOf(r));
      }
    }
    for (UnderReplicatedBlockRow r : batch(tx, UnderReplicatedBlockRow.TABLE, markKeys)) {
      marks.put(new FileBlock(r.inodeId(), r.blockId()), r);
    }
    for (PendingBlockRow r : batch(tx, PendingBlockRow.TABLE, pendingKeys)) {
      pending.put(new FileBlock(r.inodeId(), r.blockId()), r);
    }
  }

  /** The rows of {@code keys} that exist, read committed: one batched read (a PK read for one). */
  private static <R extends Record> List<R> batch(LockPhase tx, Table<R> table, List<Key> keys)
      throws IOException {
    List<R> rows =
        keys.size() == 1
            ? Collections.singletonList(tx.find(table, keys.get(0), rc()))
            : tx.findBatch(table, keys, rc());
    return rows.stream().filter(r -> r != null).toList();
  }

  /**
   * The storage policy of {@code file}: its own, else its nearest ancestor's (HDFS
   * INodeFile.getStoragePolicyID), each directory above read committed by its id once per check: a
   * PK read where the hint cache knows its place, else an index scan. Most files have none of their
   * own, so this walks to the root unless a directory on the way names one.
   */
  private BlockStoragePolicy policyOf(LockPhase tx, InodeRow file) throws IOException {
    byte own = file.storagePolicy();
    if (own != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED || file.id() == Inodes.ROOT_ID) {
      return StoragePolicies.byId(own);
    }
    return StoragePolicies.byId(dirPolicy(tx, file.parentId()));
  }

  /** The policy directory {@code id} gives its files: its own, else its nearest ancestor's. */
  private byte dirPolicy(LockPhase tx, long id) throws IOException {
    Byte known = dirPolicies.get(id);
    if (known != null) {
      return known;
    }
    InodeRow at = InodesById.read(tx, id);
    byte p;
    if (at == null) {
      p = HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED; // deleted meanwhile: leaves anyway
    } else if (at.storagePolicy() != HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED
        || at.id() == Inodes.ROOT_ID) {
      p = at.storagePolicy();
    } else {
      p = dirPolicy(tx, at.parentId());
    }
    dirPolicies.put(id, p);
    return p;
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  private static <R> Map<FileBlock, List<R>> byBlock(
      List<R> rows, ToLongFunction<R> inodeId, ToLongFunction<R> blockId) {
    Map<FileBlock, List<R>> out = new HashMap<>();
    for (R r : rows) {
      out.computeIfAbsent(
              new FileBlock(inodeId.applyAsLong(r), blockId.applyAsLong(r)), k -> new ArrayList<>())
          .add(r);
    }
    return out;
  }

  @Override
  protected Outcome execute(ExecutePhase tx) throws IOException {
    Outcome out = new Outcome();
    for (FileBlocks f : files) {
      Wanted w = wanted.getOrDefault(f.inodeId(), Wanted.NONE);
      for (long blockId : f.blockIds()) {
        FileBlock k = new FileBlock(f.inodeId(), blockId);
        UnderReplicatedBlockRow mark = marks.get(k);
        if (mark == null) {
          continue; // checked meanwhile (by a previous leader, say)
        }
        BlockInfoRow b = blocks.get(k);
        if (b == null || w.replication() == 0) {
          // The file is gone: nothing to replicate (its delete removed the rest).
          tx.delete(UnderReplicatedBlockRow.TABLE, mark);
          PendingBlockRow p = pending.get(k);
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
          check(tx, b, k, w, mark, out);
        }
      }
    }
    return out;
  }

  private void check(
      ExecutePhase tx,
      BlockInfoRow b,
      FileBlock k,
      Wanted w,
      UnderReplicatedBlockRow mark,
      Outcome out)
      throws IOException {
    long inodeId = k.inodeId();
    long blockId = k.blockId();
    int expected = w.replication();
    CountedReplicas counted =
        CountedReplicas.count(
            tx,
            dm,
            replicas.getOrDefault(k, List.of()),
            excess.getOrDefault(k, List.of()),
            corrupt.getOrDefault(k, List.of()));
    List<StorageRef> live = counted.live;
    List<StorageRef> retiring = counted.retiring;
    List<StorageRef> corruptHeld = counted.corruptHeld;
    int maintenance = counted.maintenance;
    PendingBlockRow p = pending.get(k);
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
      if (pendingNum > 0 && (live.size() + pendingNum > expected || !corruptHeld.isEmpty())) {
        // Copies on their way will leave it over-replicated (a replica came back meanwhile), or
        // it holds corrupt replicas that go once they are in: it stays queued, since an arriving
        // copy queues no check (ReplicaChange.copyArrived), as HDFS addStoredBlock deletes the
        // surplus and the corrupt replicas when a copy arrives.
        keep(tx, mark, b, priority(live.size(), expectedLive), expected);
        out.waiting++;
        return;
      }
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
        copies.choose(b, live, retiring, counted.containing, p, needed, priority, w.policy());
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
    if (live.size() + pendingNum + t.targets().size() >= expectedLive
        && !misplaced
        && corruptHeld.isEmpty()) {
      tx.delete(UnderReplicatedBlockRow.TABLE, mark);
    } else {
      keep(tx, mark, b, priority, expected);
    }
  }

  /** The replica on {@code s} is to be deleted: no longer counted, and its datanode told. */
  private void delete(ExecutePhase tx, BlockInfoRow b, StorageRef s) throws IOException {
    long now = bm.now();
    tx.insert(ExcessReplicaRow.TABLE, new ExcessReplicaRow(b.inodeId(), b.blockId(), s.id(), now));
    InvalidatedBlockRow inv =
        new InvalidatedBlockRow(
            b.inodeId(), b.blockId(), s.id(), b.generationStamp(), b.numBytes());
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
