package io.hops.bench.namespace;

import io.hops.dal.Storage;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.cli.FsckNamespaceCommand;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code hops bench --namespace N}: a namespace of {@code files} files below {@link #BASE}, built
 * before the run, on which the workload then runs (its own trees stay below {@code /hammer}). hops
 * gets it through the DAL ({@link NamespaceLoader}), checked by {@code fsck-namespace} and a sample
 * read back through the stock client; Apache HDFS gets the same paths and sizes through the client,
 * having no other way in.
 *
 * @param files files to make
 * @param spec the shape and the file size
 * @param seed names follow from it
 */
public record BigNamespace(long files, NamespaceSpec spec, long seed) {
  private static final Logger LOG = LoggerFactory.getLogger(BigNamespace.class);

  /** Where the namespace lives. */
  public static final Path BASE = new Path("/hammer-ns");

  private static final int SAMPLE = 200;
  private static final int CLIENT_THREADS = 8;

  /**
   * Builds the namespace into the hops store a namenode with {@code namenodeConf} would open,
   * through a namenode started in this process for the time of the build (it makes the root and
   * serves the check's reads); the store must then be free for the namenode the benchmark starts.
   * Returns what a report says of it.
   */
  public Map<String, String> buildHops(Map<String, String> namenodeConf) throws IOException {
    Configuration conf = new Configuration(false);
    namenodeConf.forEach(conf::set);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, 0);
    Map<String, String> facts = new LinkedHashMap<>();
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      Storage storage = nn.namesystem().storage();
      NamespaceLoader.Result r =
          new NamespaceLoader(storage, spec, conf).load(BASE, files, seed, SAMPLE);
      facts.put(
          "namespace",
          String.format(
              "%d files (%d bytes each, in the database) and %d directories below %s, written"
                  + " through the DAL in %.1f s (%.0f files/s)",
              r.files(), spec.fileSize(), r.dirs(), BASE, r.nanos() / 1e9, r.filesPerSecond()));
      long t0 = System.nanoTime();
      ByteArrayOutputStream out = new ByteArrayOutputStream();
      int rc =
          FsckNamespaceCommand.run(
              storage,
              10_000,
              false,
              id -> true,
              new PrintStream(out, true, StandardCharsets.UTF_8));
      if (rc != 0) {
        throw new IOException("bench --namespace: fsck-namespace found problems:\n" + out);
      }
      long t1 = System.nanoTime();
      Configuration client = new Configuration();
      client.setBoolean("fs.hdfs.impl.disable.cache", true);
      try (FileSystem fs = FileSystem.newInstance(URI.create(nn.uri()), client)) {
        for (Path p : r.sample()) {
          byte[] read;
          try (InputStream in = fs.open(p)) {
            read = in.readAllBytes();
          }
          if (!Arrays.equals(read, NamespaceLoader.contentOf(p, spec.fileSize()))) {
            throw new IOException(
                "bench --namespace: " + p + " does not read back what was written");
          }
        }
      }
      facts.put(
          "namespace check",
          String.format(
              "fsck-namespace HEALTHY (%.1f s); %d sampled files read back by the stock client",
              (t1 - t0) / 1e9, r.sample().size()));
    }
    String dir = conf.get(io.hops.common.HopsConfig.EMBEDDED_DIR);
    if (dir != null && !dir.startsWith("mem:")) {
      long bytes = diskBytes(java.nio.file.Path.of(dir));
      facts.put(
          "namespace on disk",
          String.format(
              "%d MB in %s, %.0f bytes per file (after the build, before compactions settle)",
              bytes >> 20, dir, (double) bytes / files));
    }
    return facts;
  }

  private static long diskBytes(java.nio.file.Path dir) throws IOException {
    try (java.util.stream.Stream<java.nio.file.Path> all = java.nio.file.Files.walk(dir)) {
      return all.filter(java.nio.file.Files::isRegularFile)
          .mapToLong(
              f -> {
                try {
                  return java.nio.file.Files.size(f);
                } catch (IOException e) {
                  return 0; // a file RocksDB removed meanwhile
                }
              })
          .sum();
    }
  }

  /**
   * Makes the same paths, of the same sizes, on the file system at {@code uri} through the client
   * (8 threads), for Apache HDFS. Returns what a report says of it.
   */
  public Map<String, String> buildThroughClient(String uri, Map<String, String> clientConf)
      throws IOException, InterruptedException {
    Configuration conf = new Configuration();
    clientConf.forEach(conf::set);
    conf.setBoolean("fs.hdfs.impl.disable.cache", true);
    long t0 = System.nanoTime();
    makeParts(
        CLIENT_THREADS,
        "through the client",
        t -> {
          FileSystem fs = FileSystem.newInstance(URI.create(uri), conf);
          return new PartMaker() {
            @Override
            public void make(ThreadNamespace part, List<Path> partFiles) throws IOException {
              for (Path leaf : part.leafDirs()) {
                fs.mkdirs(leaf);
              }
              for (Path f : partFiles) {
                try (OutputStream out = fs.create(f, false)) {
                  out.write(NamespaceLoader.contentOf(f, spec.fileSize()));
                }
              }
            }

            @Override
            public void close() throws IOException {
              fs.close();
            }
          };
        });
    double s = (System.nanoTime() - t0) / 1e9;
    return Map.of(
        "namespace",
        String.format(
            "%d files (%d bytes each) below %s, made through the client by %d threads in %.1f s"
                + " (%.0f files/s)",
            files, spec.fileSize(), BASE, CLIENT_THREADS, s, files / s));
  }

  /** What one thread does with each part it takes. */
  interface PartMaker extends AutoCloseable {
    /**
     * Makes {@code part}'s directories and {@code files}, its first files (all but in the last).
     */
    void make(ThreadNamespace part, List<Path> files) throws IOException;

    @Override
    default void close() throws IOException {}
  }

  /** Opens thread {@code t}'s {@link PartMaker}. */
  interface PartMakers {
    PartMaker open(int t) throws IOException;
  }

  /**
   * The parts of the namespace ({@code dirsPerThread} directories and their files each, names from
   * {@code seed + part}), the last cut to make {@code files} in all, made by {@code threads}
   * threads, each taking the next part not yet taken: the one loop that fixes the namespace's
   * paths, for every way of making them.
   */
  void makeParts(int threads, String how, PartMakers makers)
      throws IOException, InterruptedException {
    NamespaceGenerator generator = new NamespaceGenerator(spec, BASE);
    long perPart = (long) spec.dirsPerThread() * spec.filesPerDir();
    long parts = (files + perPart - 1) / perPart;
    AtomicLong next = new AtomicLong();
    ExecutorService pool = Executors.newFixedThreadPool(threads);
    try {
      List<Future<Void>> done = new ArrayList<>();
      for (int t = 0; t < threads; t++) {
        int thread = t;
        done.add(
            pool.submit(
                () -> {
                  try (PartMaker maker = makers.open(thread)) {
                    for (long p = next.getAndIncrement(); p < parts; p = next.getAndIncrement()) {
                      ThreadNamespace part = generator.forThread("p" + p, seed + p);
                      int n = (int) Math.min(perPart, files - p * perPart);
                      maker.make(part, part.files().subList(0, n));
                      if (p % 200 == 199) {
                        LOG.info("bench --namespace: {} of {} parts {}", p + 1, parts, how);
                      }
                    }
                  }
                  return null;
                }));
      }
      for (Future<Void> f : done) {
        f.get();
      }
    } catch (ExecutionException e) {
      throw new IOException("bench --namespace: building " + how + " failed", e.getCause());
    } finally {
      pool.shutdownNow();
    }
  }
}
