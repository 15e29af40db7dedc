package io.hops.bench.namespace;

import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;

/**
 * The directory of {@code bin/hops bench --workload big-dir}: {@code files} empty files in {@link
 * #PATH}, named {@link #name(long) by their number} so that every client thread knows them without
 * listing, made before the run on each system the fast way it allows: hops through the DAL ({@link
 * NamespaceLoader#loadFlat}), Apache HDFS through its NameNode's RPC server in this process ({@link
 * HdfsImageBuilder#buildFlat}), saved as the fsimage its NameNode process then starts from.
 *
 * @param files files to make
 */
public record BigDirectory(long files) {
  /** Where the directory is. */
  public static final Path PATH = new Path("/hammer-bigdir");

  private static final int HDFS_THREADS = 4;

  public BigDirectory {
    if (files < 1) {
      throw new IllegalArgumentException("a big directory needs at least one file, not " + files);
    }
  }

  /** The name of file {@code i}; names sort in the order of {@code i}. */
  public static String name(long i) {
    return String.format("b%09d-big-directory-entry-", i);
  }

  /** File {@code i}'s path. */
  public static Path file(long i) {
    return new Path(PATH, name(i));
  }

  /**
   * Writes the directory into the hops store a namenode with {@code namenodeConf} would open,
   * through a namenode started in this process for the time (it makes the root); the store must
   * then be free for the namenode the benchmark starts. Returns what a report says of it.
   */
  public Map<String, String> buildHops(Map<String, String> namenodeConf) throws IOException {
    Configuration conf = new Configuration(false);
    namenodeConf.forEach(conf::set);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setInt(NamenodeConfig.HTTP_PORT, 0);
    NamespaceLoader.Result r;
    try (HopsNameNode nn = HopsNameNode.start(conf)) {
      r =
          new NamespaceLoader(nn.namesystem().storage(), NamespaceSpec.SPOTIFY, conf)
              .loadFlat(PATH, files, BigDirectory::name);
    }
    return Map.of(
        "big directory",
        String.format(
            "%d files in %s, written through the DAL in %.1f s (%.0f files/s)",
            r.files(), PATH, r.nanos() / 1e9, r.filesPerSecond()));
  }

  /**
   * Formats {@code nameDir} and makes the directory in an HDFS NameNode in this process, saved as
   * its fsimage there. Returns what a report says of it.
   */
  public Map<String, String> buildHdfs(File nameDir) throws IOException, InterruptedException {
    HdfsImageBuilder.Result r = HdfsImageBuilder.buildFlat(nameDir, files, HDFS_THREADS);
    Map<String, String> facts = new LinkedHashMap<>();
    facts.put(
        "big directory",
        String.format(
            "%d files in %s, made by the NameNode's RPC server in process (%d threads) in %.1f s"
                + " (%.0f files/s), saved as an fsimage",
            r.files(), PATH, HDFS_THREADS, r.seconds(), r.files() / r.seconds()));
    return facts;
  }
}
