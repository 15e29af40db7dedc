package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageStat;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
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
 * counted at the first judgement of a leader's term and again only while the thresholds are not met
 * and the count is older than {@link #RECOUNT_MILLIS}: as HDFS sets its block total once at
 * startup, since safe mode refuses the writes that would change it. A total that fell meanwhile
 * (blocks freed anyway) delays the end by at most that period; the count of 1,000,000 block rows
 * costs more than the rest of a judgement together, so the judgement that follows the last report
 * does not repeat it.
 *
 * <p>As in HDFS: when the thresholds hold before any datanode has reported (an empty namespace),
 * safe mode ends at once; otherwise it ends once they have held for the extension. Each {@link
 * #evaluate} reads the block ids on every live storage (and the count, as above), so it is made
 * only while the cluster starts.
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

  /** How old a block total may be before a judgement whose thresholds are not met counts again. */
  static final long RECOUNT_MILLIS = 5_000;

  private Status status = Status.PENDING_THRESHOLD;
  private boolean activated;
  private long reachedAt;
  private long blockSafe;
  private long blockTotal;
  private long countedAt;
  private boolean counted;
  private long blockThreshold;
  private int liveDatanodes;

  StartupSafeMode(Storage storage, BlockManager bm, Configuration conf) {
    this(storage, bm, conf, RECOUNT_MILLIS);
  }

  StartupSafeMode(Storage storage, BlockManager bm, Configuration conf, long recountMillis) {
    this.recountMillis = recountMillis;
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
  }

  /** Starts over: a leader that lost its lease and leads again judges afresh. */
  synchronized void reset() {
    status = Status.PENDING_THRESHOLD;
    activated = false;
    counted = false;
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
    long[] perNode;
    try (Transaction tx = storage.begin()) {
      if (!counted) {
        countMillis += countBlocks(tx);
      }
      perNode = blockIdsPerNode(tx, live);
      judge(live.size(), perNode);
      if (!thresholdsMet() && Time.monotonicNow() - countedAt >= recountMillis) {
        countMillis += countBlocks(tx);
        judge(live.size(), perNode);
      }
    }
    LOG.debug(
        "judged {} of {} blocks safe on {} datanodes in {} ms ({} ms counting blocks)",
        blockSafe,
        blockTotal,
        live.size(),
        Time.monotonicNow() - started,
        countMillis);
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

  /** Counts the blocks; returns how long it took. */
  private long countBlocks(Transaction tx) throws IOException {
    long started = Time.monotonicNow();
    blockTotal = tx.countAll(BlockInfoRow.TABLE);
    countedAt = Time.monotonicNow();
    counted = true;
    return countedAt - started;
  }

  private void judge(int liveDatanodes, long[] perNode) {
    this.liveDatanodes = liveDatanodes;
    blockSafe = Math.min(blockTotal, countSafe(perNode, safeReplication));
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
   * The block ids recorded on each node's storages, each node's sorted and without repeats, one
   * after the other: a block on {@code k} of them appears {@code k} times.
   */
  private static long[] blockIdsPerNode(Transaction tx, List<DatanodeState> nodes)
      throws IOException {
    List<long[]> all = new ArrayList<>();
    int size = 0;
    for (DatanodeState n : nodes) {
      List<long[]> ofNode = new ArrayList<>();
      int count = 0;
      for (StorageStat s : n.storages()) {
        long[] ids = tx.findKeyLongsByIndex(ReplicaRow.TABLE, "storage_id", s.ref.id(), "block_id");
        ofNode.add(ids);
        count += ids.length;
      }
      long[] merged = distinct(concat(ofNode, count));
      all.add(merged);
      size += merged.length;
    }
    return concat(all, size);
  }

  /** How many values appear at least {@code min} times in {@code ids}, which it sorts. */
  private static long countSafe(long[] sorted, int min) {
    Arrays.sort(sorted);
    long safe = 0;
    for (int i = 0; i < sorted.length; ) {
      int j = i;
      while (j < sorted.length && sorted[j] == sorted[i]) {
        j++;
      }
      if (j - i >= Math.max(1, min)) {
        safe++;
      }
      i = j;
    }
    return safe;
  }

  private static long[] concat(List<long[]> parts, int size) {
    long[] out = new long[size];
    int at = 0;
    for (long[] p : parts) {
      System.arraycopy(p, 0, out, at, p.length);
      at += p.length;
    }
    return out;
  }

  private static long[] distinct(long[] ids) {
    Arrays.sort(ids);
    int n = 0;
    for (int i = 0; i < ids.length; i++) {
      if (i == 0 || ids[i] != ids[i - 1]) {
        ids[n++] = ids[i];
      }
    }
    return Arrays.copyOf(ids, n);
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
