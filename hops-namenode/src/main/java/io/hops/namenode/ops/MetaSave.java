package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ExcessReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.blocks.BlockHealth;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.resolve.InodePaths;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;

/**
 * {@code metaSave} ({@code hdfs dfsadmin -metasave FILE}): HDFS's dump of the block manager, read
 * from the database in one transaction: the totals, live and dead datanodes, the blocks waiting for
 * re-replication and the missing ones ({@code under_replicated_blocks}, judged now as {@link
 * BlockHealth}), the copies in flight ({@code pending_blocks}), the replicas to delete ({@code
 * invalidated_blocks}), the corrupt replicas and every datanode. Same sections and line formats as
 * HDFS's {@code FSNamesystem.metaSave}; docs/operations.md says which lines differ and why.
 */
public final class MetaSave {
  private final DatanodeManager datanodes;
  private final Transaction tx;
  private final InodePaths paths;
  private final Map<Long, Short> replication = new HashMap<>();

  private MetaSave(BlockManager blocks, Transaction tx) {
    this.datanodes = blocks.datanodes();
    this.tx = tx;
    this.paths = InodePaths.in(tx);
  }

  /** Writes the dump of the cluster's state now to {@code out}. */
  public static void write(Storage storage, BlockManager blocks, PrintWriter out)
      throws StorageException {
    try (Transaction tx = storage.begin()) {
      new MetaSave(blocks, tx).write(out);
    }
  }

  private void write(PrintWriter out) throws StorageException {
    long inodes = tx.countAll(InodeRow.TABLE);
    long blocks = tx.countAll(BlockInfoRow.TABLE);
    out.println(
        inodes
            + " files and directories, "
            + blocks
            + " blocks = "
            + (inodes + blocks)
            + " total filesystem objects");
    int live = 0;
    int dead = 0;
    for (DatanodeState n : datanodes.all()) {
      if (datanodes.isLive(n)) {
        live++;
      } else {
        dead++;
      }
    }
    out.println("Live Datanodes: " + live);
    out.println("Dead Datanodes: " + dead);
    Map<List<Long>, Set<Integer>> corrupt = corruptReplicas();
    List<List<Long>> waiting = new ArrayList<>();
    List<List<Long>> missing = new ArrayList<>();
    for (UnderReplicatedBlockRow r :
        tx.scanAll(UnderReplicatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
      List<Long> block = List.of(r.inodeId(), r.blockId());
      switch (health(block, corrupt)) {
        case LOW_REDUNDANCY -> waiting.add(block);
        case MISSING, MISSING_REPLICATION_ONE -> missing.add(block);
        default -> {} // a stale mark: the replication check drops it
      }
    }
    out.println("Metasave: Blocks waiting for reconstruction: " + waiting.size());
    for (List<Long> block : waiting) {
      dumpBlock(block, corrupt, out);
    }
    out.println("Metasave: Blocks currently missing: " + missing.size());
    for (List<Long> block : missing) {
      dumpBlock(block, corrupt, out);
    }
    // HDFS postpones these only after a failover, for replicas on stale nodes: hops has none.
    out.println("Mis-replicated blocks that have been postponed:");
    pending(out);
    Map<String, Integer> invalidations = invalidations(out);
    corrupt(out);
    datanodeDump(invalidations, out);
  }

  private Map<List<Long>, Set<Integer>> corruptReplicas() throws StorageException {
    Map<List<Long>, Set<Integer>> corrupt = new LinkedHashMap<>();
    for (CorruptReplicaRow r : tx.scanAll(CorruptReplicaRow.TABLE, LockMode.READ_COMMITTED)) {
      corrupt
          .computeIfAbsent(List.of(r.inodeId(), r.blockId()), b -> new HashSet<>())
          .add(r.storageId());
    }
    return corrupt;
  }

  private BlockHealth health(List<Long> block, Map<List<Long>, Set<Integer>> corrupt)
      throws StorageException {
    return BlockHealth.of(
        tx,
        datanodes,
        block.get(0),
        block.get(1),
        corrupt.getOrDefault(block, Set.of()),
        replication);
  }

  private BlockInfoRow blockInfo(long inodeId, long blockId) throws StorageException {
    return tx.find(
        BlockInfoRow.TABLE, BlockInfoRow.TABLE.key(inodeId, blockId), LockMode.READ_COMMITTED);
  }

  /** HDFS's {@code Block.toString}: {@code blk_<id>_<generation stamp>}. */
  private String blockName(long inodeId, long blockId) throws StorageException {
    BlockInfoRow b = blockInfo(inodeId, blockId);
    return b == null
        ? new Block(blockId).toString()
        : new Block(blockId, b.numBytes(), b.generationStamp()).toString();
  }

  private String nodeName(int storageId) throws StorageException {
    StorageRef s = datanodes.storage(storageId);
    DatanodeState n = s == null ? null : datanodes.node(s.datanodeUuid());
    return n == null ? "storage " + storageId : n.info().toString();
  }

  /** HDFS's {@code BlockManager.dumpBlockMeta}: the file, the replica counts, the datanodes. */
  private void dumpBlock(List<Long> block, Map<List<Long>, Set<Integer>> corrupt, PrintWriter out)
      throws StorageException {
    long inodeId = block.get(0);
    long blockId = block.get(1);
    InodeRow file = paths.byId(inodeId);
    String name = file == null ? null : paths.pathOf(file);
    Set<Integer> bad = corrupt.getOrDefault(block, Set.of());
    Set<Integer> excess = new HashSet<>();
    for (ExcessReplicaRow e :
        tx.findByPartition(
            ExcessReplicaRow.TABLE, inodeId, "block_id", blockId, LockMode.READ_COMMITTED)) {
      excess.add(e.storageId());
    }
    int live = 0;
    int corruptCount = 0;
    int excessCount = 0;
    StringBuilder nodes = new StringBuilder();
    for (ReplicaRow r :
        tx.findByPartition(
            ReplicaRow.TABLE, inodeId, "block_id", blockId, LockMode.READ_COMMITTED)) {
      StorageRef s = datanodes.storage(r.storageId());
      boolean isBad = bad.contains(r.storageId());
      if (isBad) {
        corruptCount++;
      } else if (excess.contains(r.storageId())) {
        excessCount++;
      } else if (datanodes.isLive(s)) {
        live++;
      }
      nodes.append(' ').append(nodeName(r.storageId())).append(isBad ? "(corrupt)" : "");
      nodes.append(" : ");
    }
    out.print((name == null ? "[orphaned]" : name) + ": ");
    out.print(
        blockName(inodeId, blockId)
            + (live > 0 ? "" : " MISSING")
            + " (replicas: live: "
            + live
            + " decommissioning and decommissioned: 0 corrupt: "
            + corruptCount
            + " in excess: "
            + excessCount
            + " maintenance mode: 0) ");
    out.println(nodes);
  }

  /** HDFS's {@code PendingReconstructionBlocks.metaSave}. */
  private void pending(PrintWriter out) throws StorageException {
    List<PendingBlockRow> rows = tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED);
    out.println("Metasave: Blocks being reconstructed: " + rows.size());
    for (PendingBlockRow r : rows) {
      out.println(
          blockName(r.inodeId(), r.blockId())
              + " StartTime: "
              + new java.sql.Time(r.timestamp())
              + " NumReconstructInProgress: "
              + r.numReplicasInProgress());
    }
  }

