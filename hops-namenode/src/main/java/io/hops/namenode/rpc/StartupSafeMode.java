package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockIdSets;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The thresholds of startup safe mode, judged by the leader as HDFS's BlockManagerSafeMode judges
 * them ({@code dfs.namenode.safemode.threshold-pct}, {@code .min.datanodes}, {@code .extension},
 * {@code .replication.min}), over the whole cluster: a block is safe when it has replicas recorded
 * on at least the minimum number of datanodes that have heartbeated to the leader since it started
 * (replica locations are persisted, so a datanode that is back counts its replicas at once; its
 * full report, due at its registration, corrects them). The total is every block of the namespace,
 * counted at the first judgement of a leader's term and again only while the thresholds are not
 * met, nothing was noted changed since the last judgement (while reports are applied a recount only
 * costs: it reads every replica again), and the count is older than {@link #RECOUNT_MILLIS} and
 * than {@link #RECOUNT_COST_FACTOR} times the last recount took: as HDFS sets its block total once
 * at startup, since safe mode refuses the writes that would change it. A total that fell meanwhile
 * (blocks freed anyway) delays the end by at most that period; the count of 1,000,000 block rows
 * costs more than the rest of a judgement together, so the judgement that follows the last report
 * does not repeat it.
 *
 * <p>The safe blocks are counted from the block ids of each heard-from datanode's storages, read by
 * the replica table's storage index; a judgement reads only the storages not read yet in this term
 * and those whose replica rows changed since it read them ({@link ChangedStorages}: a transaction
 * that changes them while the cluster starts notes it in the same transaction), and counts the
 * difference ({@link SafeBlockCounts}), so the judgement after the last report of a restart with
 * its replica rows kept reads no replica. A datanode no longer live, or a storage no longer
 * reported, counts no more.
 *
 * <p>As in HDFS: when the thresholds hold before any datanode has reported (an empty namespace),
 * safe mode ends at once; otherwise it ends once they have held for the extension. {@link
 * #evaluate} is made only while the cluster starts.
 */
final class StartupSafeMode {
  private static final Logger LOG = LoggerFactory.getLogger(StartupSafeMode.class);

  enum Status {
    PENDING_THRESHOLD,
    EXTENSION,
    OFF
  }

  private final Storage storage;
  private final BlockManager bm;
  private final double threshold;
  private final int datanodeThreshold;
  private final int safeReplication;
  private final long extensionMillis;
  private final long recountMillis;
  private final int recountCostFactor;
  private long recountCostMillis;

  /** How old a block total may be before a judgement whose thresholds are not met counts again. */
  static final long RECOUNT_MILLIS = 5_000;

  /**
   * And how many times as long as the last recount took (which reads every replica of the heard-
   * from datanodes again): so recounts take at most a tenth of the leader's time, whatever the size
   * of the cluster (ten datanodes of a million replicas each take seconds to read).
   */
  static final int RECOUNT_COST_FACTOR = 9;

  private Status status = Status.PENDING_THRESHOLD;
  private boolean activated;
  private long reachedAt;
  private long blockSafe;
  private long blockTotal;
  private long countedAt;
  private boolean counted;
  private long blockThreshold;
  private int liveDatanodes;

  /**
   * The cache of the store this leader judges from (never the truth: rebuilt at each term): by
   * datanode uuid, by storage id, the sorted block ids last read; and how many datanodes hold each.
   */
  private final Map<String, Map<Integer, long[]>> readIds = new HashMap<>();

  private SafeBlockCounts safeBlocks;
  private List<Key> changesSeen = List.of();

  StartupSafeMode(Storage storage, BlockManager bm, Configuration conf) {
    this(storage, bm, conf, RECOUNT_MILLIS, RECOUNT_COST_FACTOR);
  }

  /**
   * {@code recountMillis}: the least age of a count redone; {@code recountCostFactor}: and at least
   * that many times as long as the last recount took, since its end.
   */
  StartupSafeMode(
      Storage storage,
      BlockManager bm,
      Configuration conf,
      long recountMillis,
      int recountCostFactor) {
    this.recountMillis = recountMillis;
    this.recountCostFactor = recountCostFactor;
    this.storage = storage;
    this.bm = bm;
    this.threshold =
        conf.getFloat(
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_THRESHOLD_PCT_DEFAULT);
    this.datanodeThreshold =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_DEFAULT);
    this.safeReplication =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_REPLICATION_MIN_KEY,
            conf.getInt(
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_KEY,
                DFSConfigKeys.DFS_NAMENODE_REPLICATION_MIN_DEFAULT));
    this.extensionMillis =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY,
            DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_DEFAULT,
            TimeUnit.MILLISECONDS);
    this.safeBlocks = new SafeBlockCounts(safeReplication);
  }

  /**
   * Starts over: a leader that lost its lease and leads again judges afresh, from the store alone
   * (what it read in its former term may have changed without a note it would see).
   */
  synchronized void reset() {
    status = Status.PENDING_THRESHOLD;
    activated = false;
    counted = false;
    readIds.clear();
    safeBlocks = new SafeBlockCounts(safeReplication);
    changesSeen = List.of();
    recountCostMillis = 0;
  }

  /** Counts the cluster's blocks and safe blocks now; true once startup safe mode may end. */
  synchronized boolean evaluate() throws IOException {
    List<DatanodeState> live = new ArrayList<>();
    for (DatanodeState n : bm.datanodes().live()) {
      if (n.heardFrom()) {
        live.add(n);
      }
    }
    long started = Time.monotonicNow();
    long countMillis = 0;
    int storagesRead;
    try (Transaction tx = storage.begin()) {
      if (!counted) {
        countMillis += countBlocks(tx);
        recountCostMillis = countMillis; // a recount costs that and more
      }
      // The notes first: a change committed after this read is noted for the next judgement.
      ChangedStorages.Seen changed = ChangedStorages.read(tx);
      storagesRead = readAgain(tx, live, changed.storages(), changed.added(), false);
      changesSeen = changed.rows();
      judge(live.size());
      long sinceCount = Time.monotonicNow() - countedAt;
      boolean stale = changed.rows().isEmpty() && storagesRead == 0;
      if (!thresholdsMet()
          && stale
          && sinceCount >= recountMillis
          && sinceCount >= recountCostFactor * recountCostMillis) {
        long recountStarted = Time.monotonicNow();
        countMillis += countBlocks(tx);
        // Namenodes that serve already (a starting leader over them) write no notes: what they
        // changed is read again with the count, so a judgement is never stuck on a stale read.
        storagesRead += readAgain(tx, live, Set.of(), Map.of(), true);
        judge(live.size());
        countedAt = Time.monotonicNow();
        recountCostMillis = countedAt - recountStarted;
      }
    }
    LOG.debug(
        "judged {} of {} blocks safe on {} datanodes in {} ms ({} ms counting blocks, {} storages"
            + " read)",
        blockSafe,
        blockTotal,
        live.size(),
        Time.monotonicNow() - started,
        countMillis,
        storagesRead);
    if (!activated) {
      activated = true;
      // HDFS judges the thresholds once as it starts, before any datanode has reported.
      if (blockThreshold <= 0 && datanodeThreshold <= 0) {
        status = Status.OFF;
        return true;
      }
    }
    boolean met = thresholdsMet();
    switch (status) {
      case PENDING_THRESHOLD -> {
        if (met && blockTotal > 0 && extensionMillis > 0) {
          status = Status.EXTENSION;
          reachedAt = Time.monotonicNow();
        } else if (met) {
          status = Status.OFF;
        }
      }
      case EXTENSION -> {
        if (met && timeToLeaveExtension() <= 0) {
          status = Status.OFF;
        }
      }
      case OFF -> {}
    }
    return status == Status.OFF;
  }

  /** Frees what the judgements read, once the cluster serves (its tip stays as it was). */
  synchronized void dropReplicaIds() {
    readIds.clear();
    safeBlocks = new SafeBlockCounts(safeReplication);
  }

  /**
   * The notes read by the last judgement ({@link ChangedStorages}), once: the leader deletes them
   * now that it has read their storages again.
   */
  synchronized List<Key> takeChangesSeen() {
    List<Key> out = changesSeen;
    changesSeen = List.of();
    return out;
  }

  /** Counts the blocks; returns how long it took. */
  private long countBlocks(Transaction tx) throws IOException {
    long started = Time.monotonicNow();
    blockTotal = tx.countAll(BlockInfoRow.TABLE);
    countedAt = Time.monotonicNow();
    counted = true;
    return countedAt - started;
  }

  private void judge(int liveDatanodes) {
    this.liveDatanodes = liveDatanodes;
    blockSafe = Math.min(blockTotal, safeBlocks.safe());
    blockThreshold = (long) (blockTotal * threshold);
  }

  private boolean thresholdsMet() {
    return blockSafe >= blockThreshold
        && (datanodeThreshold <= 0 || liveDatanodes >= datanodeThreshold);
  }

  private long timeToLeaveExtension() {
    return blockTotal > 0 ? reachedAt + extensionMillis - Time.monotonicNow() : 0;
  }

  /**
   * Brings {@link #safeBlocks} up to the store: reads the block ids of each storage of {@code live}
   * not read yet or noted {@code changed} (each one if {@code everything}), adds to those read
   * before the ids noted {@code added} to them, and takes out what a datanode no longer live (or a
   * storage no longer reported) held; answers how many storages it read.
   */
  private int readAgain(
      Transaction tx,
      List<DatanodeState> live,
      Set<Integer> changed,
      Map<Integer, long[]> added,
      boolean everything)
      throws IOException {
    int storagesRead = 0;
    Set<String> uuids = new HashSet<>();
    for (DatanodeState n : live) {
      uuids.add(n.uuid());
      Map<Integer, long[]> before = readIds.getOrDefault(n.uuid(), Map.of());
      Map<Integer, long[]> after = new HashMap<>();
      boolean same = true;
      for (StorageStat s : n.storages()) {
        int id = s.ref.id();
        long[] ids = before.get(id);
        if (ids == null || everything || changed.contains(id)) {
          ids = tx.findKeyLongsByIndex(ReplicaRow.TABLE, "storage_id", id, "block_id");
          storagesRead++;
          same = false;
        } else if (added.containsKey(id)) {
          ids = BlockIdSets.union(ids, added.get(id));
          same = false;
        }
        after.put(id, ids);
      }
      if (same && after.size() == before.size()) {
        continue;
      }
      safeBlocks.replace(ofNode(before), ofNode(after));
      readIds.put(n.uuid(), after);
    }
    for (Iterator<Map.Entry<String, Map<Integer, long[]>>> it = readIds.entrySet().iterator();
        it.hasNext(); ) {
      Map.Entry<String, Map<Integer, long[]>> e = it.next();
      if (!uuids.contains(e.getKey())) {
        safeBlocks.replace(ofNode(e.getValue()), new long[0]);
        it.remove();
      }
    }
    return storagesRead;
  }

  /** The block ids on a node's storages, sorted and without repeats. */
  private static long[] ofNode(Map<Integer, long[]> byStorage) {
    if (byStorage.size() == 1) {
      return byStorage.values().iterator().next(); // sorted, and a storage holds a block once
    }
    return BlockIdSets.of(byStorage.values());
  }

  /** HDFS's safe mode tip (BlockManagerSafeMode.getSafeModeTip) from the last evaluation. */
  synchronized String tip() {
    StringBuilder msg = new StringBuilder();
    boolean blocksMet = blockSafe >= blockThreshold;
    if (!blocksMet) {
      msg.append(
          String.format(
              "The reported blocks %d needs additional %d blocks to reach the threshold %.4f of"
                  + " total blocks %d.%n",
              blockSafe, blockThreshold - blockSafe, threshold, blockTotal));
    } else {
      msg.append(
          String.format(
              "The reported blocks %d has reached the threshold %.4f of total blocks %d. ",
              blockSafe, threshold, blockTotal));
    }
    if (datanodeThreshold > 0) {
      if (blocksMet) {
        if (liveDatanodes < datanodeThreshold) {
          msg.append(
              String.format(
                  "The number of live datanodes %d needs an additional %d live datanodes to reach"
                      + " the minimum number %d.%n",
                  liveDatanodes, datanodeThreshold - liveDatanodes, datanodeThreshold));
        } else {
          msg.append(
              String.format(
                  "The number of live datanodes %d has reached the minimum number %d. ",
                  liveDatanodes, datanodeThreshold));
        }
      } else {
        msg.append("The number of live datanodes is not calculated ")
            .append("since reported blocks hasn't reached the threshold. ");
      }
    } else {
      msg.append("The minimum number of live datanodes is not required. ");
    }
    String turnOff = "Safe mode will be turned off automatically ";
    switch (status) {
      case PENDING_THRESHOLD ->
          msg.append(turnOff).append("once the thresholds have been reached.");
      case EXTENSION ->
          msg.append("In safe mode extension. ")
              .append(turnOff)
              .append("in ")
              .append(Math.max(0, timeToLeaveExtension()) / 1000)
              .append(" seconds.");
      case OFF -> msg.append(turnOff).append("soon.");
    }
    return msg.toString();
  }
}
