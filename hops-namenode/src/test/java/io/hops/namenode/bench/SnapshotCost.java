package io.hops.namenode.bench;

import io.hops.common.HopsConfig;
import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.subtree.BulkTree;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * Issue 60's measurement, not a test: the cost of snapshots of big trees, hops (one namenode, the
 * embedded store on disk, snapshots enabled) against an Apache HDFS NameNode (MiniDFSCluster) in
 * the same JVM. A tree of N empty files in directories of 1,000 is built fast (hops: rows written
 * straight into the store by {@link BulkTree}; HDFS: create and complete called on the NameNode's
 * RPC server in this JVM by 8 threads, no IPC), then, through the stock client: allowSnapshot,
 * createSnapshot s1, 1,000 chmods of files spread over the tree, createSnapshot s2, the diff report
 * s1 to s2, deleteSnapshot s1 and s2. Run: {@code java -cp <test classpath>
 * io.hops.namenode.bench.SnapshotCost [N ...]}.
 */
public final class SnapshotCost {
  static final int PER_DIR = 1000;
  static final int CHANGES = 1000;
  private static final int THREADS = 8;

  /** Seconds of each step, in order; what the snapshots showed, for the runner's assertions. */
  record Result(
      Map<String, Double> seconds, int snapshotRootEntries, short oldMode, int modifiedFiles) {}

  private SnapshotCost() {}

  public static void main(String[] args) throws Exception {
    List<Integer> sizes = new ArrayList<>();
    for (String a : args) {
      sizes.add(Integer.parseInt(a));
    }
    if (sizes.isEmpty()) {
      sizes = List.of(10_000);
    }
    run(sizes, true);
  }

  /** Runs every size on both systems; the results by size, hops then HDFS. */
  static Map<Integer, Result[]> run(List<Integer> sizes, boolean print) throws Exception {
    Map<Integer, Result[]> out = new LinkedHashMap<>();
    java.nio.file.Path store = Files.createTempDirectory("snapshot-cost");
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, store.toString());
    conf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, true);
    MiniDFSCluster hdfs = ApacheHdfs.start("snapshot-cost");
    try (HopsTestCluster hops = new HopsTestCluster(conf)) {
      Configuration hdfsConf = ApacheHdfs.clientConf(hdfs, 1);
      for (int n : sizes) {
        Result h;
        Result d;
        try (DistributedFileSystem fs = hops.client()) {
          Path top = new Path("/snap" + n);
          long t0 = System.nanoTime();
          BulkTree.build(hops.namenode().namesystem().storage(), fs, top, n / PER_DIR, PER_DIR);
          h = measure(fs, top, n, seconds(t0));
        }
        try (DistributedFileSystem fs =
            (DistributedFileSystem) FileSystem.newInstance(hdfs.getURI(), hdfsConf)) {
          Path top = new Path("/snap" + n);
          long t0 = System.nanoTime();
          buildHdfs(hdfs.getNameNodeRpc(), fs, top, n);
          d = measure(fs, top, n, seconds(t0));
        }
        out.put(n, new Result[] {h, d});
        if (print) {
          print(n, h, d);
        }
      }
    } finally {
      hdfs.shutdown();
      try (var paths = Files.walk(store)) {
        paths.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
      }
    }
    return out;
  }

  private static void print(int n, Result h, Result d) {
    System.out.printf("%-9s %-26s %12s %12s %8s%n", "files", "step", "hops ms", "hdfs ms", "ratio");
    for (String step : h.seconds().keySet()) {
      double a = h.seconds().get(step) * 1000;
      double b = d.seconds().get(step) * 1000;
      System.out.printf("%-9d %-26s %12.1f %12.1f %8.2f%n", n, step, a, b, a / b);
    }
  }

  /** The tree through the NameNode's RPC server in this JVM: its own code paths, no IPC. */
  private static void buildHdfs(NamenodeProtocols nn, DistributedFileSystem fs, Path top, int n)
      throws Exception {
    for (int d = 0; d < n / PER_DIR; d++) {
      fs.mkdirs(new Path(top, "d" + d));
    }
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < THREADS; t++) {
        int me = t;
        done.add(
            pool.submit(
                () -> {
                  String client = "snapshot-cost-" + me;
                  for (int i = me; i < n; i += THREADS) {
                    String f = top + "/d" + (i / PER_DIR) + "/f" + (i % PER_DIR);
                    long id =
                        nn.create(
                                f,
                                new FsPermission((short) 0644),
                                client,
                                new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
                                false,
                                (short) 1,
                                128L * 1024 * 1024,
                                CryptoProtocolVersion.supported(),
                                null,
                                null)
                            .getFileId();
                    nn.complete(f, client, null, id);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  private static Result measure(DistributedFileSystem fs, Path top, int n, double build)
      throws IOException {
    Map<String, Double> s = new LinkedHashMap<>();
    s.put("build the tree", build);
    long t = System.nanoTime();
    fs.allowSnapshot(top);
    s.put("allowSnapshot", seconds(t));
    t = System.nanoTime();
    fs.createSnapshot(top, "s1");
    s.put("createSnapshot s1", seconds(t));
    List<Path> changed = new ArrayList<>();
    for (int c = 0; c < CHANGES; c++) {
      int i = (int) ((long) c * n / CHANGES);
      changed.add(new Path(top, "d" + (i / PER_DIR) + "/f" + (i % PER_DIR)));
    }
    t = System.nanoTime();
    for (Path p : changed) {
      fs.setPermission(p, new FsPermission((short) 0600));
    }
    s.put(CHANGES + " chmods (each)", seconds(t) / CHANGES);
    t = System.nanoTime();
    fs.createSnapshot(top, "s2");
    s.put("createSnapshot s2", seconds(t));
    t = System.nanoTime();
    SnapshotDiffReport diff = fs.getSnapshotDiffReport(top, "s1", "s2");
    s.put("diff report s1 to s2", seconds(t));
    int modifiedFiles = 0;
    for (SnapshotDiffReport.DiffReportEntry e : diff.getDiffList()) {
      String path = new String(e.getSourcePath(), java.nio.charset.StandardCharsets.UTF_8);
      if (e.getType() == SnapshotDiffReport.DiffType.MODIFY && path.contains("/f")) {
        modifiedFiles++;
      }
    }
    int entries = fs.listStatus(new Path(top, ".snapshot/s1")).length;
    short oldMode =
        fs.getFileStatus(snapshotPath(top, "s1", changed.get(0))).getPermission().toShort();
    t = System.nanoTime();
    fs.deleteSnapshot(top, "s1");
    s.put("deleteSnapshot s1", seconds(t));
    t = System.nanoTime();
    fs.deleteSnapshot(top, "s2");
    s.put("deleteSnapshot s2", seconds(t));
    return new Result(s, entries, oldMode, modifiedFiles);
  }

  private static Path snapshotPath(Path top, String snapshot, Path file) {
    String rest = file.toUri().getPath().substring(top.toUri().getPath().length());
    return new Path(top + "/.snapshot/" + snapshot + rest);
  }

  private static double seconds(long since) {
    return (System.nanoTime() - since) / 1e9;
  }
}
