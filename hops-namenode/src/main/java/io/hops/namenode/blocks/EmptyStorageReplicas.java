package io.hops.namenode.blocks;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.LongStream;

/**
 * The bulk path of a first full report: replicas a report adds to a storage that recorded none
 * (every replica of a datanode's first report after a cluster start, or after its replicas were
 * forgotten), in transactions of {@code max-rows / 4} replicas rather than {@link ReplicaChanges}'s
 * {@code max-rows / 12}, with no per-replica change object. A transaction reads the lookup rows and
 * then locks the block rows in block id order, one batch each ({@link ReplicaReads#lookUp}, the
 * "Lock order" of docs/architecture.md), and records each replica of a complete block at its
 * generation stamp or a newer one as {@link ReplicaChange} does for it: its replica row and its
 * check row written insert-if-absent, unread (a row an incremental report wrote since the report's
 * index scan stays), and no check row where a starting cluster defers the checks ({@link
 * DeferredChecks}, read last); while the cluster starts, the note of the block ids added for the
 * leader's judgement of safe mode ({@link ChangedStorages#noteAdded}). Every other replica (a block
 * no file has, under construction or committed, moved or removed since its lookup row was read, or
 * a stale stamp) is handed back, for {@link ReplicaChanges} to apply in a transaction of its own:
 * those read more rows, which the smaller transactions bound.
 */
public final class EmptyStorageReplicas extends Operation<List<ReportedReplica>> {
  /** The rows one replica reads and writes: its lookup, block, replica and check rows. */
  static final int ROWS_PER_REPLICA = 4;

  private final BlockManager bm;
  private final List<ReportedReplica> batch;
  private long[] inodes;
  private boolean deferred;

  /** {@code batch}: one of {@link #transactions}, of one storage. */
  public EmptyStorageReplicas(BlockManager bm, List<ReportedReplica> batch) {
    this.bm = bm;
    this.batch = new ArrayList<>(batch);
    this.batch.sort(Comparator.comparingLong(ReportedReplica::blockId));
  }

  /** {@code reported}, the replicas one storage's report adds, cut into transactions. */
  public static List<List<ReportedReplica>> transactions(
      List<ReportedReplica> reported, int maxRows) {
    int most = Math.max(1, maxRows / ROWS_PER_REPLICA);
    List<List<ReportedReplica>> out = new ArrayList<>();
    for (int i = 0; i < reported.size(); i += most) {
      out.add(reported.subList(i, Math.min(reported.size(), i + most)));
    }
    return out;
  }

  @Override
  public String name() {
    return "blockReportBatch";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    tx.readOnce(); // a report's rows: nothing reads them again soon
    long[] ids = new long[batch.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = batch.get(i).blockId();
    }
    ReplicaReads.LookedUp found = ReplicaReads.lookUp(tx, ids);
    inodes = new long[ids.length];
    boolean any = false;
    for (int i = 0; i < ids.length; i++) {
      BlockInfoRow b = found.blocks().get(i);
      boolean plain =
          b != null
              && b.underConstructionState() == BlockState.COMPLETE
              && batch.get(i).genStamp() >= b.generationStamp();
      inodes[i] = plain ? b.inodeId() : -1;
      any |= plain;
    }
    deferred = any && bm.mayDeferChecks() && DeferredChecks.deferring(tx);
  }

  /** Records the plain replicas; answers the others, for {@link ReplicaChanges}. */
  @Override
  protected List<ReportedReplica> execute(ExecutePhase tx) throws IOException {
    List<ReportedReplica> rest = new ArrayList<>();
    long now = bm.now();
    Map<Integer, LongStream.Builder> added = new HashMap<>();
    for (int i = 0; i < inodes.length; i++) {
      ReportedReplica r = batch.get(i);
      if (inodes[i] < 0) {
        rest.add(r);
        continue;
      }
      added.computeIfAbsent(r.storage().id(), s -> LongStream.builder()).add(r.blockId());
      // Replica index 0: a hint nothing reads, as a batched change writes it (ReplicaChange).
      tx.insertIfAbsent(
          ReplicaRow.TABLE, new ReplicaRow(inodes[i], r.blockId(), r.storage().id(), 0));
      if (!deferred) {
        tx.insertIfAbsent(
            UnderReplicatedBlockRow.TABLE,
            new UnderReplicatedBlockRow(inodes[i], r.blockId(), 0, now, -1));
      }
    }
    if (ChangedStorages.noting(bm)) {
      for (Map.Entry<Integer, LongStream.Builder> e : added.entrySet()) {
        ChangedStorages.noteAdded(tx, e.getKey(), e.getValue().build().toArray()); // in id order
      }
    }
    return rest;
  }
}
