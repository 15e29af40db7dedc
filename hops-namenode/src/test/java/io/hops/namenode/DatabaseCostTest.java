package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The database accesses of each operation, through the stock client, match docs/architecture.md,
 * "Database cost per operation" (the paper's Table I) exactly, with the hint cache warm and cold,
 * at depths 1, 2 and 7.
 */
class DatabaseCostTest {
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  private static String path(String prefix, int depth) {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i <= depth; i++) {
      b.append('/').append(prefix).append(i);
    }
    return b.toString();
  }

  private static void coldHints() {
    observed.cluster().namenode().namesystem().runner().hints().clear();
  }

  @ParameterizedTest(name = "depth {0}")
  @ValueSource(ints = {1, 2, 7})
  void statIsOneBatchAndOneSharedRead(int depth) throws Exception {
    String p = path("stat" + depth + "-", depth);
    observed.fs().mkdirs(new Path(p));
    observed.fs().getFileStatus(new Path(p));
    AccessCounts warm = observed.last("getFileInfo");
    assertThat(warm.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(warm.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(warm.total()).as(warm.toString()).isEqualTo(2);

    coldHints();
    observed.fs().getFileStatus(new Path(p));
    AccessCounts cold = observed.last("getFileInfo");
    // Without hints: the batch reaches the root and the first component; the rest one by one.
    assertThat(cold.get(AccessKind.BATCH)).isEqualTo(1);
    assertThat(cold.get(AccessKind.PK, LockMode.READ_COMMITTED)).isEqualTo(Math.max(0, depth - 2));
    assertThat(cold.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
  }

  @ParameterizedTest(name = "depth {0}")
  @ValueSource(ints = {1, 2, 7})
  void mkdirsLocksParentAndNameAndWritesOneBatch(int depth) throws Exception {
    String parent = path("mk" + depth + "-", depth - 1);
    if (depth > 1) {
      observed.fs().mkdirs(new Path(parent));
      observed.fs().getFileStatus(new Path(parent)); // warms the hints of every ancestor
    }
    observed.fs().mkdirs(new Path(parent + "/new"));
    AccessCounts warm = observed.last("mkdirs");
    assertThat(warm.get(AccessKind.BATCH)).isEqualTo(depth == 1 ? 0 : 1);
    assertThat(warm.get(AccessKind.PK, LockMode.EXCLUSIVE)).isEqualTo(2);
    assertThat(warm.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
    // ... and the safe-mode row, read shared in every write's first transaction.
    assertThat(warm.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(warm.total()).as(warm.toString()).isEqualTo(depth == 1 ? 4 : 5);

    coldHints();
    observed.fs().mkdirs(new Path(parent + "/new2"));
    AccessCounts cold = observed.last("mkdirs");
    assertThat(cold.get(AccessKind.PK, LockMode.EXCLUSIVE)).isEqualTo(2);
    assertThat(cold.get(AccessKind.PK, LockMode.READ_COMMITTED)).isEqualTo(Math.max(0, depth - 3));
    assertThat(cold.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
  }

  /**
   * What the storage spends for one RPC, not only the operation's own transaction: a caller whose
   * groups are registered nowhere costs no lookup of them (before, one index scan per group and
   * RPC, never cached). Background transactions (the election) may land in a try; one clean try of
   * five is enough.
   */
  @Test
  void anRpcOfACallerWithUnregisteredGroupsCostsTheStorageOnlyItsTransaction() throws Exception {
    Path p = new Path("/ugtest/dir");
    observed.fs().mkdirs(p);
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting(
            "alice-cost", new String[] {"nowhere-a", "nowhere-b", "nowhere-c"});
    DistributedFileSystem asAlice =
        alice.doAs(
            (java.security.PrivilegedExceptionAction<DistributedFileSystem>)
                () -> (DistributedFileSystem) observed.cluster().client());
    try {
      asAlice.getFileStatus(p); // registers the user once
      long fewestExtra = Long.MAX_VALUE;
      for (int i = 0; i < 5; i++) {
        AccessCounts before = observed.cluster().namenode().namesystem().storage().accessCounts();
        asAlice.getFileStatus(p);
        AccessCounts all =
            observed.cluster().namenode().namesystem().storage().accessCounts().minus(before);
        AccessCounts own = observed.last("getFileInfo");
        fewestExtra = Math.min(fewestExtra, all.total() - own.total());
      }
      assertThat(fewestExtra).as("accesses outside the operation's transaction").isZero();
    } finally {
      asAlice.close();
    }
  }
}
