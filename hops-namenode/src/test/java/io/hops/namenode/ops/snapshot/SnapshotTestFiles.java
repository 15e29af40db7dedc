package io.hops.namenode.ops.snapshot;

import io.hops.namenode.SideBySide;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/** Files the snapshot tests write alike on hops and on HDFS. */
final class SnapshotTestFiles {
  private SnapshotTestFiles() {}

  /** Settings of a side by side with snapshots on (hops's are off unless asked for). */
  static Configuration snapshotsOn() {
    Configuration conf = new Configuration(false);
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    return conf;
  }

  /**
   * Snapshots on, kept files released {@code batch} to a transaction (the row bound of a release
   * batch, {@code KeptFiles.batch}), and housekeeping rounds only when a test runs one: for the
   * tests that stop a namenode between two batches.
   */
  static Configuration releasedInBatchesOf(int batch) {
    Configuration conf = snapshotsOn();
    conf.setInt(NamenodeConfig.TRANSACTION_MAX_ROWS, batch * 8);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000);
    return conf;
  }

  /**
   * Writes {@code dir/f0} to {@code dir/f<n-1>} with replication 1, {@code f<i>} holding {@code
   * bytes.apply(i)}; answers their blocks.
   */
  static java.util.List<org.apache.hadoop.hdfs.protocol.LocatedBlock> writeFiles(
      DistributedFileSystem fs, String dir, int n, java.util.function.IntFunction<byte[]> bytes)
      throws Exception {
    java.util.List<org.apache.hadoop.hdfs.protocol.LocatedBlock> blocks =
        new java.util.ArrayList<>();
    for (int i = 0; i < n; i++) {
      String path = dir + "/f" + i;
      try (FSDataOutputStream out = fs.create(new Path(path), (short) 1)) {
        out.write(bytes.apply(i));
      }
      blocks.addAll(fs.getClient().getLocatedBlocks(path, 0).getLocatedBlocks());
    }
    return blocks;
  }

  /**
   * Writes {@code dir/<name>} for each of {@code names}, 3,000 characters of its own text; answers
   * their blocks.
   */
  static java.util.List<org.apache.hadoop.hdfs.protocol.LocatedBlock> writeTexts(
      DistributedFileSystem fs, String dir, java.util.List<String> names) throws Exception {
    java.util.List<org.apache.hadoop.hdfs.protocol.LocatedBlock> blocks =
        new java.util.ArrayList<>();
    for (String f : names) {
      write(fs, dir + "/" + f, text(f, 3000));
      blocks.addAll(SnapshotKeptBlocks.blocksOf(fs, dir + "/" + f));
    }
    return blocks;
  }

  /**
   * Waits until each namenode has run the reclaims of versions its calls queued to run after their
   * answers ({@code VersionReclaimer}); a null namenode is skipped.
   */
  static void awaitReclaims(io.hops.namenode.HopsNameNode... namenodes)
      throws InterruptedException {
    for (io.hops.namenode.HopsNameNode nn : namenodes) {
      if (nn != null) {
        org.assertj.core.api.Assertions.assertThat(
                nn.namesystem().snapshotReclaims().awaitIdle(java.time.Duration.ofMinutes(2)))
            .as("reclaims of versions finished")
            .isTrue();
      }
    }
  }

  /** {@code n} characters of recognisable text: the seed and the offset, again and again. */
  static String text(String seed, int n) {
    StringBuilder b = new StringBuilder();
    while (b.length() < n) {
      b.append(seed).append(b.length()).append(' ');
    }
    return b.substring(0, n);
  }

  /** Writes {@code data} to {@code path}, overwriting it, with replication 1. */
  static void write(DistributedFileSystem fs, String path, String data) throws Exception {
    // Replication 1, as the side by side has one datanode: an append's pipeline needs no other.
    try (FSDataOutputStream out = fs.create(new Path(path), true, 4096, (short) 1, 128L << 20)) {
      out.writeBytes(data);
    }
  }

  /** What {@code path} reads, as text, or the failure, to compare across sides. */
  /** A concat of {@code src} onto {@code target}: "concatenated", or the failure as compared. */
  static String concat(DistributedFileSystem fs, String target, String src) {
    try {
      fs.concat(new Path(target), new Path[] {new Path(src)});
      return "concatenated";
    } catch (IOException | RuntimeException e) {
      return SideBySide.failure(e);
    }
  }

  static String read(DistributedFileSystem fs, String path) {
    try (java.io.InputStream in = fs.open(new Path(path))) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      in.transferTo(out);
      return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    } catch (java.io.IOException e) {
      return io.hops.namenode.SideBySide.failure(e);
    }
  }

  /** Truncates and waits for the file to close (a cut inside a block closes by recovery). */
  static boolean truncate(DistributedFileSystem fs, String path, long length) throws Exception {
    boolean done = fs.truncate(new Path(path), length);
    long deadline = System.currentTimeMillis() + 30_000;
    while (!fs.isFileClosed(new Path(path)) && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
    }
    org.assertj.core.api.Assertions.assertThat(fs.isFileClosed(new Path(path)))
        .as(path + " closed after its truncate")
        .isTrue();
    return done;
  }

  /** A listing in name order, as both systems are compared. */
  static FileStatus[] sorted(FileStatus[] in) {
    FileStatus[] out = Arrays.copyOf(in, in.length);
    Arrays.sort(out, Comparator.comparing(f -> f.getPath().getName()));
    return out;
  }

  /** What the side-by-side tests compare of a status: no inode id, time or block. */
  static String line(FileStatus s, String path) {
    return path
        + (s.isDirectory() ? " d " : " f ")
        + s.getPermission()
        + " "
        + s.getOwner()
        + ":"
        + s.getGroup()
        + (s.isDirectory() ? "" : " len=" + s.getLen() + " rep=" + s.getReplication());
  }

  /** What {@code path} reads as its length and hash, or the failure, to compare across sides. */
  static String digestOf(DistributedFileSystem fs, String path) {
    try (java.io.InputStream in = fs.open(new Path(path))) {
      java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
      in.transferTo(out);
      return digest(out.toString(java.nio.charset.StandardCharsets.UTF_8));
    } catch (java.io.IOException e) {
      return io.hops.namenode.SideBySide.failure(e);
    }
  }

  /** What the side-by-side tests compare of a content summary: its counts and snapshot figures. */
  static String figures(org.apache.hadoop.fs.ContentSummary cs) {
    return "length="
        + cs.getLength()
        + " files="
        + cs.getFileCount()
        + " dirs="
        + cs.getDirectoryCount()
        + " space="
        + cs.getSpaceConsumed()
        + " quota="
        + cs.getQuota()
        + " snapshotLength="
        + cs.getSnapshotLength()
        + " snapshotFiles="
        + cs.getSnapshotFileCount()
        + " snapshotDirs="
        + cs.getSnapshotDirectoryCount()
        + " snapshotSpace="
        + cs.getSnapshotSpaceConsumed();
  }

  /** The length and hash of {@code text}, as {@link #digestOf} answers them. */
  static String digest(String text) {
    return text.getBytes(java.nio.charset.StandardCharsets.UTF_8).length
        + " bytes, hash "
        + text.hashCode();
  }

  /**
   * The diff report between every ordered pair of {@code names} (snapshot names, "" for the current
   * tree) of {@code dir}, one line each, added to {@code out}.
   */
  static void diffsBetween(
      DistributedFileSystem fs, String dir, List<String> names, List<String> out)
      throws IOException {
    for (String from : names) {
      for (String to : names) {
        if (!from.equals(to)) {
          out.add(
              "diff "
                  + dir
                  + " '"
                  + from
                  + "' -> '"
                  + to
                  + "': "
                  + fs.getSnapshotDiffReport(new Path(dir), from, to));
        }
      }
    }
  }
}
