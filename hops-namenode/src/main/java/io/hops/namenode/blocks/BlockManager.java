package io.hops.namenode.blocks;

import io.hops.dal.IdPool;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.election.ClusterClock;
import io.hops.election.LeaderElection;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.tx.ExecutePhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;

/**
 * The block side of one namenode: the datanodes it knows, where new replicas go, block ids and
 * generation stamps, and how block rows become the {@link LocatedBlock}s clients read. It keeps no
 * authoritative state: blocks and replica locations are rows of docs/architecture.md, "Metadata
 * schema".
 */
public final class BlockManager {
  /** Block ids below this are reserved, as in HDFS (LAST_RESERVED_BLOCK_ID). */
  private static final long FIRST_BLOCK_ID = 1L << 30;

  /** Generation stamps below this are reserved, as in HDFS (GRANDFATHER_GENERATION_STAMP...). */
  private static final long FIRST_GENERATION_STAMP = 1001;

  private final DatanodeManager datanodes;
  private final BlockPlacement placement;
  private final NamespaceIds ids;
  private final IdPool blockIds;
  private final IdPool generationStamps;
  private final int minReplication;
  private volatile java.util.function.BooleanSupplier starting = () -> false;
  private final ClusterClock clock;
  private final ReportOwnership ownership = new ReportOwnership(this);
  private final RecentReceipts receipts;
  private final FullReportRequests reportRequests;
  private final Leadership leadership = new Leadership();
  private final BlockLocations locations;

