package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeAdmin;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.resolve.InodePaths;
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
import java.util.stream.LongStream;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;

/**
 * {@code listOpenFiles} ({@code hdfs dfsadmin -listOpenFiles}): the files under construction, in
 * inode id order after {@code prevId}, as HDFS's lease manager pages them. {@code lease_paths} is
 * keyed by holder, so the ids after {@code prevId} are gathered from a read-committed scan of the
 * whole table (a page of {@link #SCAN_ROWS} rows at a time) and sorted; each file's path is then
 * rebuilt from its inode upwards (a rename of a directory above an open file leaves the stored path
 * behind), with the directories met cached for the call. Files outside {@code path} are skipped but
 * do not count towards the page, as in HDFS. An operator's command: each page reads every open
 * file's row, as a filtered listing did when the table was in id order.
 *
 * <p>{@link #blockingDecommission} lists only the open files that hold up a datanode leaving
 * service (HDFS's {@code BLOCKING_DECOMMISSION}: the open files of the blocks its admin monitor
 * found insufficient): those with a block that has a replica on a decommissioning datanode, or one
 * entering maintenance, and not enough live in-service replicas as {@code DecommissionCheck} counts
 * them. It is judged now, from the stored replicas and admin states, on whichever namenode is
 * asked: four more pruned scans per open file (blocks, replicas, corrupt and excess replicas) and a
 * primary-key read of each datanode met once per call (a namenode's own admin states are hints that
 * lag a {@code -refreshNodes} sent to another namenode until its next read of them).
 */
public final class ListOpenFiles extends Operation<BatchedListEntries<OpenFileEntry>> {
  /** The rows of {@code lease_paths} each read of the scan takes. */
  static final int SCAN_ROWS = 1_000;

  private final String path;
  private final long prevId;
  private final int limit;
  private final BlockManager blocking;
  private final int defaultReplication;
  private final List<OpenFileEntry> entries = new ArrayList<>();
  private final Map<String, AdminStates> adminStates = new HashMap<>();
  private boolean hasMore;

  public ListOpenFiles(String path, long prevId, int limit) {
    this(path, prevId, limit, null, 0);
  }

  private ListOpenFiles(
      String path, long prevId, int limit, BlockManager blocking, int defaultReplication) {
    this.path = path;
    this.prevId = prevId;
    this.limit = limit;
    this.blocking = blocking;
    this.defaultReplication = defaultReplication;
  }

  /** The open files that hold up a datanode leaving service (see the class comment). */
  public static ListOpenFiles blockingDecommission(
      String path, long prevId, int limit, BlockManager bm, int defaultReplication) {
    return new ListOpenFiles(path, prevId, limit, bm, defaultReplication);
  }

  @Override
  public String name() {
    return "listOpenFiles";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    entries.clear();
    hasMore = false;
    long[] ids = idsAfter(tx, prevId);
    InodePaths paths = tx.inodePaths();
    for (int i = 0; i < ids.length; i++) {
      if (entries.size() >= limit) {
        hasMore = true;
        return;
      }
      InodeRow file = paths.byId(ids[i]);
      if (file == null || !file.underConstruction()) {
        continue;
      }
      String full = paths.pathOf(file);
      if (full != null
          && InodePaths.isUnder(full, path)
          && (blocking == null || blocksLeaving(tx, file))) {
        entries.add(new OpenFileEntry(file.id(), full, file.clientName(), file.clientMachine()));
      }
    }
  }

  /**
   * Whether a block of {@code file} has a replica on a datanode leaving service and too few live
   * in-service replicas for it to leave (HDFS DatanodeAdminManager.isSufficient).
   */
  private boolean blocksLeaving(LockPhase tx, InodeRow file) throws IOException {
    DatanodeManager dm = blocking.datanodes();
    List<ReplicaRow> replicas = tx.findByPartition(ReplicaRow.TABLE, file.id(), rc());
    Set<String> notCounted = new HashSet<>(); // corrupt or being deleted: "block:storage"
    for (CorruptReplicaRow r : tx.findByPartition(CorruptReplicaRow.TABLE, file.id(), rc())) {
      notCounted.add(r.blockId() + ":" + r.storageId());
    }
    for (ExcessReplicaRow r : tx.findByPartition(ExcessReplicaRow.TABLE, file.id(), rc())) {
      notCounted.add(r.blockId() + ":" + r.storageId());
    }
    for (BlockInfoRow b : tx.findByPartition(BlockInfoRow.TABLE, file.id(), rc())) {
      int live = 0;
      boolean decommissioning = false;
      boolean entering = false;
      for (ReplicaRow r : replicas) {
        if (r.blockId() != b.blockId()) {
          continue;
        }
        dm.storage(r.storageId());
        StorageRef s = dm.cachedStorage(r.storageId());
        DatanodeState n = s == null ? null : dm.node(s.datanodeUuid());
        if (n == null) {
          continue;
        }
        AdminStates state = adminState(tx, n);
        decommissioning |= state == AdminStates.DECOMMISSION_INPROGRESS;
        entering |= state == AdminStates.ENTERING_MAINTENANCE;
        if (state == AdminStates.NORMAL
            && dm.isLive(n)
            && !notCounted.contains(r.blockId() + ":" + r.storageId())) {
          live++;
        }
      }
      int expected = file.replication();
      boolean complete = b.underConstructionState() == BlockState.COMPLETE;
      if (decommissioning
          && live
              < (complete ? Math.min(expected, defaultReplication) : blocking.minReplication())) {
        return true;
      }
      if (entering && live < dm.admin().minMaintenanceReplicas(expected)) {
        return true;
      }
    }
    return false;
  }

  /** The admin state stored for {@code n}'s datanode, read once per call; its hint if none is. */
  private AdminStates adminState(LockPhase tx, DatanodeState n) throws IOException {
    AdminStates known = adminStates.get(n.uuid());
    if (known == null) {
      DatanodeRow row = tx.find(DatanodeRow.TABLE, DatanodeRow.TABLE.key(n.uuid()), rc());
      known = row == null ? n.adminState() : DatanodeAdmin.stateOf(row);
      adminStates.put(n.uuid(), known);
    }
    return known;
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }

  /** The ids of the files with a lease path whose id is above {@code after}, ascending. */
  private static long[] idsAfter(LockPhase tx, long after) throws IOException {
    LongStream.Builder ids = LongStream.builder();
    Key cursor = null;
    while (true) {
      List<LeasePathRow> page =
          tx.scanFrom(LeasePathRow.TABLE, null, cursor, SCAN_ROWS, LockMode.READ_COMMITTED);
      for (LeasePathRow lp : page) {
        if (lp.inodeId() > after) {
          ids.add(lp.inodeId());
        }
      }
      if (page.size() < SCAN_ROWS) {
        break;
      }
      cursor = LeasePathRow.TABLE.keyOf(page.get(page.size() - 1));
    }
    return ids.build().sorted().toArray();
  }

  @Override
  protected BatchedListEntries<OpenFileEntry> execute(ExecutePhase tx) {
    return new BatchedListEntries<>(List.copyOf(entries), hasMore);
  }
}
