package io.hops.namenode.check;

import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.config.Limits;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.ops.GetBlockLocations;
import io.hops.namenode.ops.GetFileInfo;
import io.hops.namenode.ops.GetListing;
import io.hops.namenode.ops.ReadDatabaseBlock;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.rpc.SafeMode;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.Writer;
import java.util.ArrayList;
import java.util.Date;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.util.Time;

/**
 * {@code hdfs fsck PATH}: walks the namespace below a path with the caller's permissions (paged
 * listings, then each file's block locations, one short transaction each) and prints HDFS's
 * NamenodeFsck report, whose last line the stock {@code DFSck} client reads for its exit code ("...
 * is HEALTHY", "... is CORRUPT", "... does not exist", "... FAILED").
 *
 * <p>A replica counts as live when its datanode is live here and it is not marked corrupt; a block
 * with none is missing. A block on fewer racks than the placement rule asks is mis-replicated.
 * Replicas on datanodes leaving service are counted apart as HDFS's NumberReplicas does
 * (decommissioning, decommissioned, entering maintenance, in maintenance): a block that has only
 * those is not missing. hops has no erasure coding and no snapshots, so those counts are zero.
 * Supported options: -files -blocks -locations -racks -replicaDetails -maintenance -openforwrite
 * -list-corruptfileblocks -delete -replicate (queues the mis-replicated blocks; -showprogress and
 * -includeSnapshots change nothing); the others are refused. This class is the walk and the
 * report's totals; {@link FsckFileBlocks} checks each file's blocks.
 */
public final class Fsck {
  static final String HEALTHY_STATUS = "is HEALTHY";
  static final String CORRUPT_STATUS = "is CORRUPT";
  static final String NONEXISTENT_STATUS = "does not exist";
  static final String FAILURE_STATUS = "FAILED";

  private static final Set<String> REFUSED =
      Set.of("move", "blockId", "storagepolicies", "upgradedomains");

  private final TransactionRunner runner;
  private final BlockManager blockManager;
  private final SmallFileStore smallFiles;
  private final FileStatuses statuses;
  private final SnapshotSettings snapshotSettings;
  private final Limits limits;
  private final Configuration conf;
  private final PermissionChecker pc;
  private PrintWriter out;
  private final String caller;
  private final String remoteAddress;
  private final Map<String, String[]> params;
  private final String path;
  private final boolean showFiles;
  private final boolean showOpenFiles;
  private final DatanodeManager datanodes;
  private final FsckFileBlocks fileBlocks;
  private long totalDirs;
  private long totalSymlinks;
  private final FsckResult res = new FsckResult();
  private final List<String> corruptFileBlocks = new ArrayList<>();

  /**
   * @param pc the caller's permissions
   * @param caller how the report names the caller, e.g. {@code alice (auth:SIMPLE)}
   * @param params the request's parameters, as DFSck sends them
   */
  public Fsck(
      TransactionRunner runner,
      BlockManager blockManager,
      SmallFileStore smallFiles,
      FileStatuses statuses,
      SnapshotSettings snapshotSettings,
      Limits limits,
      Configuration conf,
      SafeMode safeMode,
      PermissionChecker pc,
      String caller,
      String remoteAddress,
      Map<String, String[]> params,
      PrintWriter out) {
    this.runner = runner;
    this.blockManager = blockManager;
    this.smallFiles = smallFiles;
    this.statuses = statuses;
    this.snapshotSettings = snapshotSettings;
    this.limits = limits;
    this.conf = conf;
    this.pc = pc;
    this.caller = caller;
    this.remoteAddress = remoteAddress;
    this.params = params;
    this.out = out;
    String[] p = params.get("path");
    this.path = p == null || p.length == 0 || p[0].isEmpty() ? "/" : p[0];
    this.showFiles = params.containsKey("files");
    this.showOpenFiles = params.containsKey("openforwrite");
    this.datanodes = blockManager.datanodes();
    this.fileBlocks =
        new FsckFileBlocks(
            runner,
            blockManager,
            limits,
            snapshotSettings,
            safeMode,
            pc,
            params,
            res,
            corruptFileBlocks);
  }

  public void run() {
    long start = Time.monotonicNow();
    try {
      out.println(
          "FSCK started by "
              + caller
              + " from "
              + remoteAddress
              + " for path "
              + path
              + " at "
              + new Date());
      for (String option : REFUSED) {
        if (params.containsKey(option)) {
          throw new UnsupportedOperationException(
              "fsck option '" + option + "' is not supported by hops");
        }
      }
      HdfsFileStatus file =
          runner.run(() -> new GetFileInfo(statuses, snapshotSettings, pc, path, "getFileInfo"));
      if (file == null) {
        out.print("\n\nPath '" + path + "' " + NONEXISTENT_STATUS);
        return;
      }
      if (params.containsKey("listcorruptfileblocks")) {
        listCorruptFileBlocks(file);
        return;
      }
      check(path, file);
      long live = datanodes.live().size();
      out.print("\nStatus: ");
      out.println(res.isHealthy() ? "HEALTHY" : "CORRUPT");
      out.println(" Number of data-nodes:\t" + live);
      out.println(" Number of racks:\t\t" + datanodes.racks());
      out.println(" Total dirs:\t\t\t" + totalDirs);
      out.println(" Total symlinks:\t\t" + totalSymlinks);
      out.println("\nReplicated Blocks:");
      out.println(res.replicated(defaultReplication(), blockManager.minReplication()));
      out.println("\nErasure Coded Block Groups:");
      out.println(FsckResult.erasureCoded());
      out.println(
          "FSCK ended at " + new Date() + " in " + (Time.monotonicNow() - start) + " milliseconds");
      // DFSck reads the status from the last line.
      out.print(
          "\n\nThe filesystem under path '"
              + path
              + "' "
              + (res.isHealthy() ? HEALTHY_STATUS : CORRUPT_STATUS));
    } catch (Exception e) {
      out.println(
          "FSCK ended at " + new Date() + " in " + (Time.monotonicNow() - start) + " milliseconds");
      out.println(e.getMessage());
      out.print("\n\nFsck on path '" + path + "' " + FAILURE_STATUS);
    } finally {
      out.flush();
    }
  }

