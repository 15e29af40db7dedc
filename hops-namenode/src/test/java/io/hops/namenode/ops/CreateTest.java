package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.namenode.ObservedCluster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** {@code create} of zero-length files through the stock client, with HDFS's checks. */
class CreateTest {
  private static final long MB = 1024 * 1024;

  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();

  @Test
  void touchzCreatesAClosedEmptyFileWithTheRequestedAttributes() throws Exception {
    observed.fs().mkdirs(new Path("/touch"));
    observed.fs().setOwner(new Path("/touch"), null, "staff");
    Path f = new Path("/touch/empty");
    observed.fs().create(f, false, 4096, (short) 2, 2 * MB).close();

    FileStatus st = observed.fs().getFileStatus(f);
    assertThat(st.isFile()).isTrue();
    assertThat(st.getLen()).isZero();
    assertThat(st.getOwner()).isEqualTo(UserGroupInformation.getCurrentUser().getShortUserName());
    assertThat(st.getGroup()).as("group of the parent").isEqualTo("staff");
    assertThat(st.getReplication()).isEqualTo((short) 2);
    assertThat(st.getBlockSize()).isEqualTo(2 * MB);
    assertThat(st.getPermission()).isEqualTo(new FsPermission((short) 0644));
    assertThat(observed.fs().isFileClosed(f)).isTrue();
    assertThat(observed.fs().getClient().getNamenode().getPreferredBlockSize("/touch/empty"))
        .isEqualTo(2 * MB);
    assertThat(observed.fs().getFileStatus(new Path("/touch")).getModificationTime())
        .as("the parent changed at create, the file again at close")
        .isLessThanOrEqualTo(st.getModificationTime());
  }

  @Test
  void createWithoutOverwriteOfAnExistingFileIsFileAlreadyExists() throws Exception {
    Path f = new Path("/nooverwrite/f");
    observed.fs().create(f).close();
    assertThatThrownBy(() -> observed.fs().create(f, false))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageContaining("/nooverwrite/f for client")
        .hasMessageContaining("already exists");
  }

  @Test
  void overwriteReplacesTheFileWithANewInode() throws Exception {
    Path f = new Path("/overwrite/f");
    observed.fs().create(f, false, 4096, (short) 1, MB).close();
    long oldId = observed.fs().getClient().getFileInfo("/overwrite/f").getFileId();
    observed.fs().create(f, true, 4096, (short) 3, 4 * MB).close();

    HdfsFileStatus st = observed.fs().getClient().getFileInfo("/overwrite/f");
    assertThat(st.getFileId()).isNotEqualTo(oldId);
    assertThat(st.getReplication()).isEqualTo((short) 3);
    assertThat(st.getBlockSize()).isEqualTo(4 * MB);
    assertThat(observed.fs().listStatus(new Path("/overwrite"))).hasSize(1);
    assertThat(observed.fs().getClient().getFileInfo("/overwrite").getChildrenNum()).isEqualTo(1);
  }

  @Test
  void createNonRecursiveInAMissingDirectoryIsFileNotFound() {
    assertThatThrownBy(
            () ->
                observed
                    .fs()
                    .createNonRecursive(
                        new Path("/nonrec/missing/f"), false, 4096, (short) 1, MB, null))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageStartingWith("Parent directory doesn't exist: /nonrec/missing");
  }

  @Test
  void createMakesMissingParentsWithTheDeepestDirectorysPermissionPlusUwx() throws Exception {
    observed.fs().mkdirs(new Path("/parents"));
    observed.fs().setPermission(new Path("/parents"), new FsPermission((short) 0555));
    observed.fs().create(new Path("/parents/a/b/f")).close();

    assertThat(observed.fs().getFileStatus(new Path("/parents/a")).getPermission())
        .isEqualTo(new FsPermission((short) 0755));
    assertThat(observed.fs().getFileStatus(new Path("/parents/a/b")).isDirectory()).isTrue();
    assertThat(observed.fs().getFileStatus(new Path("/parents/a/b/f")).isFile()).isTrue();
    assertThat(observed.fs().getClient().getFileInfo("/parents/a").getChildrenNum()).isEqualTo(1);
    assertThat(observed.fs().getClient().getFileInfo("/parents").getChildrenNum()).isEqualTo(1);
  }

  @Test
  void createOverADirectoryIsFileAlreadyExists() throws Exception {
    observed.fs().mkdirs(new Path("/overdir/d"));
    assertThatThrownBy(() -> observed.fs().create(new Path("/overdir/d"), true))
        .isInstanceOf(FileAlreadyExistsException.class)
        .hasMessageStartingWith("/overdir/d already exists as a directory");
  }

  @Test
  void createBelowAFileIsParentNotDirectory() throws Exception {
    observed.fs().create(new Path("/belowfile/f")).close();
    assertThatThrownBy(() -> observed.fs().create(new Path("/belowfile/f/g")))
        .isInstanceOf(ParentNotDirectoryException.class)
        .hasMessageContaining("/belowfile/f (is not a directory)");
  }

  @Test
  void replicationAboveTheMaximumIsRefusedWithHdfsMessage() {
    assertThatThrownBy(() -> observed.fs().create(new Path("/repl/f"), true, 4096, (short) 600, MB))
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining("Requested replication factor of 600 exceeds maximum of 512");
  }

  @Test
  void blockSizeBelowTheMinimumIsRefusedWithHdfsMessage() {
    assertThatThrownBy(() -> observed.fs().create(new Path("/bs/f"), true, 4096, (short) 1, 1024))
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining(
            "Specified block size 1024 is less than configured minimum value"
                + " dfs.namenode.fs-limits.min-block-size=1048576");
  }

