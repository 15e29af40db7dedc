package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.schema.Table;
import io.hops.namenode.ObservedCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.resolve.MutableInode;
import java.io.IOException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code delete} through the stock client, over a namenode whose subtree bound is 10 inodes. */
class DeleteTest {
  private static final int BOUND = 10;

  private static Configuration bounded() {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, BOUND);
    return conf;
  }

  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of(bounded());

  private static Storage storage() {
    return observed.cluster().namenode().namesystem().storage();
  }

  private static <R extends Record> List<R> all(Table<R> table) throws IOException {
    try (Transaction tx = storage().begin()) {
      return tx.scanAll(table, LockMode.READ_COMMITTED);
    }
  }

  private static Set<Long> inodeIds() throws IOException {
    Set<Long> ids = new HashSet<>();
    for (InodeRow r : all(InodeRow.TABLE)) {
      ids.add(r.id());
    }
    return ids;
  }

  private static void touch(String path) throws IOException {
    observed.fs().create(new Path(path)).close();
  }

  @Test
  void deleteOfAFileRemovesItAndUpdatesItsParent() throws Exception {
    touch("/df/f");
    long id = fileId("/df/f");
    long before = observed.fs().getFileStatus(new Path("/df")).getModificationTime();
    Thread.sleep(5);

    assertThat(observed.fs().delete(new Path("/df/f"), false)).isTrue();

    assertThat(observed.fs().exists(new Path("/df/f"))).isFalse();
    assertThat(inodeIds()).doesNotContain(id);
    FileStatus parent = observed.fs().getFileStatus(new Path("/df"));
    assertThat(parent.getModificationTime()).isGreaterThan(before);
    assertThat(observed.fs().getClient().getFileInfo("/df").getChildrenNum()).isZero();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void deleteOfAClosedEmptyFileIsOneBatchTwoExclusiveReadsAndTheWrites() throws Exception {
    touch("/dcost/a/f");
    observed.fs().getFileStatus(new Path("/dcost/a/f")); // warms the hints
    assertThat(observed.fs().delete(new Path("/dcost/a/f"), false)).isTrue();
    AccessCounts c = observed.last("delete");
    // The ancestors in one batch, parent and file locked, one write batch (with the retry-cache
    // row: a first attempt does not read it), and the safe-mode row read shared.
    assertThat(c.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).as(c.toString()).isEqualTo(1);
    assertThat(c.get(AccessKind.PK, LockMode.EXCLUSIVE)).as(c.toString()).isEqualTo(2);
    assertThat(c.get(AccessKind.PK, LockMode.SHARED)).as(c.toString()).isEqualTo(1);
    assertThat(c.get(AccessKind.WRITE_BATCH)).as(c.toString()).isEqualTo(1);
    assertThat(c.total()).as(c.toString()).isEqualTo(5);
  }

  @Test
  void deleteOfAnEmptyDirectoryWithoutRecursiveSucceeds() throws Exception {
    observed.fs().mkdirs(new Path("/de/empty"));
    assertThat(observed.fs().delete(new Path("/de/empty"), false)).isTrue();
    assertThat(observed.fs().exists(new Path("/de/empty"))).isFalse();
    assertThat(observed.fs().listStatus(new Path("/de"))).isEmpty();
  }

  @Test
  void recursiveDeleteOfASmallTreeLeavesNoOrphans() throws Exception {
    observed.fs().mkdirs(new Path("/dr/t/a/b"));
    observed.fs().mkdirs(new Path("/dr/t/c"));
    touch("/dr/t/f1");
    touch("/dr/t/a/f2");
    touch("/dr/t/a/b/f3");
    observed.fs().mkdirs(new Path("/dr/keep"));
    // By id, not by comparing every inode before and after: the leader may be reclaiming what
    // earlier tests deleted meanwhile.
    Set<Long> tree = new HashSet<>();
    for (String p : List.of("t", "t/a", "t/a/b", "t/c", "t/f1", "t/a/f2", "t/a/b/f3")) {
      tree.add(fileId("/dr/" + p));
    }
    long keep = fileId("/dr/keep");

    assertThat(observed.fs().delete(new Path("/dr/t"), true)).isTrue();

    Set<Long> left = inodeIds();
    assertThat(tree).as("t, a, b, c and three files").hasSize(7);
    assertThat(left).doesNotContainAnyElementsOf(tree).contains(keep);
    assertThat(observed.fs().listStatus(new Path("/dr")))
        .extracting(s -> s.getPath().getName())
        .containsExactly("keep");
    assertThat(observed.fs().exists(new Path("/dr/t/a/b/f3"))).isFalse();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
    // The names can be used again: no stale hint or row is left behind.
    observed.fs().mkdirs(new Path("/dr/t/a/b"));
    assertThat(observed.fs().getFileStatus(new Path("/dr/t/a/b")).isDirectory()).isTrue();
  }

  @Test
  void nonRecursiveDeleteOfANonEmptyDirectoryIsPathIsNotEmptyDirectory() throws Exception {
    touch("/dn/d/f");
    assertThatThrownBy(() -> observed.fs().delete(new Path("/dn/d"), false))
        .isInstanceOf(PathIsNotEmptyDirectoryException.class)
        .hasMessageContaining("/dn/d is non empty");
    assertThat(observed.fs().exists(new Path("/dn/d/f"))).isTrue();
  }

  @Test
  void deleteOfAMissingPathReturnsFalse() throws Exception {
    assertThat(observed.fs().delete(new Path("/missing-x"), true)).isFalse();
    assertThat(observed.fs().delete(new Path("/missing-y/z"), false)).isFalse();
  }

  @Test
  void deleteOfTheRootReturnsFalseAndNonRecursiveIsNotEmpty() throws Exception {
    observed.fs().mkdirs(new Path("/droot"));
    assertThat(observed.fs().getClient().delete("/", true)).isFalse();
    assertThatThrownBy(() -> observed.fs().getClient().delete("/", false))
        .isInstanceOf(PathIsNotEmptyDirectoryException.class);
    assertThat(observed.fs().exists(new Path("/droot"))).isTrue();
  }

  @Test
  void aTreeOverTheBoundIsDeletedByTheSubtreeProtocolLeavingNoMark() throws Exception {
    // t, a, b and 8 files: 11 inodes, one over the bound.
    observed.fs().mkdirs(new Path("/big/t/a"));
    observed.fs().mkdirs(new Path("/big/t/b"));
    for (int i = 0; i < 8; i++) {
      touch("/big/t/" + (i % 2 == 0 ? "a" : "b") + "/f" + i);
    }
    assertThat(observed.fs().delete(new Path("/big/t"), true)).isTrue();
    assertThat(observed.fs().exists(new Path("/big/t"))).isFalse();
    assertThat(observed.fs().exists(new Path("/big"))).isTrue();
    assertThat(observed.last("subtreeQuiesce")).isNotNull();
    assertThat(observed.last("subtreeDeleteBatch")).isNotNull();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void aDirectoryWithMoreChildrenThanTheBoundIsDeletedInBatches() throws Exception {
    for (int i = 0; i < 3 * BOUND; i++) {
      touch("/wide/t/f" + i);
    }
    assertThat(observed.fs().delete(new Path("/wide/t"), true)).isTrue();
    assertThat(observed.fs().exists(new Path("/wide/t"))).isFalse();
    assertThat(NamespaceChecker.violations(storage())).isEmpty();
  }

  @Test
  void deleteOfAnOpenFileRemovesItsLeasePathAndTheLeaseWithItsLastFile() throws Exception {
    var nn = observed.fs().getClient().getNamenode();
    String holder = "DFSClient_delete_test";
    var flags = new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
    FsPermission perm = FsPermission.getFileDefault();
    nn.create(
        "/dopen/a",
        perm,
        holder,
        flags,
        true,
        (short) 1,
        1 << 20,
        CryptoProtocolVersion.supported(),
        null,
        null);
    nn.create(
        "/dopen/d/b",
        perm,
        holder,
        flags,
        true,
        (short) 1,
        1 << 20,
        CryptoProtocolVersion.supported(),
        null,
        null);
    assertThat(openFiles(holder)).isEqualTo(2);

    assertThat(observed.fs().delete(new Path("/dopen/a"), false)).isTrue();
    assertThat(openFiles(holder)).isEqualTo(1);
    assertThat(observed.fs().delete(new Path("/dopen/d"), true)).isTrue();
    assertThat(openFiles(holder)).isZero();
    assertThat(lease(holder)).as("stays until the leader drops it past the hard limit").isNotNull();
    assertThat(all(LeasePathRow.TABLE)).noneMatch(p -> p.holder().equals(holder));
  }

  @Test
  void deleteOfAFileWithBlocksDropsThemAndQueuesTheirReplicasForInvalidation() throws Exception {
    touch("/dblocks/f");
    long id = fileId("/dblocks/f");
    // Blocks as the data path will write them: two blocks, replicas on storages 7 and 8.
    try (Transaction tx = storage().begin()) {
      InodeRow row = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.EXCLUSIVE).get(0);
      MutableInode m = MutableInode.of(row);
      m.size = 300;
      tx.update(InodeRow.TABLE, m.toRow());
      for (long b = 1; b <= 2; b++) {
        tx.insert(
            BlockInfoRow.TABLE,
            new BlockInfoRow(id, 1000 + b, (int) b - 1, (b - 1) * 150, 150, 5, (byte) 0, 0, -1, 0));
        tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(1000 + b, id));
        tx.insert(ReplicaRow.TABLE, new ReplicaRow(id, 1000 + b, 7, 0));
        tx.insert(ReplicaRow.TABLE, new ReplicaRow(id, 1000 + b, 8, 1));
      }
      tx.commit();
    }

    assertThat(observed.fs().delete(new Path("/dblocks/f"), false)).isTrue();

    assertThat(all(BlockInfoRow.TABLE)).noneMatch(b -> b.inodeId() == id);
    // The lookup rows stay until the datanodes report the deletions: those reports find the
    // invalidation rows (partitioned by the deleted file) through them.
    assertThat(all(BlockLookupRow.TABLE))
        .filteredOn(b -> b.inodeId() == id)
        .extracting(BlockLookupRow::blockId)
        .containsExactlyInAnyOrder(1001L, 1002L);
    assertThat(all(ReplicaRow.TABLE)).noneMatch(r -> r.inodeId() == id);
    assertThat(all(InvalidatedBlockRow.TABLE))
        .filteredOn(r -> r.inodeId() == id)
        .extracting(
            r ->
                r.blockId()
                    + "@"
                    + r.storageId()
                    + " gs"
                    + r.generationStamp()
                    + " "
                    + r.numBytes())
        .containsExactlyInAnyOrder(
            "1001@7 gs5 150", "1001@8 gs5 150", "1002@7 gs5 150", "1002@8 gs5 150");
  }

  @Test
  void permissionsFollowHdfsWriteOnTheParentStickyBitAndAllOnTheSubtree() throws Exception {
    observed.fs().mkdirs(new Path("/dperm/locked"));
    touch("/dperm/locked/f");
    observed.fs().mkdirs(new Path("/dperm/tmp"));
    observed.fs().setPermission(new Path("/dperm/tmp"), new FsPermission((short) 01777));
    touch("/dperm/tmp/admins");
    observed.fs().setPermission(new Path("/dperm/tmp/admins"), new FsPermission((short) 0666));
    observed.fs().mkdirs(new Path("/dperm/alice/inner"));
    touch("/dperm/alice/inner/f");
    observed.fs().setOwner(new Path("/dperm/alice"), "alice", "staff");
    observed.fs().setPermission(new Path("/dperm/alice"), new FsPermission((short) 0777));
    observed.fs().setPermission(new Path("/dperm"), new FsPermission((short) 0777));
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    try (FileSystem afs =
        alice.doAs(
            (java.security.PrivilegedExceptionAction<FileSystem>)
                () -> FileSystem.get(observed.cluster().uri(), observed.cluster().clientConf()))) {
      assertThatThrownBy(() -> afs.delete(new Path("/dperm/locked/f"), false))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("access=WRITE");
      assertThatThrownBy(() -> afs.delete(new Path("/dperm/tmp/admins"), false))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("sticky bit");
      // alice owns /dperm/alice, but not the non-empty directory inside it.
      assertThatThrownBy(() -> afs.delete(new Path("/dperm/alice"), true))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("access=ALL")
          .hasMessageContaining("/dperm/alice/inner");
    }
    assertThat(observed.fs().exists(new Path("/dperm/alice/inner/f"))).isTrue();
  }

  private static long fileId(String path) throws IOException {
    return observed.fs().getClient().getFileInfo(path).getFileId();
  }

  private static int openFiles(String holder) throws IOException {
    try (Transaction tx = storage().begin()) {
      return tx.findByPartition(LeasePathRow.TABLE, holder, LockMode.READ_COMMITTED).size();
    }
  }

  private static LeaseRow lease(String holder) throws IOException {
    try (Transaction tx = storage().begin()) {
      return tx.find(LeaseRow.TABLE, LeaseRow.TABLE.key(holder), LockMode.READ_COMMITTED);
    }
  }
}