  private short defaultReplication() {
    return (short)
        conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
  }

  private void check(String parent, HdfsFileStatus file) throws IOException {
    String p = file.getFullName(parent);
    if ((totalDirs + totalSymlinks + res.totalFiles) % 1000 == 0) {
      out.println();
      out.flush();
    }
    if (file.isDirectory()) {
      checkDir(p);
      return;
    }
    if (file.isSymlink()) {
      if (showFiles) {
        out.println(p + " <symlink>");
      }
      totalSymlinks++;
      return;
    }
    LocatedBlocks blocks =
        runner.run(
            () ->
                new GetBlockLocations(blockManager, smallFiles, pc, p, 0, file.getLen())
                    .everyReplica());
    if (blocks == null) {
      return;
    }
    if (smallFiles.isDatabaseFile(blocks)) {
      databaseFile(p, file, blocks.get(0).getBlock());
      return;
    }
    if (!fileSummary(p, file, blocks)) {
      return;
    }
    fileBlocks.check(out, p, file, blocks);
  }

  /**
   * A file stored in the database (docs/architecture.md, "Small files in the database"): no
   * replicas to count; corrupt when its rows are missing, as a block without replicas would be
   * missing.
   */
  private void databaseFile(String p, HdfsFileStatus file, ExtendedBlock block) throws IOException {
    res.totalFiles++;
    res.totalSize += file.getLen();
    byte[] data = runner.run(() -> new ReadDatabaseBlock(smallFiles, block));
    String tier = smallFiles.tierOf(file.getLen()).name();
    if (data == null) {
      // As a block without replicas: missing, and the file corrupt.
      res.corruptFiles++;
      res.missingIds.add(block.toString());
      res.missingSize += file.getLen();
      corruptFileBlocks.add(block.getBlockName() + "\t" + file.getReplication() + "\t" + p);
      out.print(
          "\n"
              + p
              + ": CORRUPT: stored in the database ("
              + tier
              + ") but its data row is missing\n");
    } else if (showFiles) {
      out.print(p + " " + file.getLen() + " bytes, stored in the database (" + tier + "): OK\n");
    } else if (res.totalFiles % 100 == 0) {
      out.print('.');
    }
  }

  private void checkDir(String dir) throws IOException {
    if (showFiles) {
      out.println(dir + " <dir>");
    }
    totalDirs++;
    byte[] after = HdfsFileStatus.EMPTY_NAME;
    DirectoryListing listing;
    do {
      byte[] from = after;
      listing =
          runner.run(
              () ->
                  new GetListing(
                      statuses,
                      snapshotSettings,
                      limits,
                      blockManager,
                      smallFiles,
                      pc,
                      dir,
                      from,
                      false));
      if (listing == null) {
        return; // deleted meanwhile
      }
      for (HdfsFileStatus child : listing.getPartialListing()) {
        check(dir, child);
      }
      after = listing.getLastName();
    } while (listing.hasMore());
  }

  /** Counts the file; false if it is open and open files are not checked. */
  private boolean fileSummary(String p, HdfsFileStatus file, LocatedBlocks blocks) {
    long len = file.getLen();
    boolean open = blocks.isUnderConstruction();
    if (open && !showOpenFiles) {
      res.totalOpenFilesSize += len;
      res.totalOpenFilesBlocks += blocks.locatedBlockCount();
      res.totalOpenFiles++;
      return false;
    }
    res.totalFiles++;
    res.totalSize += len;
    res.totalBlocks += blocks.locatedBlockCount();
    String head =
        p
            + " "
            + len
            + " bytes, replicated: replication="
            + file.getReplication()
            + ", "
            + blocks.locatedBlockCount()
            + " block(s)";
    if (showOpenFiles && open) {
      out.print(head + ", OPENFORWRITE: ");
    } else if (showFiles) {
      out.print(head + ": ");
    } else if (res.totalFiles % 100 == 0) {
      out.print('.');
    }
    return true;
  }

  /**
   * {@code -list-corruptfileblocks}: the blocks with no live replica, "blk_ID\tREPLICATION\tPATH"
   * each (HDFS's CorruptFileBlockInfo), paged by the cookie DFSck sends back ({@code
   * startblockafter}: how many were listed before).
   */
  private void listCorruptFileBlocks(HdfsFileStatus file) throws IOException {
    PrintWriter real = out;
    out = new PrintWriter(Writer.nullWriter()); // the walk's own report is not wanted here
    try {
      check(path, file);
    } finally {
      out = real;
    }
    int skip = 0;
    String[] after = params.get("startblockafter");
    if (after != null && after.length > 0) {
      skip = Integer.parseInt(after[0]);
    }
    List<String> page =
        corruptFileBlocks.subList(
            Math.min(skip, corruptFileBlocks.size()), corruptFileBlocks.size());
    String filler = !page.isEmpty() ? Integer.toString(page.size()) : skip == 0 ? "no" : "no more";
    real.println("Cookie:\t" + (skip + page.size()));
    for (String s : page) {
      real.println(s);
    }
    real.println("\n\nThe filesystem under path '" + path + "' has " + filler + " CORRUPT files");
    real.println();
  }
}
