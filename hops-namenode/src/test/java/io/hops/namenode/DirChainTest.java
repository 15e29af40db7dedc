package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.namenode.resolve.InodeHintCache;
import java.io.FileNotFoundException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The directories of a resolved path are found in the hint cache by one lookup of their path (a
 * chain), not one per component; a chain is a hint like any other: a namenode whose chain another
 * namenode made stale (a directory renamed away, another made in its place, then deleted) still
 * answers right, and keeps the chain of what it read instead.
 */
class DirChainTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static final Map<String, AccessCounts> LAST = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    fs = cluster.client();
    cluster.namenode().namesystem().runner().observe(LAST::put);
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  private static InodeHintCache hints() {
    return cluster.namenode().namesystem().runner().hints();
  }

  private static long id(DistributedFileSystem client, String path) throws Exception {
    return ((HdfsFileStatus) client.getFileStatus(new Path(path))).getFileId();
  }

  @Test
  void aReadFindsItsDirectoriesByOneLookupOfTheirPath() throws Exception {
    String dir = "/d1/d2/d3/d4/d5/d6";
    fs.mkdirs(new Path(dir));
    fs.create(new Path(dir, "f")).close();
    fs.open(new Path(dir, "f")).close(); // keeps the chain of its directories

    InodeHintCache.DirChain chain = hints().chain(dir);
    assertThat(chain).isNotNull();
    String[] names = dir.substring(1).split("/");
    long parent = id(fs, "/");
    for (int i = 0; i < names.length; i++) {
      long child = id(fs, "/" + String.join("/", java.util.Arrays.copyOf(names, i + 1)));
      assertThat(chain.ids()[i]).isEqualTo(child);
      // Only the chain is left to find them by: the hints of the components go.
      hints().remove(parent, names[i]);
      parent = child;
    }

    fs.open(new Path(dir, "f")).close();
    // One batch: every key from the chain and the file's hint, as with warm hints (cold: PK x6 +
    // B).
    assertThat(LAST.get("getBlockLocations")).hasToString("B");
  }

  @Test
  void aChainMadeStaleOnAnotherNamenodeIsCheckedAndReplaced() throws Exception {
    // Reads of a file (getBlockLocations) keep the chain of the file's directories.
    String dir = "/e1/e2/e3/e4/e5";
    fs.mkdirs(new Path(dir));
    fs.create(new Path(dir, "f")).close();
    fs.open(new Path(dir, "f")).close();
    long[] before = hints().chain(dir).ids().clone();

    try (HopsNameNode second = cluster.startAnotherNamenode();
        DistributedFileSystem other = cluster.client(second)) {
      // On the other namenode: the chain's second directory moves away, another takes its name.
      assertThat(other.rename(new Path("/e1/e2"), new Path("/e1/old"))).isTrue();
      other.mkdirs(new Path(dir));
      other.create(new Path(dir, "g")).close();

      assertThatThrownBy(() -> fs.open(new Path(dir, "f")))
          .isInstanceOf(FileNotFoundException.class);
      fs.open(new Path(dir, "g")).close();
      fs.open(new Path("/e1/old/e3/e4/e5/f")).close();
      long[] after = hints().chain(dir).ids();
      assertThat(after[0]).isEqualTo(before[0]); // e1 stayed
      assertThat(after[1]).isNotEqualTo(before[1]).isEqualTo(id(fs, "/e1/e2"));
      assertThat(after[4]).isEqualTo(id(fs, dir)).isNotEqualTo(before[4]);

      // Gone altogether: not found, and the chain through it is dropped.
      assertThat(other.delete(new Path("/e1/e2"), true)).isTrue();
      assertThatThrownBy(() -> fs.open(new Path(dir, "g")))
          .isInstanceOf(FileNotFoundException.class);
      assertThat(hints().chain(dir)).isNull();
      assertThat(fs.listStatus(new Path("/e1/old/e3/e4/e5"))).hasSize(1);
    }
  }
}
