package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The exact database accesses of create, read of an empty file, ls, rename and delete of a file at
 * depths 1, 2 and 7, hint cache warm and cold, through the stock client. Every warm count is within
 * the paper's (docs/architecture.md, "Database cost per operation"): read B + PK; ls B + PK(SHARED)
 * + PPIS (the root: IS); create 2B + ≤5PK + PPIS + W; delete 2B + 2PK(X) + W; rename 3B + PK(X) + W
 * (each path's target rides in its ancestors' read-committed batch), here B + B(X) + W: within one
 * directory, the directory's ancestors are read in one batch, and the directory, the source and the
 * destination locked in another. At depth 1 the parent is the root, locked directly, so no
 * read-committed batch is needed; a cold cache adds one read-committed PK per ancestor the batch
 * could not reach.
 */
class OperationCostTest {
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  // An empty, closed file is read like a stat, without a lock (it has no blocks to agree with).
  // create, rename and delete write their retry-cache row with their own rows; a first attempt
  // (retry count 0) does not read it, so they cost what the paper's Table I says, plus the
  // safe-mode row every write reads shared in its first transaction (PK(SHARED)).
  @ParameterizedTest(name = "file depth {0}, cold {1}")
  @CsvSource(
      delimiter = '|',
      value = {
        "1|false|PK + PK(SHARED) + PK(EXCLUSIVE) x3 + W|B"
            + "|PK(SHARED) + IS|PK(SHARED) + B(EXCLUSIVE) + W|PK(SHARED) + PK(EXCLUSIVE) x2 + W",
        "1|true|PK + PK(SHARED) + PK(EXCLUSIVE) x3 + W|B"
            + "|PK(SHARED) + IS|PK(SHARED) + B(EXCLUSIVE) + W|PK(SHARED) + PK(EXCLUSIVE) x2 + W",
        "2|false|PK + PK(SHARED) + PK(EXCLUSIVE) x3 + B + W|B"
            + "|PK(SHARED) + B + PPIS|PK(SHARED) + B + B(EXCLUSIVE) + W|PK(SHARED) + PK(EXCLUSIVE) x2 + B + W",
        "2|true|PK + PK(SHARED) + PK(EXCLUSIVE) x3 + B + W|PK + B"
            + "|PK(SHARED) + B + PPIS|PK(SHARED) + B + B(EXCLUSIVE) + W|PK(SHARED) + PK(EXCLUSIVE) x2 + B + W",
        "7|false|PK + PK(SHARED) + PK(EXCLUSIVE) x3 + B + W|B"
            + "|PK(SHARED) + B + PPIS|PK(SHARED) + B + B(EXCLUSIVE) + W|PK(SHARED) + PK(EXCLUSIVE) x2 + B + W",
        "7|true|PK x5 + PK(SHARED) + PK(EXCLUSIVE) x3 + B + W|PK x6 + B"
            + "|PK x4 + PK(SHARED) + B + PPIS|PK x5 + PK(SHARED) + B + B(EXCLUSIVE) + W|PK x4 + PK(SHARED) + PK(EXCLUSIVE) x2 + B + W",
      })
  void fileOperationsCostWhatTheDesignSays(
      int depth, boolean cold, String create, String read, String ls, String rename, String delete)
      throws Exception {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < depth; i++) {
      b.append("/c").append(depth).append(cold ? "c" : "w").append(i);
    }
    String dir = b.length() == 0 ? "/" : b.toString();
    observed.fs().mkdirs(new Path(dir));
    observed.fs().getFileStatus(new Path(dir)); // warms the hints of every ancestor
    Path file = new Path(dir, "f");

    hints(cold);
    // A new client: its first create reads its lease row read committed (a hint) and, finding
    // none, locks it exclusively to insert it (a create of a lease renewed within the last second
    // locks it shared instead: LeaseChanges.lockToAdd).
    try (DistributedFileSystem writer = observed.cluster().client()) {
      writer.create(file).close();
    }
    assertThat(observed.last("create")).hasToString(create);
    // complete reads the file's tail from its lease path (an empty file has none to read) and no
    // lease row: it deletes the lease path only, which the file's lock protects.
    assertThat(observed.last("complete")).hasToString("PK + PK(SHARED) + PK(EXCLUSIVE) + B + W");

    hints(cold);
    observed.fs().open(file).close();
    assertThat(observed.last("getBlockLocations")).hasToString(read);

    hints(cold);
    observed.fs().listStatus(new Path(dir));
    assertThat(observed.last("getListing")).hasToString(ls);

    hints(cold);
    Path moved = new Path(dir, "g");
    assertThat(observed.fs().rename(file, moved)).isTrue();
    assertThat(observed.last("rename")).hasToString(rename);

    hints(cold);
    assertThat(observed.fs().delete(moved, false)).isTrue();
    assertThat(observed.last("delete")).hasToString(delete);
  }

  private static void hints(boolean cold) {
    if (cold) {
      observed.cluster().namenode().namesystem().runner().hints().clear();
    }
  }
}
