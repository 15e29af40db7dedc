package io.hops.namenode.check;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.ops.QueueMisplacedBlocks;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.rpc.SafeMode;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * The block checks of {@link Fsck}'s walk, one file at a time: each complete block's replicas
 * counted into the totals as NamenodeFsck counts them, what is wrong (corrupt, missing,
 * under-replicated, mis-replicated) reported in its words, and the file's verdict, with {@code
 * -delete} of a corrupt file, {@code -replicate} of its mis-replicated blocks, and the {@code
 * -blocks} report.
 */
final class FsckFileBlocks {
  private final TransactionRunner runner;
  private final BlockManager blockManager;
  private final Limits limits;
  private final SnapshotSettings snapshotSettings;
  private final SafeMode safeMode;
  private final PermissionChecker pc;
  private final FsckResult res;
  private final List<String> corruptFileBlocks;
  private final DatanodeManager datanodes;
  private final FsckReplicas replicas;
  private final boolean showFiles;
  private final boolean showBlocks;

  /** {@code -replicate}: the mis-replicated blocks found are queued for re-replication. */
  private final boolean doReplicate;

  /** {@code -maintenance}: the maintenance states are shown (they are counted either way). */
  private final boolean showMaintenanceState;

  private final boolean doDelete;

  /** The racks of the live datanodes, counted at the first block this walk checks. */
  private int totalRacks = -1;

  /**
   * @param params the request's parameters, as DFSck sends them
   * @param res the walk's totals, counted into
   * @param corruptFileBlocks the walk's corrupt blocks, "blk_ID\tREPLICATION\tPATH" each, added to
   */
  FsckFileBlocks(
      TransactionRunner runner,
      BlockManager blockManager,
      Limits limits,
      SnapshotSettings snapshotSettings,
      SafeMode safeMode,
      PermissionChecker pc,
      Map<String, String[]> params,
      FsckResult res,
      List<String> corruptFileBlocks) {
    this.runner = runner;
    this.blockManager = blockManager;
    this.limits = limits;
    this.snapshotSettings = snapshotSettings;
    this.safeMode = safeMode;
    this.pc = pc;
    this.res = res;
    this.corruptFileBlocks = corruptFileBlocks;
    this.datanodes = blockManager.datanodes();
    this.showFiles = params.containsKey("files");
    this.showBlocks = params.containsKey("blocks");
    this.doReplicate = params.containsKey("replicate");
    this.showMaintenanceState = params.containsKey("maintenance");
    this.doDelete = params.containsKey("delete");
    this.replicas =
        new FsckReplicas(
            datanodes,
            params.containsKey("locations"),
            params.containsKey("racks"),
            params.containsKey("replicadetails"),
            showMaintenanceState);
  }

  /** What the walk found wrong with one file's blocks, and its {@code -blocks} report. */
  private static final class FileTally {
    int missing;
    int corrupt;
    long missingSize;
    long corruptSize;
    int underReplicated;
    final Set<Long> misplacedIds = new java.util.HashSet<>();
    final StringBuilder report = new StringBuilder();
    int n;
  }

  /** Checks the blocks of the file at {@code p}, its report printed to {@code out}. */
  void check(PrintWriter out, String p, HdfsFileStatus file, LocatedBlocks blocks)
      throws IOException {
    FileTally t = new FileTally();
    LocatedBlock last = blocks.getLastLocatedBlock();
    boolean lastOpen = !blocks.isLastBlockComplete() && last != null;
    for (LocatedBlock lb : blocks.getLocatedBlocks()) {
      if (lastOpen && last.getBlock().equals(lb.getBlock())) {
        continue;
      }
      checkBlock(out, p, file, lb, t);
    }
    if (!t.misplacedIds.isEmpty()) {
      int queued =
          runner.run(
              () -> new QueueMisplacedBlocks(blockManager, file.getFileId(), t.misplacedIds));
      res.numBlocksQueuedForReplication += queued;
    }
    if (lastOpen) {
      ExtendedBlock block = last.getBlock();
      t.report
          .append("\nUnder Construction Block:\n")
          .append(t.n)
          .append(". ")
          .append(block)
          .append(" len=")
          .append(block.getNumBytes())
          .append(" Expected_repl=")
          .append(last.getLocations().length);
      String info = replicas.describe(last, false);
      if (!info.isEmpty()) {
        t.report.append(' ').append(info);
      }
    }
    verdict(out, p, blocks, t);
  }

