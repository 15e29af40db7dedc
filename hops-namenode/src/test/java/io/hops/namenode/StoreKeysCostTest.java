package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The keys the embedded engine's commits put and delete, and the keys its point lookups read from
 * the store, per mutation through the stock client: what RocksDB's write path costs an operation.
 */
class StoreKeysCostTest {
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  /**
   * Before the cuts, at every depth: mkdirs put 4, deleted 0, read 2 (the new name under its lock,
   * then the new id's unique entry); create 10, 0, 5 (also the lease path row, read for a
   * duplicate); rename 6, 3, 3 (the id's entry deleted and put again, and read); delete 3, 3, 1.
   * Now only a child of the root has a {@code parent_id} entry ({@code p} below).
   */
  @ParameterizedTest(name = "depth {0}")
  @ValueSource(ints = {1, 2, 3})
  void mutationsWriteAndReadOnlyTheKeysTheyNeed(int depth) throws Exception {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < depth; i++) {
      b.append("/k").append(depth).append('-').append(i);
    }
    String dir = b.length() == 0 ? "/" : b.toString();
    observed.fs().mkdirs(new Path(dir));
    observed.fs().getFileStatus(new Path(dir));
    int p = depth == 1 ? 1 : 0;

    // Every write reads the safe-mode row under a shared lock in its first transaction, from the
    // row cache (a variables row without bytes): no read of the store below is it.
    // The inode, its id entry, the parent; read: the new name, under its lock.
    observed.fs().mkdirs(new Path(dir, "d" + depth));
    assertThat(observed.last("mkdirs").keys()).isEqualTo(keys(3 + p, 0, 1));

    // A new client: as mkdirs, plus the lease row and its last_update entry, the lease path row
    // (no holder index: stop 54), the retry-cache row (no index: stop 53); read: the new name and
    // the client's lease row (whose key was held before, by other clients). Not the retry-cache
    // row: a call id above the greatest its client has in the store is absent without a read (the
    // client's mark, learnt once by a seek of its partition).
    Path file = new Path(dir, "f" + depth);
    try (DistributedFileSystem writer = observed.cluster().client()) {
      writer.create(file).close();
    }
    assertThat(observed.last("create").keys()).isEqualTo(keys(7 + p, 0, 2));
    // The inode; the lease path row.
    assertThat(observed.last("complete").keys()).isEqualTo("put 1, deleted 1, read 0");

    // The moved row goes; the new row, its id entry (rewritten in place), the parent and the
    // retry-cache row are put; read: nothing below the root. The create was the second
    // write to miss a name of the directory, so it read the directory's rows (as many as the one
    // name it looked up, here) and the store keeps them: the new name is known to be free. A child
    // of the root is alone in its partition (top-level directories are spread), so there the
    // destination's name is looked up.
    Path moved = new Path(dir, "g" + depth);
    assertThat(observed.fs().rename(file, moved)).isTrue();
    assertThat(observed.last("rename").keys()).isEqualTo(keys(4 + p, 1 + p, p));

    // The row and its id entry go; the parent and the retry-cache row are put; nothing is read
    // from the store (the path and the safe-mode row from the row cache, the retry-cache row by
    // its mark).
    assertThat(observed.fs().delete(moved, false)).isTrue();
    assertThat(observed.last("delete").keys()).isEqualTo(keys(2, 2 + p, 0));
  }

  /**
   * A directory's key is built and encoded once: the hints keep it, and the embedded store keeps
   * its encoding on it, so resolutions through the directory build and encode neither again.
   */
  @org.junit.jupiter.api.Test
  void resolutionsReuseTheKeysOfTheDirectoriesTheyPass() throws Exception {
    observed.fs().mkdirs(new Path("/kept/inner"));
    observed.fs().create(new Path("/kept/inner/f")).close();
    observed.fs().getFileStatus(new Path("/kept/inner/f"));
    observed.fs().getFileStatus(new Path("/kept/inner/f"));
    var hints = observed.cluster().namenode().namesystem().runner().hints();
    var kept = hints.hint(io.hops.namenode.resolve.Inodes.ROOT_ID, "kept");
    var inner = hints.hint(kept.id(), "inner");
    assertThat(kept.key()).isNotNull();
    assertThat(kept.key().encoded()).as("the store's encoding, kept on the key").isNotNull();
    assertThat(inner.key()).isNotNull();
    assertThat(inner.key().encoded()).isNotNull();
    assertThat(hints.hint(inner.id(), "f").key()).as("a file's hint keeps no key").isNull();
  }

  private static String keys(int put, int deleted, int read) {
    return "put " + put + ", deleted " + deleted + ", read " + read;
  }
}
