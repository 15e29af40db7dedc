package io.hops.namenode.check;

import java.util.ArrayList;
import java.util.List;

/** One kind of block's totals, as fsck counts and prints them (HDFS's NamenodeFsck.Result). */
final class FsckResult {
  final List<String> missingIds = new ArrayList<>();
  long missingSize;
  long corruptFiles;
  long corruptBlocks;
  long corruptSize;
  long excessiveReplicas;
  long missingReplicas;
  long numUnderMinReplicatedBlocks;
  long numOverReplicatedBlocks;
  long numUnderReplicatedBlocks;
  long numMisReplicatedBlocks;
  long numBlocksQueuedForReplication;
  long numMinReplicatedBlocks;
  long totalBlocks;
  long numExpectedReplicas;
  long totalOpenFilesBlocks;
  long totalFiles;
  long totalOpenFiles;
  long totalSize;
  long totalOpenFilesSize;
  long totalReplicas;
  long decommissionedReplicas;
  long decommissioningReplicas;
  long enteringMaintenanceReplicas;
  long inMaintenanceReplicas;

  boolean isHealthy() {
    return missingIds.isEmpty() && corruptBlocks == 0;
  }

  float replicationFactor() {
    return totalBlocks == 0 ? 0.0f : (float) totalReplicas / (float) totalBlocks;
  }

  private String percentOfBlocks(long n) {
    return totalBlocks > 0 ? " (" + ((float) (n * 100) / (float) totalBlocks) + " %)" : "";
  }

  /** The "Replicated Blocks:" section. */
  String replicated(short defaultReplication, int minReplication) {
    StringBuilder r = new StringBuilder();
    r.append(" Total size:\t").append(totalSize).append(" B");
    if (totalOpenFilesSize != 0) {
      r.append(" (Total open files size: ").append(totalOpenFilesSize).append(" B)");
    }
    r.append("\n Total files:\t").append(totalFiles);
    if (totalOpenFiles != 0) {
      r.append(" (Files currently being written: ").append(totalOpenFiles).append(")");
    }
    r.append("\n Total blocks (validated):\t").append(totalBlocks);
    if (totalBlocks > 0) {
      r.append(" (avg. block size ").append(totalSize / totalBlocks).append(" B)");
    }
    if (totalOpenFilesBlocks != 0) {
      r.append(" (Total open file blocks (not validated): ")
          .append(totalOpenFilesBlocks)
          .append(")");
    }
    if (corruptFiles > 0 || numUnderMinReplicatedBlocks > 0) {
      r.append("\n  ********************************");
      if (numUnderMinReplicatedBlocks > 0) {
        r.append("\n  UNDER MIN REPL'D BLOCKS:\t").append(numUnderMinReplicatedBlocks);
        r.append(percentOfBlocks(numUnderMinReplicatedBlocks));
        r.append("\n  MINIMAL BLOCK REPLICATION:\t").append(minReplication);
      }
      if (corruptFiles > 0) {
        r.append("\n  CORRUPT FILES:\t").append(corruptFiles);
        if (missingSize > 0) {
          r.append("\n  MISSING BLOCKS:\t").append(missingIds.size());
          r.append("\n  MISSING SIZE:\t\t").append(missingSize).append(" B");
        }
        if (corruptBlocks > 0) {
          r.append("\n  CORRUPT BLOCKS: \t").append(corruptBlocks);
          r.append("\n  CORRUPT SIZE:\t\t").append(corruptSize).append(" B");
        }
      }
      r.append("\n  ********************************");
    }
    r.append("\n Minimally replicated blocks:\t").append(numMinReplicatedBlocks);
    r.append(percentOfBlocks(numMinReplicatedBlocks));
    r.append("\n Over-replicated blocks:\t").append(numOverReplicatedBlocks);
    r.append(percentOfBlocks(numOverReplicatedBlocks));
    r.append("\n Under-replicated blocks:\t").append(numUnderReplicatedBlocks);
    r.append(percentOfBlocks(numUnderReplicatedBlocks));
    r.append("\n Mis-replicated blocks:\t\t").append(numMisReplicatedBlocks);
    r.append(percentOfBlocks(numMisReplicatedBlocks));
    r.append("\n Default replication factor:\t").append(defaultReplication);
    r.append("\n Average block replication:\t").append(replicationFactor());
    r.append("\n Missing blocks:\t\t").append(missingIds.size());
    r.append("\n Corrupt blocks:\t\t").append(corruptBlocks);
    r.append("\n Missing replicas:\t\t").append(missingReplicas);
    if (totalReplicas > 0) {
      r.append(" (")
          .append((float) (missingReplicas * 100) / (float) numExpectedReplicas)
          .append(" %)");
    }
    if (decommissionedReplicas > 0) {
      r.append("\n DecommissionedReplicas:\t").append(decommissionedReplicas);
    }
    if (decommissioningReplicas > 0) {
      r.append("\n DecommissioningReplicas:\t").append(decommissioningReplicas);
    }
    if (enteringMaintenanceReplicas > 0) {
      r.append("\n EnteringMaintenanceReplicas:\t").append(enteringMaintenanceReplicas);
    }
    if (inMaintenanceReplicas > 0) {
      r.append("\n InMaintenanceReplicas:\t").append(inMaintenanceReplicas);
    }
    r.append("\n Blocks queued for replication:\t").append(numBlocksQueuedForReplication);
    return r.toString();
  }

  /** The "Erasure Coded Block Groups:" section, always empty in hops. */
  static String erasureCoded() {
    return " Total size:\t0 B\n Total files:\t0\n Total block groups (validated):\t0\n"
        + " Minimally erasure-coded block groups:\t0\n Over-erasure-coded block groups:\t0\n"
        + " Under-erasure-coded block groups:\t0\n"
        + " Unsatisfactory placement block groups:\t0\n Average block group size:\t0.0\n"
        + " Missing block groups:\t\t0\n Corrupt block groups:\t\t0\n"
        + " Missing internal blocks:\t0\n Blocks queued for replication:\t0";
  }
}
