package io.hops.namenode.blocks;

import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Several replica changes of one datanode report in one transaction: all the entries of an
 * incremental report, or the differences a full report finds, so a report costs one commit per
 * transaction rather than per block. Each change reads and writes what {@link ReplicaChange} does,
 * the reads batched per table ({@link ReplicaReads}); the block rows are locked in block id order,
 * the same order in every transaction, so two never wait for each other in a cycle.
 */
public final class ReplicaChanges extends Operation<Void> {
  /**
   * Rows one change reads and writes, about: its lookup and block rows, the block's replicas and
   * expected replicas (three each at HDFS's default replication), its queue rows (check, pending,
   * invalidation) and the rows it writes.
   */
  static final int ROWS_PER_CHANGE = 12;

  private final BlockManager bm;
  private final String name;
  private final boolean readOnce;
  private final List<ReplicaChange> changes = new ArrayList<>();

  /**
   * {@code batch}, one of {@link #transactions}, applied under the operation name {@code name};
   * with {@code readOnce} (a full report's differences, whose rows nothing reads again soon) its
   * rows are read past the row cache and not kept there ({@link io.hops.dal.Transaction#readOnce}).
   */
  public ReplicaChanges(
      BlockManager bm, List<ReportedReplica> batch, String name, boolean readOnce) {
    this.bm = bm;
    this.name = name;
    this.readOnce = readOnce;
    for (ReportedReplica r : batch) {
      changes.add(r.change(bm));
    }
    changes.sort(Comparator.comparingLong(ReplicaChange::blockId));
  }

  /**
   * {@code reported} in order, cut into the transactions that apply it: as few as the row bound
   * ({@code hops.namenode.transaction.max-rows}, {@link #ROWS_PER_CHANGE} rows a change) allows,
   * and a new one where a block comes again (a replica moved between two storages of the datanode,
   * received on one and deleted on the other): a change reads its block's rows in the lock phase,
   * before any change writes, so a second change of the block in the same transaction would not see
   * what the first one wrote.
   */
  public static List<List<ReportedReplica>> transactions(
      List<ReportedReplica> reported, int maxRows) {
    int most = Math.max(1, maxRows / ROWS_PER_CHANGE);
    List<List<ReportedReplica>> out = new ArrayList<>();
    List<ReportedReplica> current = new ArrayList<>();
    Set<Long> blocks = new HashSet<>();
    for (ReportedReplica r : reported) {
      if (current.size() >= most || blocks.contains(r.blockId())) {
        out.add(current);
        current = new ArrayList<>();
        blocks.clear();
      }
      current.add(r);
      blocks.add(r.blockId());
    }
    if (!current.isEmpty()) {
      out.add(current);
    }
    return out;
  }

  @Override
  public String name() {
    return name;
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    if (readOnce) {
      tx.readOnce();
    }
    ReplicaReads.lock(tx, changes);
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    for (ReplicaChange c : changes) {
      c.execute(tx);
    }
    if (ChangedStorages.noting(bm)) {
      ChangedStorages.note(tx, changes.stream().map(ReplicaChange::storageId).toList());
    }
    return null;
  }
}
