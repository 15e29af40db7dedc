package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signedForRead;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.AccessTimes;
import io.hops.namenode.ops.GetBlockLocations;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * Reading a file: its block locations for the client, and the file's access time, kept in the
 * background after the answer ({@link AccessTimes}).
 */
final class ClientFileReads {
  private final Namesystem ns;
  private final AccessTimes accessTimes;
  private final Supplier<SafeMode> safeMode;

  ClientFileReads(Namesystem ns, Supplier<SafeMode> safeMode) {
    this.ns = ns;
    this.accessTimes = new AccessTimes(ns.runner(), ns.conf());
    this.safeMode = safeMode;
  }

  LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    var pc = ns.checker();
    if (!accessTimes.enabled()) {
      return signedForRead(
          ns,
          ns.run(
              () ->
                  new GetBlockLocations(ns.blocks(), ns.smallFiles(), pc, src, offset, length)
                      .snapshots(ns.snapshots())));
    }
    var attempt = new AtomicReference<GetBlockLocations>();
    LocatedBlocks located =
        ns.run(
            () -> {
              attempt.set(
                  new GetBlockLocations(ns.blocks(), ns.smallFiles(), pc, src, offset, length)
                      .snapshots(ns.snapshots()));
              return attempt.get();
            });
    // The access time is written after the answer, in the background (AccessTimes).
    // (None for a file read from a snapshot, which is read-only.)
    fileRead(attempt.get().file());
    return signedForRead(ns, located);
  }

  /**
   * A file was read by another call than {@code getBlockLocations} (hops-client's one-call read of
   * a database file): its access time is kept the same way, in the background.
   */
  void fileRead(InodeRow file) {
    if (file != null && accessTimes.enabled()) {
      accessTimes.read(file, ns.blocks().now(), this::inSafeModeOrUnknown);
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
