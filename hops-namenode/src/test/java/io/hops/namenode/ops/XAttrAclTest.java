package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.XAttrRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.check.NamespaceChecker;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/**
 * Extended attributes and ACLs live in the database only: every way an inode goes (a delete, the
 * subtree protocol's batches, an overwriting create or rename) takes its rows with it, and an ACL
 * set through one namenode is enforced by another at once. On the embedded engine, and on MariaDB
 * when HOPS_TEST_MYSQL_URL names one.
 */
class XAttrAclTest {
  private static final int SUBTREE_BOUND = 10;

  private static Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setInt(NamenodeConfig.MAX_SUBTREE_INODES, SUBTREE_BOUND);
    return conf;
  }

  @Test
  void everyWayAnInodeGoesTakesItsAttributesAndAcl() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      rowsGoWithTheirInodes(cluster);
    }
  }

  @Test
  void anAclSetThroughOneNamenodeIsEnforcedByAnother() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      enforcedByAnotherNamenode(cluster);
    }
  }

  @Test
  void concatTakesTheSourcesAttributesAway() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf())) {
      cluster.startDatanodes(1);
      Storage storage = cluster.namenode().namesystem().storage();
      try (DistributedFileSystem fs = cluster.client()) {
        Path target = new Path("/cc/target");
        Path src = new Path("/cc/src");
        for (Path p : List.of(target, src)) {
          try (var out = fs.create(p, true, 4096, (short) 1, 1024 * 1024)) {
            out.write(new byte[1000]);
          }
        }
        fs.setXAttr(target, "user.t", bytes("kept"));
        fs.setXAttr(src, "user.s", bytes("gone"));
        fs.modifyAclEntries(src, acl("user:alice:r--"));
        assertThat(rows(storage)).hasSize(3);
        fs.concat(target, new Path[] {src});
        assertThat(rows(storage)).extracting(XAttrRow::name).containsExactly("t");
        assertThat(NamespaceChecker.violations(storage)).isEmpty();
      }
    }
  }

  @Test
  void aNameLongerThanTheTableHoldsIsRefusedClearly() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster(conf());
        DistributedFileSystem fs = cluster.client()) {
      Path f = new Path("/long");
      fs.create(f).close();
      String fits = "user." + "n".repeat(1024);
      fs.setXAttr(f, fits, bytes("v"));
      assertThat(fs.getXAttr(f, fits)).isEqualTo(bytes("v"));
      // HDFS would take it (name and value are under 16384 bytes): hops says why it does not,
      // never with a database exception.
      assertThatThrownBy(() -> fs.setXAttr(f, "user." + "n".repeat(1025), bytes("v")))
          .hasMessageContaining("The XAttr name is too long. hops stores names of at most 1024")
          .hasMessageNotContaining("StorageException");
    }
  }

  @Test
  void overMariadb() throws Exception {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull(conf());
    assumeTrue(cluster != null, "HOPS_TEST_MYSQL_URL is not set");
    try (cluster) {
      rowsGoWithTheirInodes(cluster);
      enforcedByAnotherNamenode(cluster);
    }
  }

  private static void rowsGoWithTheirInodes(HopsTestCluster cluster) throws Exception {
    Storage storage = cluster.namenode().namesystem().storage();
    try (DistributedFileSystem fs = cluster.client()) {
      // A tree larger than one transaction may delete: the subtree protocol's level batches.
      for (int d = 0; d < 3; d++) {
        for (int f = 0; f < 6; f++) {
          Path file = new Path("/t/d" + d + "/f" + f);
          fs.create(file).close();
          fs.setXAttr(file, "user.k", bytes("v" + f));
          fs.modifyAclEntries(file, acl("user:alice:r--"));
        }
        Path dir = new Path("/t/d" + d);
        fs.setXAttr(dir, "user.dir", bytes("d"));
        fs.setAcl(dir, acl("user::rwx,group::r-x,other::r-x,default:user:bob:rwx"));
      }
      assertThat(rows(storage)).hasSize(3 * 6 * 2 + 3 * 2);
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      assertThat(fs.getContentSummary(new Path("/t")).getFileAndDirectoryCount())
          .isGreaterThan(SUBTREE_BOUND);
      assertThat(fs.delete(new Path("/t"), true)).isTrue();
      io.hops.namenode.subtree.Reclaims.await(storage);
      assertThat(rows(storage)).isEmpty();

      // One file; an overwriting create; an overwriting rename.
      fs.create(new Path("/u/a")).close();
      fs.setXAttr(new Path("/u/a"), "user.k", bytes("a"));
      fs.create(new Path("/u/b")).close();
      fs.setAcl(new Path("/u/b"), acl("user::rw-,user:alice:rw-,group::r--,other::---"));
      fs.create(new Path("/u/c")).close();
      fs.setXAttr(new Path("/u/c"), "trusted.k", bytes("c"));
      assertThat(rows(storage)).hasSize(3);
      fs.create(new Path("/u/a"), true).close();
      assertThat(fs.getXAttrs(new Path("/u/a"))).isEmpty();
      fs.rename(new Path("/u/a"), new Path("/u/b"), Options.Rename.OVERWRITE);
      assertThat(fs.getAclStatus(new Path("/u/b")).getEntries()).isEmpty();
      assertThat(fs.delete(new Path("/u/c"), false)).isTrue();
      assertThat(rows(storage)).isEmpty();
      assertThat(NamespaceChecker.violations(storage)).isEmpty();
      fs.delete(new Path("/u"), true);

      // A tree over the bound that only named-user entries let alice delete: the subtree
      // protocol's walk checks each directory with its ACL.
      UserGroupInformation alice =
          UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
      try (DistributedFileSystem asAlice =
          (DistributedFileSystem)
              alice.doAs((PrivilegedExceptionAction<FileSystem>) () -> cluster.client())) {
        List<Path> dirs = List.of(new Path("/w"), new Path("/w/t"), new Path("/w/t/a"));
        for (int i = 0; i < SUBTREE_BOUND + 2; i++) {
          fs.create(new Path("/w/t/a/f" + i)).close();
        }
        for (Path d : dirs) {
          fs.setPermission(d, new FsPermission((short) 0700));
          fs.modifyAclEntries(d, acl("user:alice:rwx"));
        }
        assertThat(asAlice.getContentSummary(new Path("/w/t")).getFileCount())
            .isEqualTo(SUBTREE_BOUND + 2);
        fs.removeAclEntries(new Path("/w/t/a"), AclEntry.parseAclSpec("user:alice", false));
        assertThatThrownBy(() -> asAlice.delete(new Path("/w/t"), true))
            .isInstanceOf(AccessControlException.class)
            .hasMessageContaining("inode=\"/w/t/a\"");
        fs.modifyAclEntries(new Path("/w/t/a"), acl("user:alice:rwx"));
        assertThat(asAlice.delete(new Path("/w/t"), true)).isTrue();
      }
      fs.delete(new Path("/w"), true);
      io.hops.namenode.subtree.Reclaims.await(storage);
      assertThat(rows(storage)).isEmpty();
    }
  }

  private static void enforcedByAnotherNamenode(HopsTestCluster cluster) throws Exception {
    HopsNameNode second = cluster.startAnotherNamenode();
    UserGroupInformation alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
    try (second;
        DistributedFileSystem fs = cluster.client();
        DistributedFileSystem adminOnSecond = cluster.client(second);
        DistributedFileSystem aliceOnSecond =
            (DistributedFileSystem)
                alice.doAs((PrivilegedExceptionAction<FileSystem>) () -> cluster.client(second))) {
      Path dir = new Path("/two");
      Path file = new Path("/two/f");
      fs.mkdirs(dir);
      fs.create(file).close();
      fs.setPermission(file, new FsPermission((short) 0600));
      // The second namenode has resolved the path (its hint cache is warm) before the change.
      assertThatThrownBy(() -> aliceOnSecond.access(file, FsAction.READ))
          .isInstanceOf(AccessControlException.class);

      fs.modifyAclEntries(file, acl("user:alice:rw-"));
      aliceOnSecond.access(file, FsAction.READ_WRITE);
      aliceOnSecond.open(file).close();
      assertThat(aliceOnSecond.getFileStatus(file).hasAcl()).isTrue();
      assertThat(aliceOnSecond.getAclStatus(file).getEntries()).hasSize(2);

      fs.setPermission(file, new FsPermission((short) 0640)); // the mask now withholds write
      assertThatThrownBy(() -> aliceOnSecond.access(file, FsAction.WRITE))
          .isInstanceOf(AccessControlException.class);
      aliceOnSecond.access(file, FsAction.READ);

      fs.removeAcl(file);
      assertThatThrownBy(() -> aliceOnSecond.access(file, FsAction.READ))
          .isInstanceOf(AccessControlException.class);

      fs.setXAttr(file, "user.seen", bytes("everywhere"));
      assertThat(new String(adminOnSecond.getXAttr(file, "user.seen"), StandardCharsets.UTF_8))
          .isEqualTo("everywhere");

      // A default ACL set through the first namenode is inherited by a mkdirs through the second.
      fs.setPermission(dir, new FsPermission((short) 0777));
      fs.modifyAclEntries(dir, acl("default:user:alice:rwx"));
      aliceOnSecond.mkdirs(new Path("/two/sub"));
      assertThat(fs.getAclStatus(new Path("/two/sub")).getEntries())
          .contains(AclEntry.parseAclEntry("user:alice:rwx", true));
      fs.delete(dir, true);
    }
  }

  private static List<XAttrRow> rows(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      List<XAttrRow> all = tx.scanAll(XAttrRow.TABLE, LockMode.READ_COMMITTED);
      tx.commit();
      return all;
    }
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }

  private static List<AclEntry> acl(String spec) {
    return AclEntry.parseAclSpec(spec, true);
  }
}
