package io.hops.bench;

import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.Stage;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code --snapshots N}: takes N snapshots of the run's base directory (made snapshottable once the
 * namespace is built) at even intervals of a phase's measured window, the first as the window
 * opens, so that the whole window runs under a snapshotted directory and each change's first write
 * after a snapshot pays for it. The snapshots are taken by the benchmark's own user (the namenodes'
 * superuser) through the stock client, from a thread of their own.
 */
final class PhaseSnapshots implements PhaseListener {
  private static final Logger LOG = LoggerFactory.getLogger(PhaseSnapshots.class);

  private final FileSystem fs;
  private final Path dir;
  private final String prefix;
  private final int count;
  private final long windowMillis;
  private final List<String> taken = new ArrayList<>();
  private final List<String> failures = new ArrayList<>();
  private Thread taker;

  /**
   * @param prefix names the snapshots {@code prefix-1} to {@code prefix-N}, unique in the run
   */
  PhaseSnapshots(FileSystem fs, Path dir, String prefix, int count, long windowMillis) {
    this.fs = fs;
    this.dir = dir;
    this.prefix = prefix;
    this.count = count;
    this.windowMillis = windowMillis;
  }

  /** Makes the run's base directory snapshottable on the system {@code fs} reaches. */
  static void allow(FileSystem fs, Path dir) throws IOException {
    ((org.apache.hadoop.hdfs.DistributedFileSystem) fs).allowSnapshot(dir);
  }

  @Override
  public void stage(Stage stage) {
    if (stage == Stage.MEASURE && taker == null) {
      taker = new Thread(this::takeAll, "phase-snapshots");
      taker.setDaemon(true);
      taker.start();
    }
  }

  private void takeAll() {
    long start = System.nanoTime();
    for (int i = 0; i < count; i++) {
      long due = start + i * windowMillis * 1_000_000L / count;
      long wait = (due - System.nanoTime()) / 1_000_000L;
      try {
        if (wait > 0) {
          Thread.sleep(wait);
        }
      } catch (InterruptedException e) {
        return;
      }
      String name = prefix + "-" + (i + 1);
      try {
        fs.createSnapshot(dir, name);
        synchronized (this) {
          taken.add(name);
        }
      } catch (IOException e) {
        LOG.warn("snapshot {} of {}", name, dir, e);
        synchronized (this) {
          failures.add(name + ": " + e.getMessage());
        }
      }
    }
  }

  /**
   * Once the phase is over: waits for a snapshot being taken (every one was due before the window
   * closed), gives up those a phase cut short never reached; the names taken, in order.
   */
  List<String> finish() throws InterruptedException {
    Thread t = taker;
    if (t != null) {
      t.join(windowMillis / Math.max(1, count) + 60_000);
      t.interrupt();
      t.join();
    }
    synchronized (this) {
      return List.copyOf(taken);
    }
  }

  /** Why snapshots failed, one line each. */
  synchronized List<String> failures() {
    return List.copyOf(failures);
  }
}