  /**
   * HDFS's {@code InvalidateBlocks.dump}: per datanode, the replicas it is to delete. Returns the
   * count per datanode uuid, for the datanode lines.
   */
  private Map<String, Integer> invalidations(PrintWriter out) throws StorageException {
    Map<String, List<String>> byNode = new TreeMap<>();
    Map<String, String> names = new HashMap<>();
    int total = 0;
    for (InvalidatedBlockRow r : tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
      StorageRef s = datanodes.storage(r.storageId());
      String uuid = s == null ? "storage " + r.storageId() : s.datanodeUuid();
      names.computeIfAbsent(uuid, u -> safeName(r.storageId()));
      byNode
          .computeIfAbsent(uuid, u -> new ArrayList<>())
          .add(new Block(r.blockId(), r.numBytes(), r.generationStamp()).toString());
      total++;
    }
    out.println(
        "Metasave: Blocks " + total + " waiting deletion from " + byNode.size() + " datanodes.");
    Map<String, Integer> counts = new HashMap<>();
    for (Map.Entry<String, List<String>> e : byNode.entrySet()) {
      out.println(names.get(e.getKey()));
      out.println(String.join(",", e.getValue()));
      counts.put(e.getKey(), e.getValue().size());
    }
    return counts;
  }

  private String safeName(int storageId) {
    try {
      return nodeName(storageId);
    } catch (StorageException e) {
      return "storage " + storageId;
    }
  }

  /** HDFS's corrupt replica lines: one per corrupt replica, with its reason. */
  private void corrupt(PrintWriter out) throws StorageException {
    out.println("Corrupt Blocks:");
    for (CorruptReplicaRow r : tx.scanAll(CorruptReplicaRow.TABLE, LockMode.READ_COMMITTED)) {
      BlockInfoRow b = blockInfo(r.inodeId(), r.blockId());
      StorageRef s = datanodes.storage(r.storageId());
      int replicas =
          tx.findByPartition(
                  ReplicaRow.TABLE, r.inodeId(), "block_id", r.blockId(), LockMode.READ_COMMITTED)
              .size();
      out.println(
          "Block="
              + blockName(r.inodeId(), r.blockId())
              + "\tSize="
              + (b == null ? 0 : b.numBytes())
              + "\tNode="
              + nodeName(r.storageId())
              + "\tStorageID="
              + (s == null ? r.storageId() : s.storageUuid())
              + "\tStorageState=NORMAL"
              + "\tTotalReplicas="
              + replicas
              + "\tReason="
              + r.reason());
    }
  }

  /** HDFS's {@code DatanodeManager.datanodeDump}: every datanode by uuid. */
  private void datanodeDump(Map<String, Integer> invalidations, PrintWriter out) {
    Map<String, DatanodeState> sorted = new TreeMap<>();
    for (DatanodeState n : datanodes.all()) {
      sorted.put(n.uuid(), n);
    }
    out.println("Metasave: Number of datanodes: " + sorted.size());
    for (DatanodeState n : sorted.values()) {
      DatanodeInfo info = n.info();
      StringBuilder line = new StringBuilder(info.dumpDatanode());
      int inval = invalidations.getOrDefault(n.uuid(), 0);
      if (inval > 0) {
        line.append(' ').append(inval).append(" blocks to be invalidated;");
      }
      out.println(line);
    }
  }
}