  public BlockManager(Storage storage, Configuration conf) throws StorageException {
    this.datanodes = new DatanodeManager(storage, conf);
    this.receipts =
        new RecentReceipts(
            conf.getLong(
                NamenodeConfig.RECENT_RECEIPTS_BYTES, NamenodeConfig.RECENT_RECEIPTS_BYTES_DEFAULT),
            60_000);
    this.placement = new BlockPlacement(datanodes, conf);
    this.ids = NamespaceIds.loadOrCreate(storage);
    this.blockIds = new IdPool(storage, "block_id", 1000);
    this.blockIds.reserveUpTo(FIRST_BLOCK_ID);
    this.generationStamps = new IdPool(storage, "generation_stamp", 1000);
    this.generationStamps.reserveUpTo(FIRST_GENERATION_STAMP);
    this.minReplication =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_KEY,
            DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_DEFAULT);
    this.clock =
        new ClusterClock(
            storage, ClusterClock.Source.of(conf.get(NamenodeConfig.CLUSTER_CLOCK), storage));
    this.reportRequests = new FullReportRequests(storage);
    this.locations = new BlockLocations(datanodes, placement, ids);
  }

  public DatanodeManager datanodes() {
    return datanodes;
  }

  public BlockPlacement placement() {
    return placement;
  }

  public NamespaceIds ids() {
    return ids;
  }

  public String blockPoolId() {
    return ids.blockPoolId();
  }

  /**
   * Whether this namenode is in startup safe mode, a hint: a full report's transaction then reads
   * whether the cluster defers its checks ({@link DeferredChecks}), which the stored row decides.
   */
  public void whileStarting(java.util.function.BooleanSupplier starting) {
    this.starting = starting;
  }

  boolean mayDeferChecks() {
    return starting.getAsBoolean();
  }

  public int minReplication() {
    return minReplication;
  }

  /**
   * Whether this namenode does housekeeping and commands datanodes (docs/architecture.md, "Wire
   * compatibility"): it was elected and its lease holds.
   */
  public boolean isLeader() {
    return leadership.isLeader();
  }

  /**
   * The epoch this namenode leads now, or -1 if it does not lead: the tag of the commands it
   * decides for datanodes ({@link Leadership#leadingEpoch}).
   */
  public long leadingEpoch() {
    return leadership.leadingEpoch();
  }

  /** Which datanodes' block reports this namenode processes. */
  public ReportOwnership ownership() {
    return ownership;
  }

  /** The datanodes whose replicas must be recorded again from a full report (in the database). */
  public FullReportRequests reportRequests() {
    return reportRequests;
  }

  /** Replicas reported to this namenode that their report owner was to apply. */
  public RecentReceipts receipts() {
    return receipts;
  }

  /** The election this namenode takes part in, or null before it joined. */
  public LeaderElection election() {
    return leadership.election();
  }

  public void setElection(LeaderElection election) {
    leadership.setElection(election);
  }

  /**
   * The fence of leader-only work: {@link #checkLeader} at the end of the lock phase, and the lease
   * again just before the commit (docs/architecture.md, "Fencing a paused leader").
   */
  public io.hops.namenode.tx.TransactionRunner.Fence leaderFence() {
    return leadership.leaderFence();
  }

  /**
   * Passes only if this namenode still leads at the epoch the database names (docs/architecture.md,
   * "Wire compatibility").
   */
  public void checkLeader(io.hops.dal.Transaction tx) throws StorageException {
    leadership.checkLeader(tx);
  }

  /**
   * The time every namenode agrees on (the database's clock): for lease limits and timeouts that
   * one namenode sets and another checks, and for the times the namespace records.
   */
  public ClusterClock clock() {
    return clock;
  }

  public long now() {
    return clock.now();
  }

  public long newBlockId() throws StorageException {
    return blockIds.next();
  }

  /**
   * A generation stamp above {@code current}, unique across namenodes. Stamps come from ranges per
   * namenode, so the rest of this namenode's range may lie below a stamp another namenode gave the
   * block from a later range: then the rest is dropped and a new range taken, which is above every
   * range handed out before. (Using {@code current + 1} instead would hand out a stamp that belongs
   * to the other namenode's range.)
   */
  public long newGenerationStamp(long current) throws StorageException {
    long stamp = generationStamps.next();
    if (stamp <= current) {
      generationStamps.dropRange();
      stamp = generationStamps.next();
    }
    return stamp;
  }

  /** The block as the wire names it. */
  public ExtendedBlock extended(BlockInfoRow b) {
    return locations.extended(b);
  }

  /**
   * Inserts a new block under construction, block {@code index} of its file beginning at {@code
   * startOffset}, expected on {@code targets}.
   */
  public BlockInfoRow addBlock(
      ExecutePhase tx,
      long inodeId,
      int index,
      long startOffset,
      long genStamp,
      List<StorageStat> targets)
      throws IOException {
    long now = now();
    BlockInfoRow b =
        new BlockInfoRow(
            inodeId,
            newBlockId(),
            index,
            startOffset,
            0,
            genStamp,
            BlockState.UNDER_CONSTRUCTION,
            now,
            -1,
            0);
    BlockOffsets.insert(tx, b);
    tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(b.blockId(), inodeId));
    setExpected(tx, b, List.of(), targets.stream().map(s -> s.ref.id()).toList());
    return b;
  }

  /** Replaces a block's expected locations (its pipeline) with {@code storageIds}. */
  public void setExpected(
      ExecutePhase tx,
      BlockInfoRow b,
      List<ReplicaUnderConstructionRow> old,
      List<Integer> storageIds)
      throws StorageException {
    Set<Integer> keep = new HashSet<>(storageIds);
    for (ReplicaUnderConstructionRow r : old) {
      if (!keep.contains(r.storageId())) {
        tx.delete(ReplicaUnderConstructionRow.TABLE, r);
      }
    }
    int i = 0;
    for (int s : storageIds) {
      ReplicaUnderConstructionRow row =
          new ReplicaUnderConstructionRow(
              b.inodeId(),
              b.blockId(),
              s,
              (byte) ReplicaState.RBW.getValue(),
              i++,
              b.generationStamp());
      if (old.stream().anyMatch(r -> r.storageId() == s)) {
        tx.update(ReplicaUnderConstructionRow.TABLE, row);
      } else {
        tx.insert(ReplicaUnderConstructionRow.TABLE, row);
      }
    }
  }

  /** Finalized replicas on live, uncorrupted storages. */
  public int liveReplicas(FileBlocks f, long blockId) {
    Set<Integer> bad = new HashSet<>();
    f.corrupt(blockId).forEach(c -> bad.add(c.storageId()));
    int n = 0;
    for (ReplicaRow r : f.replicas(blockId)) {
      if (!bad.contains(r.storageId())
          && datanodes.isLive(datanodes.cachedStorage(r.storageId()))) {
        n++;
      }
    }
    return n;
  }

  /** The datanodes of a block's live replicas that are not corrupt. */
  private List<String> liveHolders(FileBlocks f, long blockId) {
    Set<Integer> bad = new HashSet<>();
    f.corrupt(blockId).forEach(c -> bad.add(c.storageId()));
    List<String> out = new ArrayList<>();
    for (ReplicaRow r : f.replicas(blockId)) {
      StorageRef s = datanodes.cachedStorage(r.storageId());
      if (!bad.contains(r.storageId()) && datanodes.isLive(s)) {
        out.add(s.datanodeUuid());
      }
    }
    return out;
  }

  /** The located blocks of a file for a reader (HDFS BlockManager.createLocatedBlocks). */
  public LocatedBlocks locatedBlocks(
      FileBlocks f, boolean underConstruction, long offset, long length, String reader) {
    return locations.locatedBlocks(f, underConstruction, offset, length, reader, true);
  }

  /**
   * @param forRead false for fsck, which counts the replicas no reader is sent to (on datanodes in
   *     maintenance) too
   */
  public LocatedBlocks locatedBlocks(
      FileBlocks f,
      boolean underConstruction,
      long offset,
      long length,
      String reader,
      boolean forRead) {
    return locations.locatedBlocks(f, underConstruction, offset, length, reader, forRead);
  }

  /**
   * One located block: a block not yet complete is where its pipeline is; a complete one is where
   * live replicas were reported, corrupt ones last (or only those, flagged, if all are corrupt).
   */
  public LocatedBlock locatedBlock(FileBlocks f, BlockInfoRow b, long offset, String reader) {
    return locations.locatedBlock(f, b, offset, reader);
  }

  /** A new block's pipeline as the client gets it from addBlock. */
  public LocatedBlock locatedNewBlock(BlockInfoRow b, List<StorageStat> targets, long offset) {
    return locations.locatedNewBlock(b, targets, offset);
  }

  /** Whether a corrupt-replica row names this storage for this block. */
  static boolean isCorrupt(List<CorruptReplicaRow> corrupt, int storageId) {
    return corrupt.stream().anyMatch(c -> c.storageId() == storageId);
  }

  /**
   * Removes a block from its file (HDFS BlockManager.removeBlock): its rows go, and every storage
   * that holds a replica or was writing one is told to delete it through an invalidation. Call
   * {@link FileBlocks#withRemovalRows} in the lock phase when the block may be complete.
   */
  public void removeBlock(ExecutePhase tx, FileBlocks f, BlockInfoRow b) throws StorageException {
    long id = b.blockId();
    BlockOffsets.delete(tx, b);
    Set<Integer> holders = new TreeSet<>();
    for (ReplicaRow r : f.replicas(id)) {
      tx.delete(ReplicaRow.TABLE, r);
      holders.add(r.storageId());
    }
    for (ReplicaUnderConstructionRow r : f.expected(id)) {
      tx.delete(ReplicaUnderConstructionRow.TABLE, r);
      holders.add(r.storageId());
    }
    for (CorruptReplicaRow r : f.corrupt(id)) {
      tx.delete(CorruptReplicaRow.TABLE, r);
    }
    for (ExcessReplicaRow r : f.excess(id)) {
      tx.delete(ExcessReplicaRow.TABLE, r);
    }
    PendingBlockRow pending = f.pending(id);
    if (pending != null) {
      tx.delete(PendingBlockRow.TABLE, pending);
    }
    if (f.queuedForCheck(id)) {
      tx.delete(UnderReplicatedBlockRow.TABLE, UnderReplicatedBlockRow.TABLE.key(b.inodeId(), id));
    }
    for (int storage : holders) {
      InvalidatedBlockRow r =
          new InvalidatedBlockRow(b.inodeId(), id, storage, b.generationStamp(), b.numBytes());
      if (f.noteInvalidation(r)) {
        tx.insert(InvalidatedBlockRow.TABLE, r);
      }
    }
    if (holders.isEmpty() && f.invalidations(id).isEmpty()) {
      // Otherwise the lookup row stays until the datanodes report the deletions (ReplicaChange).
      tx.delete(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(id));
    }
    f.remove(id);
    f.setReplicas(id, List.of());
    f.setExpected(id, List.of());
  }

  /**
   * A file just closed: its blocks with a live replica count other than {@code replication} are
   * queued for re-replication's check (HDFS checkRedundancy), once. Of a tail view ({@link
   * FileBlockTail#lock}) the tail blocks: addBlock queued each block before them as it moved past.
   */
  public void queueReplicationChecks(ExecutePhase tx, FileBlocks f, short replication)
      throws StorageException {
    for (BlockInfoRow b : f.blocks()) {
      queueReplicationCheck(tx, f, b, replication);
    }
  }

  /**
   * Queues a replication check of one block of {@code f} unless it has its replicas, spread over
   * the racks as the placement rule wants (HDFS isNeededReconstruction).
   */
  public void queueReplicationCheck(
      ExecutePhase tx, FileBlocks f, BlockInfoRow b, short replication) throws StorageException {
    boolean needed =
        liveReplicas(f, b.blockId()) != replication
            || !placement.isPlacementSatisfied(liveHolders(f, b.blockId()), replication);
    if (needed && !f.queuedForCheck(b.blockId())) {
      f.markQueued(b.blockId());
      tx.insert(
          UnderReplicatedBlockRow.TABLE,
          new UnderReplicatedBlockRow(b.inodeId(), b.blockId(), 0, now(), replication));
    }
  }

  /**
   * A block just completed: the pipeline's replicas not reported yet are counted as replications in
   * flight (HDFS addExpectedReplicasToPending), so re-replication does not copy a block whose
   * replicas are still being reported. {@code reporting} is a storage reporting right now (or -1).
   */
  public void expectedToPending(
      ExecutePhase tx,
      BlockInfoRow b,
      List<ReplicaUnderConstructionRow> expected,
      List<ReplicaRow> reported,
      int reporting)
      throws StorageException {
    StringBuilder targets = new StringBuilder();
    int count = 0;
    for (ReplicaUnderConstructionRow r : expected) {
      int s = r.storageId();
      if (onSameDatanode(s, reporting)
          || reported.stream().anyMatch(x -> onSameDatanode(s, x.storageId()))) {
        continue;
      }
      targets.append(targets.length() == 0 ? "" : ",").append(s);
      count++;
    }
    if (count > 0) {
      tx.insert(
          PendingBlockRow.TABLE,
          new PendingBlockRow(b.inodeId(), b.blockId(), now(), count, targets.toString()));
    }
  }

  /**
   * Whether two storages are on one datanode: a datanode puts a replica on the volume it picks, not
   * necessarily the storage the pipeline named. Storages this namenode does not know compare by id.
   */
  private boolean onSameDatanode(int a, int b) {
    if (a == b) {
      return true;
    }
    StorageRef x = datanodes.cachedStorage(a);
    StorageRef y = datanodes.cachedStorage(b);
    return x != null && y != null && x.datanodeUuid().equals(y.datanodeUuid());
  }
}
