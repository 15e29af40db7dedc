package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.AccessCounts;
import io.hops.dal.AccessKind;
import io.hops.dal.LockMode;
import io.hops.namenode.ObservedCluster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * setPermission, setOwner, setTimes and setReplication through the stock client, by the superuser
 * (the namenode's own user) and by alice (group staff), and what each costs in the database.
 */
class AttributeTest {
  private static final String ME = System.getProperty("user.name");
  @RegisterExtension static final ObservedCluster observed = ObservedCluster.of();
  private static DistributedFileSystem alice;

  @BeforeAll
  static void alice() throws Exception {
    UserGroupInformation ugi =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    alice =
        ugi.doAs(
            (PrivilegedExceptionAction<DistributedFileSystem>)
                () ->
                    (DistributedFileSystem)
                        FileSystem.get(observed.cluster().uri(), observed.cluster().clientConf()));
    observed.fs().mkdirs(new Path("/home/alice"));
    observed.fs().setOwner(new Path("/home/alice"), "alice", "staff");
  }

  @AfterAll
  static void closeAlice() throws Exception {
    alice.close();
  }

  @Test
  void ownerChangesPermissionStickyBitIncluded() throws Exception {
    Path dir = new Path("/home/alice/chmod");
    alice.mkdirs(dir);
    alice.setPermission(dir, new FsPermission((short) 01770));
    FsPermission p = observed.fs().getFileStatus(dir).getPermission();
    assertThat(p.toShort()).isEqualTo((short) 01770);
    assertThat(p.getStickyBit()).isTrue();
  }

  @Test
  void nonOwnerCannotChangePermission() throws Exception {
    observed.fs().mkdirs(new Path("/rootowned"));
    assertThatThrownBy(
            () -> alice.setPermission(new Path("/rootowned"), new FsPermission((short) 0777)))
        .isInstanceOf(AccessControlException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("Permission denied. user=alice is not the owner of inode=/rootowned");
    assertThat(observed.fs().getFileStatus(new Path("/rootowned")).getPermission().toShort())
        .isEqualTo((short) 0755);
  }

  @Test
  void superuserChangesPermissionOfAnyone() throws Exception {
    Path dir = new Path("/home/alice/bysuper");
    alice.mkdirs(dir);
    observed.fs().setPermission(dir, new FsPermission((short) 0700));
    assertThat(alice.getFileStatus(dir).getPermission().toShort()).isEqualTo((short) 0700);
  }

  @Test
  void onlyTheSuperuserChangesTheOwner() throws Exception {
    Path f = new Path("/home/alice/chown");
    alice.mkdirs(f);
    assertThatThrownBy(() -> alice.setOwner(f, "bob", null))
        .isInstanceOf(AccessControlException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("User alice is not a super user (non-super user cannot change owner).");
    // Naming oneself is no change of owner, so the owner may.
    alice.setOwner(f, "alice", null);
    // The superuser may name any user, known to the system or not.
    observed.fs().setOwner(f, "bob-never-seen-before", null);
    FileStatus st = observed.fs().getFileStatus(f);
    assertThat(st.getOwner()).isEqualTo("bob-never-seen-before");
    assertThat(st.getGroup()).isEqualTo("staff");
  }

  @Test
  void ownerChangesGroupOnlyToOneOfTheirGroups() throws Exception {
    Path f = new Path("/home/alice/chgrp");
    alice.mkdirs(f);
    observed.fs().setOwner(f, null, "other");
    assertThat(observed.fs().getFileStatus(f).getGroup()).isEqualTo("other");
    alice.setOwner(f, null, "staff");
    assertThat(observed.fs().getFileStatus(f).getGroup()).isEqualTo("staff");
    assertThat(observed.fs().getFileStatus(f).getOwner()).isEqualTo("alice");
    assertThatThrownBy(() -> alice.setOwner(f, null, "wheel"))
        .isInstanceOf(AccessControlException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("User alice does not belong to wheel");
  }

  @Test
  void nonOwnerCannotChangeTheGroupEvenToTheirOwn() throws Exception {
    observed.fs().mkdirs(new Path("/notalices"));
    assertThatThrownBy(() -> alice.setOwner(new Path("/notalices"), null, "staff"))
        .isInstanceOf(AccessControlException.class)
        .hasMessageContaining("is not the owner of inode=/notalices");
  }

  @Test
  void attributesOfAMissingPathAreFileNotFound() {
    Path missing = new Path("/missing/attr");
    assertThatThrownBy(() -> observed.fs().setPermission(missing, new FsPermission((short) 0700)))
        .isInstanceOf(FileNotFoundException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("Directory/File does not exist /missing/attr");
    assertThatThrownBy(() -> observed.fs().setOwner(missing, "x", null))
        .isInstanceOf(FileNotFoundException.class);
    assertThatThrownBy(() -> observed.fs().setTimes(missing, 1, 1))
        .isInstanceOf(FileNotFoundException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("File/Directory /missing/attr does not exist.");
  }

  @Test
  void setTimesStoresBothTimesAndMinusOneKeepsOne() throws Exception {
    Path f = new Path("/times/f");
    observed.fs().createNewFile(f);
    observed.fs().setTimes(f, 1_000_000L, 2_000_000L);
    FileStatus st = observed.fs().getFileStatus(f);
    assertThat(st.getModificationTime()).isEqualTo(1_000_000L);
    assertThat(st.getAccessTime()).isEqualTo(2_000_000L);
    observed.fs().setTimes(f, -1, 3_000_000L);
    st = observed.fs().getFileStatus(f);
    assertThat(st.getModificationTime()).isEqualTo(1_000_000L);
    assertThat(st.getAccessTime()).isEqualTo(3_000_000L);
    observed.fs().setTimes(f, 4_000_000L, -1);
    st = observed.fs().getFileStatus(f);
    assertThat(st.getModificationTime()).isEqualTo(4_000_000L);
    assertThat(st.getAccessTime()).isEqualTo(3_000_000L);
  }

  @Test
  void setTimesNeedsWritePermission() throws Exception {
    observed.fs().mkdirs(new Path("/times/readonly"));
    assertThatThrownBy(() -> alice.setTimes(new Path("/times/readonly"), 5, 5))
        .isInstanceOf(AccessControlException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo(
            "Permission denied: user=alice, access=WRITE, inode=\"/times/readonly\":"
                + ME
                + ":supergroup:drwxr-xr-x");
  }

  @Test
  void setReplicationStoresItForAFileAndRefusesADirectory() throws Exception {
    Path f = new Path("/repl/f");
    observed.fs().createNewFile(f);
    assertThat(observed.fs().setReplication(f, (short) 5)).isTrue();
    assertThat(observed.fs().getFileStatus(f).getReplication()).isEqualTo((short) 5);
    assertThat(observed.fs().setReplication(new Path("/repl"), (short) 2)).isFalse();
    assertThat(observed.fs().getFileStatus(new Path("/repl")).getReplication()).isZero();
    assertThat(observed.fs().setReplication(new Path("/repl/missing"), (short) 2)).isFalse();
  }

  @Test
  void setReplicationOutsideTheConfiguredRangeIsRefusedWithHdfsMessage() throws Exception {
    observed.fs().createNewFile(new Path("/repl/range"));
    assertThatThrownBy(() -> observed.fs().setReplication(new Path("/repl/range"), (short) 513))
        .isInstanceOf(IOException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo("Requested replication factor of 513 exceeds maximum of 512 for /repl/range");
    assertThatThrownBy(() -> observed.fs().setReplication(new Path("/repl/range"), (short) 0))
        .isInstanceOf(IOException.class)
        .extracting(AttributeTest::firstLine)
        .isEqualTo(
            "Requested replication factor of 0 is less than the required minimum of 1 for"
                + " /repl/range");
  }

  @Test
  void getStatsGivesTheClientAStatus() throws Exception {
    var status = observed.fs().getStatus();
    assertThat(status.getCapacity()).isZero();
    assertThat(status.getUsed()).isZero();
    assertThat(status.getRemaining()).isZero();
  }

  @Test
  void attributeChangesLockOnlyTheTarget() throws Exception {
    Path dir = new Path("/cost/a/b");
    observed.fs().mkdirs(dir);
    observed.fs().getFileStatus(dir); // warms the hints
    observed.fs().setPermission(dir, new FsPermission((short) 0700));
    assertOneBatchOneExclusiveReadOneWrite(observed.last("setPermission"));
    observed.fs().setOwner(dir, null, "staff");
    assertOneBatchOneExclusiveReadOneWrite(observed.last("setOwner"));
    observed.fs().setTimes(dir, 7, 7);
    assertOneBatchOneExclusiveReadOneWrite(observed.last("setTimes"));
  }

  /** The message without the server's stack trace, which Hadoop IPC appends. */
  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  private static void assertOneBatchOneExclusiveReadOneWrite(AccessCounts c) {
    assertThat(c.get(AccessKind.BATCH, LockMode.READ_COMMITTED)).as(c.toString()).isEqualTo(1);
    assertThat(c.get(AccessKind.PK, LockMode.EXCLUSIVE)).as(c.toString()).isEqualTo(1);
    assertThat(c.get(AccessKind.WRITE_BATCH)).as(c.toString()).isEqualTo(1);
    // ... and the safe-mode row, shared, as every write's first transaction reads it.
    assertThat(c.get(AccessKind.PK, LockMode.SHARED)).as(c.toString()).isEqualTo(1);
    assertThat(c.total()).as(c.toString()).isEqualTo(4);
  }
}
