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
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

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
  private static final Logger LOG = LoggerFactory.getLogger(HdfsImageBuilder.class);

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
    return conf;
  }

  /**
   * Formats {@code nameDir}, makes the namespace of {@code files} files below {@link
   * BigNamespace#BASE} with {@code threads} threads, saves it as an fsimage and stops.
   */
  public static Result build(File nameDir, long files, NamespaceSpec spec, long seed, int threads)
      throws IOException, InterruptedException {
    Configuration conf = namenodeConf(nameDir, 0);
    EditLogFileOutputStream.setShouldSkipFsyncForTesting(true);
    // A JVM may already hold a NameNode's metrics sources (a test's MiniDFSCluster).
    DefaultMetricsSystem.setMiniClusterMode(true);
    NameNode.format(conf);
    NameNode nn = new NameNode(conf);
    try {
      NamenodeProtocols rpc = nn.getRpcServer();
      NamespaceGenerator generator = new NamespaceGenerator(spec, BigNamespace.BASE);
      long perPart = (long) spec.dirsPerThread() * spec.filesPerDir();
      long parts = (files + perPart - 1) / perPart;
      AtomicLong next = new AtomicLong();
      AtomicLong dirs = new AtomicLong();
      FsPermission dirPerm = FsPermission.getDirDefault().applyUMask(FsPermission.getUMask(conf));
      FsPermission filePerm = FsPermission.getFileDefault().applyUMask(FsPermission.getUMask(conf));
      EnumSetWritable<CreateFlag> flags = new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
      long blockSize = conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, 128L << 20);
      long t0 = System.nanoTime();
      rpc.mkdirs(BigNamespace.BASE.toString(), dirPerm, true);
      ExecutorService pool = Executors.newFixedThreadPool(threads);
      try {
        List<Future<Void>> done = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
          String client = "hdfs-image-builder-" + t;
          done.add(
              pool.submit(
                  () -> {
                    for (long p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                      ThreadNamespace part = generator.forThread("p" + p, seed + p);
                      for (Path leaf : part.leafDirs()) {
                        rpc.mkdirs(leaf.toString(), dirPerm, true);
                      }
                      dirs.addAndGet(part.dirs().size() + (part.dirs().get(0).depth() - 2));
                      int n = (int) Math.min(perPart, files - p * perPart);
                      for (Path f : part.files().subList(0, n)) {
                        String src = f.toString();
                        HdfsFileStatus st =
                            rpc.create(
                                src, filePerm, client, flags, false, (short) 1, blockSize, null,
                                null, null);
                        if (!rpc.complete(src, client, null, st.getFileId())) {
                          throw new IOException("could not close " + src);
                        }
                      }
                      if (p % 1000 == 999) {
                        LOG.info(
                            "hdfs image: {} of {} parts, {} s",
                            p + 1,
                            parts,
                            (System.nanoTime() - t0) / 1_000_000_000);
                      }
                    }
                    return null;
                  }));
        }
        for (Future<Void> f : done) {
          f.get();
        }
      } catch (ExecutionException e) {
        throw new IOException("hdfs image: building failed", e.getCause());
      } finally {
        pool.shutdownNow();
      }
      double seconds = (System.nanoTime() - t0) / 1e9;
      rpc.setSafeMode(SafeModeAction.SAFEMODE_ENTER, false);
      rpc.saveNamespace(0, 0);
      rpc.setSafeMode(SafeModeAction.SAFEMODE_LEAVE, false);
      return new Result(files, dirs.get(), seconds);
    } finally {
      nn.stop();
      nn.join();
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