  @Test
  void createWithoutWritePermissionOnTheParentIsAccessControl() throws Exception {
    observed.fs().mkdirs(new Path("/locked"));
    observed.fs().setPermission(new Path("/locked"), new FsPermission((short) 0755));
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"});
    try (FileSystem afs =
        alice.doAs(
            (java.security.PrivilegedExceptionAction<FileSystem>)
                () -> FileSystem.get(observed.cluster().uri(), observed.cluster().clientConf()))) {
      assertThatThrownBy(() -> afs.create(new Path("/locked/f")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageContaining("access=WRITE");
    }
  }

  @Test
  void createWithoutTheCreateFlagOfAMissingFileIsFileNotFound() throws Exception {
    assertThatThrownBy(
            () ->
                observed
                    .fs()
                    .getClient()
                    .getNamenode()
                    .create(
                        "/noflag/f",
                        FsPermission.getFileDefault(),
                        observed.fs().getClient().getClientName(),
                        new EnumSetWritable<>(EnumSet.of(CreateFlag.OVERWRITE)),
                        true,
                        (short) 1,
                        MB,
                        CryptoProtocolVersion.supported(),
                        null,
                        null))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageStartingWith("Can't overwrite non-existent /noflag/f"));
  }

  @Test
  void anUnknownStoragePolicyIsRefusedAndAKnownOneIsStored() throws Exception {
    var nn = observed.fs().getClient().getNamenode();
    String client = observed.fs().getClient().getClientName();
    var flags = new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE));
    assertThatThrownBy(
            () ->
                nn.create(
                    "/policy/bad",
                    FsPermission.getFileDefault(),
                    client,
                    flags,
                    true,
                    (short) 1,
                    MB,
                    CryptoProtocolVersion.supported(),
                    null,
                    "NO_SUCH_POLICY"))
        .hasMessageContaining("Cannot find a block policy with the name NO_SUCH_POLICY");
    HdfsFileStatus st =
        nn.create(
            "/policy/cold",
            FsPermission.getFileDefault(),
            client,
            flags,
            true,
            (short) 1,
            MB,
            CryptoProtocolVersion.supported(),
            null,
            "COLD");
    assertThat(st.getStoragePolicy()).isEqualTo((byte) 2);
    assertThat(nn.complete("/policy/cold", client, null, st.getFileId())).isTrue();
  }

  @Test
  void erasureCodingPoliciesAreRefusedClearly() {
    var nn = observed.fs().getClient().getNamenode();
    assertThatThrownBy(
            () ->
                nn.create(
                    "/ec/f",
                    FsPermission.getFileDefault(),
                    observed.fs().getClient().getClientName(),
                    new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
                    true,
                    (short) 1,
                    MB,
                    CryptoProtocolVersion.supported(),
                    "RS-6-3-1024k",
                    null))
        .hasMessageContaining("hops does not support erasure coding");
  }

  @Test
  void writingDataIsRefusedNamingTheMissingDataPath() throws Exception {
    FSDataOutputStream out = observed.fs().create(new Path("/data/f"));
    out.write(1);
    assertThatThrownBy(out::close).isInstanceOf(IOException.class).hasMessageContaining("addBlock");
  }

  @Test
  void createCompleteRenewAndOpenOfAnEmptyFileCostWhatTheDesignSays() throws Exception {
    observed.fs().mkdirs(new Path("/cost/a"));
    observed.fs().getFileStatus(new Path("/cost/a")); // warms the hints of every ancestor
    DistributedFileSystem writer = observed.cluster().client(); // a new client: its first create
    FSDataOutputStream out = writer.create(new Path("/cost/a/f"));
    AccessCounts create = observed.last("create");
    // The ancestors in one batch; the lease read committed (a hint: none), then parent, new name
    // and lease locked; one write batch, with the retry-cache row (a first attempt does not read
    // it). Like every write, it reads the safe-mode row shared, in its first transaction.
    assertThat(create.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(create.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(create.get(AccessKind.PK, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(create.get(AccessKind.PK, LockMode.EXCLUSIVE)).isEqualTo(3);
    assertThat(create.get(AccessKind.WRITE_BATCH)).isEqualTo(1);
    assertThat(create.total()).as(create.toString()).isEqualTo(7);

    writer.getClient().getNamenode().renewLease(writer.getClient().getClientName(), null);
    AccessCounts renew = observed.last("renewLease");
    assertThat(renew.get(AccessKind.PK, LockMode.EXCLUSIVE)).isEqualTo(1);
    assertThat(renew.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(renew.total()).as(renew.toString()).isEqualTo(3);

    out.close();
    writer.close();
    AccessCounts complete = observed.last("complete");
    // The file locked (its parent does not change; no lease row: the lease path goes, protected
    // by the file's lock), then the file's tail: its lease path names its last blocks, and an
    // empty file has none to lock.
    assertThat(complete.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(complete.get(AccessKind.PK, LockMode.EXCLUSIVE)).isEqualTo(1);
    assertThat(complete.get(AccessKind.PK, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(complete.get(AccessKind.PK, LockMode.SHARED)).isEqualTo(1);
    assertThat(complete.total()).as(complete.toString()).isEqualTo(5);

    observed.fs().open(new Path("/cost/a/f")).close();
    AccessCounts read = observed.last("getBlockLocations");
    // An empty closed file: a stat, no lock and no block tables.
    assertThat(read.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).isEqualTo(1);
    assertThat(read.total()).as(read.toString()).isEqualTo(1);
  }
}
