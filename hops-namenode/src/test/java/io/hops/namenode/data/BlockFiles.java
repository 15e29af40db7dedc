package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.schema.Table;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.StorageLocation;
import org.apache.hadoop.io.IOUtils;

/**
 * What the data tests of replication and deletion look at: where the namenode says a file's blocks
 * are, which stock DataNodes really hold their block files, and the namenode's tables.
 */
final class BlockFiles {
  /**
   * A namenode that declares a silent datanode dead within seconds (2 × 500 ms recheck + 10 × 1 s
   * heartbeat) and runs its housekeeping every 300 ms, with small blocks allowed.
   */
  static org.apache.hadoop.conf.Configuration fastDeadDatanodes() {
    var conf = new org.apache.hadoop.conf.Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    conf.setLong(io.hops.namenode.config.NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    return conf;
  }

  private BlockFiles() {}

  /**
   * Starts {@code n} stock DataNodes serving the namenode at {@code namenode} (which may restart at
   * that address), their data in {@code dir}/dn0, dn1, ...; heartbeats every second.
   */
  static List<DataNode> startDatanodes(Path dir, java.net.InetSocketAddress namenode, int n)
      throws IOException {
    List<DataNode> dns = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      org.apache.hadoop.conf.Configuration base = new org.apache.hadoop.conf.Configuration(false);
      base.setInt("dfs.heartbeat.interval", 1);
      base.setInt("dfs.blockreport.initialDelay", 0);
      java.io.File data = dir.resolve("dn" + i).toFile();
      dns.add(
          io.hops.datanode.DatanodeLauncher.start(
              io.hops.datanode.DatanodeLauncher.configure(
                  base, List.of(namenode), data, "127.0.0.1")));
    }
    return dns;
  }

  /** A condition polled until it holds or the deadline passes. */
  interface Condition {
    boolean holds() throws IOException;
  }

  /** Polls {@code c} every 100 ms for up to {@code seconds}; fails naming {@code what}. */
  static void waitFor(String what, int seconds, Condition c) throws IOException {
    waitFor(() -> what, seconds, c);
  }

  /** As {@link #waitFor(String, int, Condition)}, the failure described when it happens. */
  static void waitFor(Supplier<String> what, int seconds, Condition c) throws IOException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!c.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + seconds + " s: " + what.get());
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException();
      }
    }
  }

  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  static void write(
      DistributedFileSystem fs, String path, byte[] data, short replication, long blockSize)
      throws IOException {
    try (FSDataOutputStream out =
        fs.create(new org.apache.hadoop.fs.Path(path), true, 4096, replication, blockSize)) {
      out.write(data);
    }
  }

  static byte[] read(DistributedFileSystem fs, String path, int size) throws IOException {
    byte[] back = new byte[size];
    try (FSDataInputStream in = fs.open(new org.apache.hadoop.fs.Path(path))) {
      IOUtils.readFully(in, back, 0, size);
      assertThat(in.read()).isEqualTo(-1);
    }
    return back;
  }

  /** The file's blocks with their locations, as a reader gets them. */
  static List<LocatedBlock> located(DistributedFileSystem fs, String path) throws IOException {
    return fs.getClient().getLocatedBlocks(path, 0, Long.MAX_VALUE).getLocatedBlocks();
  }

  /** The datanode uuids a block is located on. */
  static Set<String> holders(LocatedBlock b) {
    Set<String> out = new HashSet<>();
    for (DatanodeInfo d : b.getLocations()) {
      out.add(d.getDatanodeUuid());
    }
    return out;
  }

  /** Whether every block of the file is located on exactly {@code n} datanodes. */
  static boolean everyBlockOn(DistributedFileSystem fs, String path, int n) throws IOException {
    List<LocatedBlock> blocks = located(fs, path);
    return !blocks.isEmpty() && blocks.stream().allMatch(b -> holders(b).size() == n);
  }

  static DataNode datanode(HopsTestCluster cluster, String uuid) {
    return cluster.datanodes().stream()
        .filter(d -> uuid.equals(d.getDatanodeUuid()))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no datanode " + uuid));
  }

  /** The datanodes (of the cluster, running or not) whose disks hold the block's file. */
  static Set<String> withBlockFile(HopsTestCluster cluster, long blockId) throws IOException {
    Set<String> out = new HashSet<>();
    for (DataNode dn : cluster.datanodes()) {
      if (blockFile(dn, blockId).isPresent()) {
        out.add(dn.getDatanodeUuid());
      }
    }
    return out;
  }

  /** The block's data file on the datanode's disks, if it has one. */
  static Optional<Path> blockFile(DataNode dn, long blockId) throws IOException {
    String name = "blk_" + blockId;
    for (String dir : dn.getConf().getTrimmedStrings(DFSConfigKeys.DFS_DATANODE_DATA_DIR_KEY)) {
      Path root = Paths.get(StorageLocation.parse(dir).getUri());
      for (int attempt = 0; ; attempt++) {
        // The datanode may delete files while we walk: walk again.
        try (Stream<Path> files = Files.walk(root)) {
          Optional<Path> found =
              files.filter(p -> p.getFileName().toString().equals(name)).findFirst();
          if (found.isPresent()) {
            return found;
          }
          break;
        } catch (UncheckedIOException e) {
          if (attempt == 5) {
            throw e.getCause();
          }
        }
      }
    }
    return Optional.empty();
  }

  /** Overwrites bytes in the middle of the datanode's copy of the block, as a bad disk would. */
  static void corrupt(DataNode dn, long blockId) throws IOException {
    Path f = blockFile(dn, blockId).orElseThrow(() -> new AssertionError("no file of " + blockId));
    try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
      long at = raf.length() / 2;
      raf.seek(at);
      int b = raf.read();
      raf.seek(at);
      raf.write(b ^ 0xff);
      raf.write(new byte[64]);
    }
  }

  /** Every row of a table, read committed. */
  static <R extends Record> List<R> rows(HopsTestCluster cluster, Table<R> table)
      throws IOException {
    try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
      return new ArrayList<>(tx.scanAll(table, LockMode.READ_COMMITTED));
    }
  }
}
