package io.hops.bench.namespace;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.server.namenode.EditLogFileOutputStream;
import org.apache.hadoop.hdfs.server.namenode.NameNode;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;

/**
 * The namespace of {@code bin/hops bench --namespace N} (the same paths as {@link
 * BigNamespace#buildThroughClient}: same parts, names and seed) made in an Apache HDFS NameNode
 * running in this process, through its RPC server's methods called directly (no network, no
 * serialization: as Hadoop's {@code NNThroughputBenchmark} drives a namenode), then saved as an
 * fsimage ({@code saveNamespace}) in {@code nameDir}, for a NameNode process to restart from. The
 * files are empty (a file with bytes needs a block on a datanode). Each create and close is logged
 * in the edit log as a client's would be, without an fsync per batch ({@code
 * EditLogFileOutputStream.setShouldSkipFsyncForTesting}), which changes the speed of the build, not
 * the image.
 *
 * <p>{@code java -cp ... io.hops.bench.namespace.HdfsImageBuilder NAME_DIR FILES [SEED [THREADS]]}
 */
public final class HdfsImageBuilder {
  private HdfsImageBuilder() {}

  /** What was built. */
  public record Result(long files, long dirs, double seconds) {}

  /** The configuration of an HDFS NameNode keeping its metadata in {@code nameDir}. */
  public static Configuration namenodeConf(File nameDir, int rpcPort) {
    Configuration conf = new HdfsConfiguration();
    conf.set(DFSConfigKeys.DFS_NAMENODE_NAME_DIR_KEY, nameDir.toURI().toString());
    conf.set(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY, "127.0.0.1:" + rpcPort);
    conf.set(DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    conf.set(DFSConfigKeys.DFS_NAMENODE_SECONDARY_HTTP_ADDRESS_KEY, "127.0.0.1:0");
    conf.set("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPort);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_EXTENSION_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_NAMENODE_SAFEMODE_MIN_DATANODES_KEY, 0);
    conf.setInt(DFSConfigKeys.DFS_REPLICATION_KEY, 1);
    conf.setBoolean(DFSConfigKeys.DFS_NAMENODE_DATANODE_REGISTRATION_IP_HOSTNAME_CHECK_KEY, false);
    return conf;
  }

  /**
   * Formats {@code nameDir}, makes the namespace of {@code files} files below {@link
   * BigNamespace#BASE} with {@code threads} threads, saves it as an fsimage and stops.
   */
  public static Result build(File nameDir, long files, NamespaceSpec spec, long seed, int threads)
      throws IOException, InterruptedException {
    return inNameNode(
        nameDir,
        (rpc, conf) -> {
          FsPermission dirPerm =
              FsPermission.getDirDefault().applyUMask(FsPermission.getUMask(conf));
          FileMaker maker = new FileMaker(rpc, conf);
          AtomicLong dirs = new AtomicLong();
          long t0 = System.nanoTime();
          rpc.mkdirs(BigNamespace.BASE.toString(), dirPerm, true);
          new BigNamespace(files, spec, seed)
              .makeParts(
                  threads,
                  "in the HDFS NameNode",
                  t ->
                      (part, partFiles) -> {
                        String client = "hdfs-image-builder-" + t;
                        for (Path leaf : part.leafDirs()) {
                          rpc.mkdirs(leaf.toString(), dirPerm, true);
                        }
                        // the part's own directory and its spine, above the tree's root
                        dirs.addAndGet(part.dirs().size() + (part.dirs().get(0).depth() - 2));
                        for (Path f : partFiles) {
                          maker.make(f.toString(), client);
                        }
                      });
          return new Result(files, dirs.get(), (System.nanoTime() - t0) / 1e9);
        });
  }

  /**
   * Formats {@code nameDir} and makes {@link BigDirectory#PATH} with {@code files} empty files
   * named by {@link BigDirectory#name}, {@code threads} threads each taking every {@code
   * threads}-th file, then saves the namespace as an fsimage.
   */
  public static Result buildFlat(File nameDir, long files, int threads)
      throws IOException, InterruptedException {
    return inNameNode(
        nameDir,
        (rpc, conf) -> {
          FileMaker maker = new FileMaker(rpc, conf);
          long t0 = System.nanoTime();
          rpc.mkdirs(
              BigDirectory.PATH.toString(),
              FsPermission.getDirDefault().applyUMask(FsPermission.getUMask(conf)),
              true);
          ExecutorService pool = Executors.newFixedThreadPool(threads);
          try {
            List<Future<Void>> done = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
              int thread = t;
              done.add(
                  pool.submit(
                      () -> {
                        String client = "hdfs-image-builder-" + thread;
                        for (long i = thread; i < files; i += threads) {
                          maker.make(BigDirectory.file(i).toString(), client);
                        }
                        return null;
                      }));
            }
            for (Future<Void> f : done) {
              f.get();
            }
          } catch (ExecutionException e) {
            throw new IOException("making the big directory in HDFS failed", e.getCause());
          } finally {
            pool.shutdownNow();
          }
          return new Result(files, 1, (System.nanoTime() - t0) / 1e9);
        });
  }

  /** What is built in the NameNode. */
  private interface Build {
    Result run(NamenodeProtocols rpc, Configuration conf) throws IOException, InterruptedException;
  }

  /**
   * Formats {@code nameDir}, starts a NameNode over it in this process, runs {@code build} on its
   * RPC server, saves the namespace and stops the NameNode.
   */
  private static Result inNameNode(File nameDir, Build build)
      throws IOException, InterruptedException {
    Configuration conf = namenodeConf(nameDir, 0);
    EditLogFileOutputStream.setShouldSkipFsyncForTesting(true);
    // A JVM may already hold a NameNode's metrics sources (a test's MiniDFSCluster).
    DefaultMetricsSystem.setMiniClusterMode(true);
    NameNode.format(conf);
    NameNode nn = new NameNode(conf);
    try {
      NamenodeProtocols rpc = nn.getRpcServer();
      Result r = build.run(rpc, conf);
      rpc.setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
      rpc.saveNamespace(0, 0);
      rpc.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
      return r;
    } finally {
      nn.stop();
      nn.join();
    }
  }

  /** Creates and closes empty files, as a client's create and close would. */
  private static final class FileMaker {
    private final NamenodeProtocols rpc;
    private final FsPermission perm;
    private final EnumSetWritable<CreateFlag> flags =
        new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
    private final long blockSize;

    FileMaker(NamenodeProtocols rpc, Configuration conf) {
      this.rpc = rpc;
      this.perm = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
      this.blockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 128L << 20);
    }

    void make(String src, String client) throws IOException {
      HdfsFileStatus st =
          rpc.create(src, perm, client, flags, false, (short) 1, blockSize, null, null, null);
      if (!rpc.complete(src, client, null, st.getFileId())) {
        throw new IOException("could not close " + src);
      }
    }
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: HdfsImageBuilder NAME_DIR FILES [SEED [THREADS]]");
      System.exit(2);
    }
    File nameDir = new File(args[0]).getAbsoluteFile();
    long files = Long.parseLong(args[1]);
    long seed = args.length > 2 ? Long.parseLong(args[2]) : 42;
    int threads = args.length > 3 ? Integer.parseInt(args[3]) : 2;
    Result r = build(nameDir, files, NamespaceSpec.SPOTIFY, seed, threads);
    System.out.printf(
        "built %d files and %d directories below %s in %s in %.1f s (%.0f files/s)%n",
        r.files(), r.dirs(), BigNamespace.BASE, nameDir, r.seconds(), r.files() / r.seconds());
  }
}
