package io.hops.bench.namespace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.Storage;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.cli.FsckNamespaceCommand;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;

/**
 * The bulk loader's namespace is one the namenode serves as its own: the namespace check finds it
 * consistent, the stock client lists, counts and reads it, and new creates get fresh ids.
 */
class NamespaceLoaderTest {
  private static final int FILES = 200_000;

  @Test
  void twoHundredThousandFilesAreAValidNamespaceTheStockClientReads() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      Storage storage = cluster.namenode().namesystem().storage();
      fs.mkdirs(new Path("/bench"));
      NamespaceSpec small = NamespaceSpec.SPOTIFY.withFileSize(100);
      NamespaceLoader.Result r =
          new NamespaceLoader(storage, small, new Configuration(false))
              .load(new Path("/bench/ns"), FILES, 7, 200);
      assertThat(r.files()).isEqualTo(FILES);
      System.out.printf(
          "namespace loader: %d files, %d dirs in %d ms (%.0f files/s)%n",
          r.files(), r.dirs(), r.nanos() / 1_000_000, r.filesPerSecond());
      // Pieces of 8 KB in the large tier.
      NamespaceSpec large = NamespaceSpec.SPOTIFY.withFileSize(20_000);
      NamespaceLoader.Result big =
          new NamespaceLoader(storage, large, new Configuration(false))
              .load(new Path("/big"), 600, 8, 20);

      assertThat(fsck(storage)).contains("HEALTHY");

      ContentSummary summary = fs.getContentSummary(new Path("/bench/ns"));
      assertThat(summary.getFileCount()).isEqualTo(FILES);
      assertThat(summary.getDirectoryCount()).isEqualTo(r.dirs());
      assertThat(summary.getLength()).isEqualTo(FILES * 100L);
      long parts = (FILES + 495) / 496;
      assertThat(fs.listStatus(new Path("/bench/ns"))).hasSize((int) parts);
      assertThat(r.sample()).hasSizeGreaterThanOrEqualTo(200);
      for (Path p : r.sample()) {
        assertThat(read(fs, p)).isEqualTo(NamespaceLoader.contentOf(p, 100));
      }
      for (Path p : big.sample()) {
        assertThat(read(fs, p)).isEqualTo(NamespaceLoader.contentOf(p, 20_000));
      }
      double depth = r.sample().stream().mapToInt(Path::depth).average().orElseThrow();
      assertThat(depth).isBetween(6.5, 7.5);

      // The namenode's ids never meet the loaded ones: its cached range lies below them, the
      // ranges after it above them. 1,100 creates use up the namenode's range of 1,000.
      java.util.Set<Long> fresh = new java.util.HashSet<>();
      fs.mkdirs(new Path("/fresh"));
      for (int i = 0; i < 1_100; i++) {
        Path p = new Path("/fresh/f" + i);
        fs.create(p).close();
        long id = fileId(fs, p);
        assertThat(id < r.firstId() || id > r.lastId()).as("id %d", id).isTrue();
        assertThat(id < big.firstId() || id > big.lastId()).as("id %d", id).isTrue();
        fresh.add(id);
      }
      assertThat(fresh).hasSize(1_100);
      assertThat(fresh.stream().mapToLong(Long::longValue).max().orElseThrow())
          .isGreaterThan(big.lastId());
      for (Path p : r.sample().subList(0, 50)) {
        fs.create(new Path(p.getParent(), "new-" + p.getName())).close();
        assertThatThrownBy(() -> fs.create(p, false).close())
            .isInstanceOf(FileAlreadyExistsException.class);
      }
      assertThat(fs.delete(r.sample().get(1), false)).isTrue();
      assertThat(fs.delete(r.sample().get(2).getParent(), true)).isTrue();
      assertThat(fsck(storage)).contains("HEALTHY");
    }
  }

  @Test
  void filesOverTheSmallFileMaximumAreRefused() {
    Configuration conf = new Configuration(false);
    assertThatThrownBy(
            () -> new NamespaceLoader(null, NamespaceSpec.SPOTIFY.withFileSize(65_537), conf))
        .isInstanceOf(UnsupportedOperationException.class)
        .hasMessageContaining("blocks with replicas on datanodes");
  }

  /** fsck-namespace of the store, asserted to exit 0; its report. */
  static String fsck(Storage storage) throws Exception {
    ByteArrayOutputStream bytes = new ByteArrayOutputStream();
    int code =
        FsckNamespaceCommand.run(
            storage,
            10_000,
            false,
            id -> true,
            new PrintStream(bytes, true, StandardCharsets.UTF_8));
    String out = bytes.toString(StandardCharsets.UTF_8);
    assertThat(code).as(out).isZero();
    return out;
  }

  private static byte[] read(DistributedFileSystem fs, Path p) throws Exception {
    try (FSDataInputStream in = fs.open(p)) {
      return in.readAllBytes();
    }
  }

  private static long fileId(DistributedFileSystem fs, Path p) throws Exception {
    return ((HdfsFileStatus) fs.getClient().getFileInfo(p.toUri().getPath())).getFileId();
  }
}