  /** Counts one complete block's replicas into the totals and {@code t}, as NamenodeFsck does. */
  private void checkBlock(
      PrintWriter out, String p, HdfsFileStatus file, LocatedBlock lb, FileTally t) {
    ExtendedBlock block = lb.getBlock();
    int target = file.getReplication();
    int minReplication = blockManager.minReplication();
    FsckReplicas.Counts r = lb.isCorrupt() ? new FsckReplicas.Counts() : replicas.count(lb);
    int liveReplicas = r.live;
    int total = r.total();
    boolean isMissing = total == 0;
    res.totalReplicas += total;
    res.decommissionedReplicas += r.decommissioned;
    res.decommissioningReplicas += r.decommissioning;
    res.enteringMaintenanceReplicas += r.enteringMaintenance;
    res.inMaintenanceReplicas += r.inMaintenance;
    res.numExpectedReplicas += target;
    if (total < minReplication) {
      res.numUnderMinReplicatedBlocks++;
    }
    if (liveReplicas > target) {
      res.excessiveReplicas += liveReplicas - target;
      res.numOverReplicatedBlocks++;
    }
    if (lb.isCorrupt()) {
      res.corruptBlocks++;
      res.corruptSize += block.getNumBytes();
      t.corrupt++;
      t.corruptSize += block.getNumBytes();
      corruptFileBlocks.add(block.getBlockName() + "\t" + file.getReplication() + "\t" + p);
      out.print(
          "\n"
              + p
              + ": CORRUPT blockpool "
              + block.getBlockPoolId()
              + " block "
              + block.getBlockName()
              + "\n");
    }
    if (total >= minReplication) {
      res.numMinReplicatedBlocks++;
    }
    if (total < target && !isMissing) {
      res.missingReplicas += target - total;
      res.numUnderReplicatedBlocks++;
      t.underReplicated++;
      underReplicated(out, p, block, target, r);
    }
    if (misplaced(out, lb, target, p, t.underReplicated) && doReplicate) {
      t.misplacedIds.add(block.getBlockId());
    }
    t.report.append(t.n).append(". ").append(block).append(" len=").append(block.getNumBytes());
    if (isMissing && !lb.isCorrupt()) {
      t.report.append(" MISSING!");
      res.missingIds.add(block.toString());
      res.missingSize += block.getNumBytes();
      t.missing++;
      t.missingSize += block.getNumBytes();
      corruptFileBlocks.add(block.getBlockName() + "\t" + file.getReplication() + "\t" + p);
    } else {
      t.report.append(" Live_repl=").append(liveReplicas);
      String info = replicas.describe(lb, lb.isCorrupt());
      if (!info.isEmpty()) {
        t.report.append(' ').append(info);
      }
    }
    t.report.append('\n');
    t.n++;
  }

  /** NamenodeFsck's line for an under-replicated block. */
  private void underReplicated(
      PrintWriter out, String p, ExtendedBlock block, int target, FsckReplicas.Counts r) {
    if (!showFiles) {
      out.print("\n" + p + ": ");
    }
    out.println(
        " Under replicated "
            + block
            + ". Target Replicas is "
            + target
            + " but found "
            + r.live
            + " live replica(s), "
            + r.decommissioned
            + " decommissioned replica(s), "
            + r.decommissioning
            + " decommissioning replica(s)"
            + (showMaintenanceState
                ? r.enteringMaintenance
                    + ", entering maintenance replica(s) and "
                    + r.inMaintenance
                    + " in maintenance replica(s)."
                : "."));
  }

  /** The file's verdict: its missing and corrupt blocks, {@code -delete}, and its report. */
  private void verdict(PrintWriter out, String p, LocatedBlocks blocks, FileTally t)
      throws IOException {
    int missing = t.missing;
    int corrupt = t.corrupt;
    long missingSize = t.missingSize;
    long corruptSize = t.corruptSize;
    if (missing > 0 || corrupt > 0) {
      if (!showFiles) {
        if (missing > 0) {
          out.print(
              "\n" + p + ": MISSING " + missing + " blocks of total size " + missingSize + " B.");
        }
        if (corrupt > 0) {
          out.print(
              "\n" + p + ": CORRUPT " + corrupt + " blocks of total size " + corruptSize + " B.");
        }
      }
      res.corruptFiles++;
      if (doDelete && !blocks.isUnderConstruction()) {
        safeMode.check("Cannot delete " + p);
        runner.run(() -> new Delete(limits, snapshotSettings, pc, p, true));
      }
    }
    if (showFiles) {
      if (missing > 0 || corrupt > 0) {
        if (missing > 0) {
          out.print(" MISSING " + missing + " blocks of total size " + missingSize + " B\n");
        }
        if (corrupt > 0) {
          out.print(" CORRUPT " + corrupt + " blocks of total size " + corruptSize + " B\n");
        }
      } else if (t.underReplicated == 0) {
        out.print(" OK\n");
      }
      if (showBlocks) {
        out.print(t.report + "\n");
      }
    }
  }

  /**
   * Counts and reports a block whose replicas are on fewer racks than HDFS's rule asks (two, or all
   * there are), or on fewer upgrade domains than the upgrade-domain policy asks
   * (verifyBlockPlacement), in NamenodeFsck's words.
   */
  private boolean misplaced(
      PrintWriter out, LocatedBlock lb, int replication, String p, int underReplicated) {
    if (totalRacks < 0) {
      totalRacks = datanodes.racks(); // once a walk: it counts every datanode
    }
    String violation =
        blockManager.placement().violation(lb.getLocations(), replication, totalRacks);
    if (violation == null) {
      return false;
    }
    res.numMisReplicatedBlocks++;
    if (!showFiles) {
      if (underReplicated == 0) {
        out.println();
      }
      out.print(p + ": ");
    }
    out.println(" Replica placement policy is violated for " + lb.getBlock() + ". " + violation);
    return true;
  }
}
