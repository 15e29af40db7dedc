package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signedForRead;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.ops.AccessTimes;
import io.hops.namenode.ops.GetBlockLocations;
import io.hops.namenode.ops.snapshot.SnapshotSettings;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * Reading a file: its block locations for the client, and the file's access time, kept in the
 * background after the answer ({@link AccessTimes}).
 */
public final class ClientFileReads {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final Configuration conf;
  private final SmallFileStore smallFiles;
  private final SnapshotSettings snapshots;
  private final BlockTokens blockTokens;
  private final AccessTimes accessTimes;
  private final Supplier<SafeMode> safeMode;

  public ClientFileReads(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      Configuration conf,
      SmallFileStore smallFiles,
      SnapshotSettings snapshots,
      BlockTokens blockTokens,
      Supplier<SafeMode> safeMode) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.conf = conf;
    this.smallFiles = smallFiles;
    this.snapshots = snapshots;
    this.blockTokens = blockTokens;
    this.accessTimes = new AccessTimes(runner, conf);
    this.safeMode = safeMode;
  }

  LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    var pc = checkers.ofCaller();
    if (!accessTimes.enabled()) {
      return signedForRead(
          blockTokens,
          runner.run(
              () ->
                  new GetBlockLocations(blocks, smallFiles, pc, src, offset, length)
                      .snapshots(snapshots)));
    }
    var attempt = new AtomicReference<GetBlockLocations>();
    LocatedBlocks located =
        runner.run(
            () -> {
              attempt.set(
                  new GetBlockLocations(blocks, smallFiles, pc, src, offset, length)
                      .snapshots(snapshots));
              return attempt.get();
            });
    // The access time is written after the answer, in the background (AccessTimes).
    // (None for a file read from a snapshot, which is read-only.)
    fileRead(attempt.get().file());
    return signedForRead(blockTokens, located);
  }

  /**
   * A file was read by another call than {@code getBlockLocations} (hops-client's one-call read of
   * a database file): its access time is kept the same way, in the background.
   */
  void fileRead(InodeRow file) {
    if (file != null && accessTimes.enabled()) {
      accessTimes.read(file, blocks.now(), this::inSafeModeOrUnknown);
    }
  }

  /** Safe mode for background writes: when it cannot be read, as if on (write nothing). */
  private boolean inSafeModeOrUnknown() {
    try {
      return safeMode.get().isOn();
    } catch (IOException e) {
      return true;
    }
  }
}
