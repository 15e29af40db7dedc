package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.resolve.InodeHintCache;
import java.io.FileNotFoundException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The directories of a resolved path are found in the hint cache by one lookup of their path (a
 * chain), not one per component; a chain is a hint like any other: a namenode whose chain another
 * namenode made stale (a directory renamed away, another made in its place, then deleted) still
 * answers right, and keeps the chain of what it read instead.
 */
class DirChainTest {
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  private static InodeHintCache hints() {
    return observed.cluster().namenode().namesystem().runner().hints();
  }

  private static long id(DistributedFileSystem client, String path) throws Exception {
    return ((HdfsFileStatus) client.getFileStatus(new Path(path))).getFileId();
  }

  @Test
  void aReadFindsItsDirectoriesByOneLookupOfTheirPath() throws Exception {
    String dir = "/d1/d2/d3/d4/d5/d6";
    observed.fs().mkdirs(new Path(dir));
    observed.fs().create(new Path(dir, "f")).close();
    observed.fs().open(new Path(dir, "f")).close(); // keeps the chain of its directories

    InodeHintCache.DirChain chain = hints().chain(dir);
    assertThat(chain).isNotNull();
    String[] names = dir.substring(1).split("/");
    long parent = id(observed.fs(), "/");
    for (int i = 0; i < names.length; i++) {
      long child = id(observed.fs(), "/" + String.join("/", java.util.Arrays.copyOf(names, i + 1)));
      assertThat(chain.ids()[i]).isEqualTo(child);
      // Only the chain is left to find them by: the hints of the components go.
      hints().remove(parent, names[i]);
      parent = child;
    }

    observed.fs().open(new Path(dir, "f")).close();
    // One batch: every key from the chain and the file's hint, as with warm hints (cold: PK x6 +
    // B).
    assertThat(observed.last("getBlockLocations")).hasToString("B");
  }

  @Test
  void aChainMadeStaleOnAnotherNamenodeIsCheckedAndReplaced() throws Exception {
    // Reads of a file (getBlockLocations) keep the chain of the file's directories.
    String dir = "/e1/e2/e3/e4/e5";
    observed.fs().mkdirs(new Path(dir));
    observed.fs().create(new Path(dir, "f")).close();
    observed.fs().open(new Path(dir, "f")).close();
    long[] before = hints().chain(dir).ids().clone();

    try (HopsNameNode second = observed.cluster().startAnotherNamenode();
        DistributedFileSystem other = observed.cluster().client(second)) {
      // On the other namenode: the chain's second directory moves away, another takes its name.
      assertThat(other.rename(new Path("/e1/e2"), new Path("/e1/old"))).isTrue();
      other.mkdirs(new Path(dir));
      other.create(new Path(dir, "g")).close();

      assertThatThrownBy(() -> observed.fs().open(new Path(dir, "f")))
          .isInstanceOf(FileNotFoundException.class);
      observed.fs().open(new Path(dir, "g")).close();
      observed.fs().open(new Path("/e1/old/e3/e4/e5/f")).close();
      long[] after = hints().chain(dir).ids();
      assertThat(after[0]).isEqualTo(before[0]); // e1 stayed
      assertThat(after[1]).isNotEqualTo(before[1]).isEqualTo(id(observed.fs(), "/e1/e2"));
      assertThat(after[4]).isEqualTo(id(observed.fs(), dir)).isNotEqualTo(before[4]);

      // Gone altogether: not found, and the chain through it is dropped.
      assertThat(other.delete(new Path("/e1/e2"), true)).isTrue();
      assertThatThrownBy(() -> observed.fs().open(new Path(dir, "g")))
          .isInstanceOf(FileNotFoundException.class);
      assertThat(hints().chain(dir)).isNull();
      assertThat(observed.fs().listStatus(new Path("/e1/old/e3/e4/e5"))).hasSize(1);
    }
  }
}
