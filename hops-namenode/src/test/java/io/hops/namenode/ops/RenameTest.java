package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.namenode.ObservedCluster;
import io.hops.namenode.check.NamespaceChecker;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code rename} and {@code rename2} through the stock client. */
class RenameTest {
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  private static Storage storage() {
    return observed.cluster().namenode().namesystem().storage();
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static void touch(String path) throws IOException {
    observed.fs().create(p(path)).close();
  }

  private static long id(String path) throws IOException {
    return observed.fs().getClient().getFileInfo(path).getFileId();
  }

  @Test
  void renameOfAFileAcrossDirectoriesKeepsItsInodeAndUpdatesBothParents() throws Exception {
    touch("/rf/a/f");
    observed.fs().mkdirs(p("/rf/b"));
    long id = id("/rf/a/f");
    long aBefore = observed.fs().getFileStatus(p("/rf/a")).getModificationTime();
    Thread.sleep(5);

    assertThat(observed.fs().rename(p("/rf/a/f"), p("/rf/b/g"))).isTrue();

    assertThat(observed.fs().exists(p("/rf/a/f"))).isFalse();
    assertThat(id("/rf/b/g")).isEqualTo(id);
    assertThat(observed.fs().getClient().getFileInfo("/rf/a").getChildrenNum()).isZero();
    assertThat(observed.fs().getClient().getFileInfo("/rf/b").getChildrenNum()).isEqualTo(1);
    assertThat(observed.fs().getFileStatus(p("/rf/a")).getModificationTime())
        .isGreaterThan(aBefore);
    assertThat(observed.fs().getFileStatus(p("/rf/b")).getModificationTime())
        .isGreaterThan(aBefore);
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void renameOfAFileIsThreeBatchesAndTheWrites() throws Exception {
    touch("/rcost/a/f");
    observed.fs().mkdirs(p("/rcost/b"));
    observed.fs().getFileStatus(p("/rcost/a/f"));
    observed.fs().getFileStatus(p("/rcost/b")); // hints warm for both paths
    assertThat(observed.fs().rename(p("/rcost/a/f"), p("/rcost/b/f"))).isTrue();
    AccessCounts c = observed.last("rename");
    // Two read-committed resolutions (a batch and the target each), then one locking batch.
    assertThat(c.get(AccessKind.BATCH)).as(c.toString()).isEqualTo(3);
    assertThat(c.get(AccessKind.BATCH, LockMode.EXCLUSIVE)).as(c.toString()).isEqualTo(1);
    assertThat(c.get(AccessKind.PK)).as(c.toString()).isLessThanOrEqualTo(4);
    assertThat(c.get(AccessKind.PPIS) + c.get(AccessKind.IS) + c.get(AccessKind.FTS)).isZero();
    assertThat(c.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
  }

  @Test
  void renameOfADirectoryMovesItsChildrenWithIt() throws Exception {
    touch("/rd/src/x/f1");
    touch("/rd/src/f2");
    observed.fs().mkdirs(p("/rd/other"));

    assertThat(observed.fs().rename(p("/rd/src"), p("/rd/other/moved"))).isTrue();

    assertThat(observed.fs().exists(p("/rd/src"))).isFalse();
    assertThat(observed.fs().getFileStatus(p("/rd/other/moved/x/f1")).isFile()).isTrue();
    assertThat(observed.fs().getFileStatus(p("/rd/other/moved/f2")).isFile()).isTrue();
    assertThat(observed.fs().listStatus(p("/rd/other/moved")))
        .extracting(s -> s.getPath().getName())
        .containsExactly("f2", "x");
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void renameOfATopLevelDirectoryChangesItsPartition() throws Exception {
    touch("/rtop1/f");
    assertThat(observed.fs().rename(p("/rtop1"), p("/rtop2"))).isTrue();
    assertThat(observed.fs().getFileStatus(p("/rtop2/f")).isFile()).isTrue();
    assertThat(observed.fs().rename(p("/rtop2"), p("/rtopdeep/under"))).isFalse(); // parent missing
    observed.fs().mkdirs(p("/rtopdeep"));
    assertThat(observed.fs().rename(p("/rtop2"), p("/rtopdeep/under"))).isTrue();
    assertThat(observed.fs().rename(p("/rtopdeep/under"), p("/rtop3"))).isTrue();
    assertThat(observed.fs().getFileStatus(p("/rtop3/f")).isFile()).isTrue();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void renameOntoAnExistingFileFailsUnlessOverwrite() throws Exception {
    touch("/ro/a");
    touch("/ro/b");
    long a = id("/ro/a");

    assertThat(observed.fs().rename(p("/ro/a"), p("/ro/b"))).as("old API").isFalse();
    assertThatThrownBy(() -> observed.fs().rename(p("/ro/a"), p("/ro/b"), Options.Rename.NONE))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageStartingWith("rename destination /ro/b already exists");

    observed.fs().rename(p("/ro/a"), p("/ro/b"), Options.Rename.OVERWRITE);
    assertThat(observed.fs().exists(p("/ro/a"))).isFalse();
    assertThat(id("/ro/b")).isEqualTo(a);
    assertThat(observed.fs().getClient().getFileInfo("/ro").getChildrenNum()).isEqualTo(1);
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void overwriteOfAnOpenFileDropsItsLease() throws Exception {
    String holder = "DFSClient_rename_test";
    observed
        .fs()
        .getClient()
        .getNamenode()
        .create(
            "/rlease/open",
            FsPermission.getFileDefault(),
            holder,
            new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
            true,
            (short) 1,
            1 << 20,
            CryptoProtocolVersion.supported(),
            null,
            null);
    touch("/rlease/closed");
    observed.fs().rename(p("/rlease/closed"), p("/rlease/open"), Options.Rename.OVERWRITE);
    try (Transaction tx = storage().begin()) {
      // The holder's open files are its lease paths; its lease row stays, without files, until
      // the leader drops it past the hard limit.
      assertThat(tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED))
          .isNotNull();
      assertThat(tx.scanAll(LeasePathRow.TABLE, LockMode.READ_COMMITTED))
          .noneMatch(r -> r.holder().equals(holder));
    }
  }

  @Test
  void renameOfAnOpenFileKeepsItsLeaseAndRecordsTheNewPath() throws Exception {
    String holder = "DFSClient_rename_open";
    observed
        .fs()
        .getClient()
        .getNamenode()
        .create(
            "/ropen/a",
            FsPermission.getFileDefault(),
            holder,
            new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
            true,
            (short) 1,
            1 << 20,
            CryptoProtocolVersion.supported(),
            null,
            null);
    long id = id("/ropen/a");
    assertThat(observed.fs().rename(p("/ropen/a"), p("/ropen/b"))).isTrue();
    try (Transaction tx = storage().begin()) {
      LeasePathRow lp =
          tx.find(LeasePathRow.TABLE, LeasePathRow.key(holder, id), LockMode.READ_COMMITTED);
      assertThat(lp.holder()).isEqualTo(holder);
      assertThat(lp.path()).isEqualTo("/ropen/b");
    }
    assertThat(observed.fs().isFileClosed(p("/ropen/b"))).isFalse();
  }

  @Test
  void renameIntoItsOwnSubtreeIsRefused() throws Exception {
    observed.fs().mkdirs(p("/rs/a/b"));
    assertThat(observed.fs().rename(p("/rs/a"), p("/rs/a/b/c"))).isFalse();
    assertThatThrownBy(() -> observed.fs().rename(p("/rs/a"), p("/rs/a/b/c"), Options.Rename.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining(
            "Rename destination /rs/a/b/c is a directory or file under source /rs/a");
    assertThat(observed.fs().getFileStatus(p("/rs/a/b")).isDirectory()).isTrue();
  }

  @Test
  @SuppressWarnings("deprecation") // the old rename, called with a path the client would refuse
  void renameOfTheRootIsRefused() throws Exception {
    observed.fs().mkdirs(p("/rroot"));
    assertThat(observed.fs().getClient().rename("/", "/rroot/x")).isFalse();
    assertThatThrownBy(() -> observed.fs().getClient().rename("/", "/rroot/x", Options.Rename.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("rename source cannot be the root");
  }

  @Test
  void oldRenameOntoAnExistingDirectoryMovesTheSourceIntoIt() throws Exception {
    touch("/rin/f");
    observed.fs().mkdirs(p("/rin/dir"));
    observed.fs().mkdirs(p("/rin/sub/x"));
    assertThat(observed.fs().rename(p("/rin/f"), p("/rin/dir"))).isTrue();
    assertThat(observed.fs().rename(p("/rin/sub"), p("/rin/dir"))).isTrue();
    assertThat(observed.fs().listStatus(p("/rin/dir")))
        .extracting(s -> s.getPath().getName())
        .containsExactly("f", "sub");
    assertThat(observed.fs().getFileStatus(p("/rin/dir/sub/x")).isDirectory()).isTrue();
    // rename2 takes the destination literally.
    touch("/rin/g");
    assertThatThrownBy(() -> observed.fs().rename(p("/rin/g"), p("/rin/dir"), Options.Rename.NONE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("must both be directories");
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void overwriteReplacesAnEmptyDirectoryButNotANonEmptyOne() throws Exception {
    observed.fs().mkdirs(p("/rw/src/inner"));
    observed.fs().mkdirs(p("/rw/empty"));
    observed.fs().mkdirs(p("/rw/full/x"));
    assertThatThrownBy(
            () -> observed.fs().rename(p("/rw/src"), p("/rw/full"), Options.Rename.OVERWRITE))
        .isInstanceOf(IOException.class)
        .hasMessageContaining("rename destination directory is not empty: /rw/full");
    observed.fs().rename(p("/rw/src"), p("/rw/empty"), Options.Rename.OVERWRITE);
    assertThat(observed.fs().getFileStatus(p("/rw/empty/inner")).isDirectory()).isTrue();
    assertThat(observed.fs().listStatus(p("/rw")))
        .extracting(s -> s.getPath().getName())
        .containsExactly("empty", "full");
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  /**
   * Two directories swapped into each other's subtrees at once: one must lose, or a cycle would cut
   * both off from the root.
   */
  @Test
  void crossedDirectoryRenamesNeverCloseACycle() throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(2);
    try {
      for (int round = 0; round < 20; round++) {
        String base = "/rx" + round;
        observed.fs().mkdirs(p(base + "/a/x/p"));
        observed.fs().mkdirs(p(base + "/b/y/q"));
        List<Future<Boolean>> results = new ArrayList<>();
        results.add(
            pool.submit(() -> observed.fs().rename(p(base + "/a/x"), p(base + "/b/y/q/x"))));
        results.add(
            pool.submit(() -> observed.fs().rename(p(base + "/b/y"), p(base + "/a/x/p/y"))));
        int won = 0;
        for (Future<Boolean> f : results) {
          won += f.get(60, TimeUnit.SECONDS) ? 1 : 0;
        }
        assertThat(won).as("round " + round).isEqualTo(1);
      }
    } finally {
      pool.shutdownNow();
    }
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  /**
   * Renames within one directory lock the directory and both names in one batch, in name order
   * whichever way the rename goes; the old API's move into a sibling directory takes those locks
   * and then the general way's. All of them at once, with creates and deletes in the same
   * directory: none waits forever, none fails, and the directory's entries and count agree at the
   * end.
   */
  @Test
  void concurrentRenamesWithinOneDirectoryInBothNameOrders() throws Exception {
    observed.fs().mkdirs(p("/rwd/into"));
    int renamers = 4;
    int rounds = 40;
    for (int t = 0; t < renamers; t++) {
      touch("/rwd/" + t + "-a");
    }
    touch("/rwd/m");
    ExecutorService pool = Executors.newFixedThreadPool(renamers + 2);
    try {
      List<Future<Boolean>> results = new ArrayList<>();
      for (int t = 0; t < renamers; t++) {
        Path a = p("/rwd/" + t + "-a");
        Path z = p("/rwd/" + t + "-z");
        // The source's name first, then the destination's ('&' runs both).
        results.add(
            pool.submit(
                repeated(rounds, () -> observed.fs().rename(a, z) & observed.fs().rename(z, a))));
      }
      results.add(
          pool.submit(
              repeated(
                  rounds,
                  () -> {
                    touch("/rwd/tmp");
                    return observed.fs().delete(p("/rwd/tmp"), false);
                  })));
      // Into the directory: the general way.
      Path m = p("/rwd/m");
      results.add(
          pool.submit(
              repeated(
                  rounds,
                  () ->
                      observed.fs().rename(m, p("/rwd/into"))
                          & observed.fs().rename(p("/rwd/into/m"), m))));
      for (Future<Boolean> f : results) {
        assertThat(f.get(120, TimeUnit.SECONDS)).isTrue();
      }
    } finally {
      pool.shutdownNow();
    }
    List<String> names = new ArrayList<>();
    for (FileStatus st : observed.fs().listStatus(p("/rwd"))) {
      names.add(st.getPath().getName());
    }
    assertThat(names).containsExactly("0-a", "1-a", "2-a", "3-a", "into", "m");
    assertThat(observed.fs().getClient().getFileInfo("/rwd").getChildrenNum()).isEqualTo(6);
    assertThat(observed.fs().listStatus(p("/rwd/into"))).isEmpty();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  /** One step of a worker: whether it did what it was asked. */
  private interface Step {
    boolean run() throws IOException;
  }

  /** A worker that runs {@code step} {@code rounds} times: whether every run did. */
  private static Callable<Boolean> repeated(int rounds, Step step) {
    return () -> {
      boolean ok = true;
      for (int i = 0; i < rounds; i++) {
        ok &= step.run();
      }
      return ok;
    };
  }

  @Test
  void renameToTheSamePath() throws Exception {
    touch("/rsame/f");
    observed.fs().mkdirs(p("/rsame/d"));
    assertThat(observed.fs().rename(p("/rsame/f"), p("/rsame/f"))).isTrue();
    assertThat(observed.fs().rename(p("/rsame/d"), p("/rsame/d")))
        .as("old API: d/d is under d")
        .isFalse();
    assertThatThrownBy(
            () -> observed.fs().rename(p("/rsame/f"), p("/rsame/f"), Options.Rename.NONE))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageStartingWith("The source /rsame/f and destination /rsame/f are the same");
    FileStatus st = observed.fs().getFileStatus(p("/rsame/f"));
    assertThat(st.isFile()).isTrue();
  }
}
