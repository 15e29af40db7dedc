package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.namenode.HopsTestCluster;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * The database accesses of the attribute and ACL calls, hint cache warm, and what ACLs cost other
 * operations: nothing while no inode on the path has one (the inode's flag says so), one
 * primary-key read per path when one does.
 */
class XAttrAclCostTest {
  private static final Map<String, AccessCounts> LAST = new ConcurrentHashMap<>();

  @Test
  void attributeAndAclCallsCostWhatTheirLocksSay() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      cluster.namenode().namesystem().runner().observe(LAST::put);
      Path dir = new Path("/cost/d");
      Path file = new Path("/cost/d/f");
      fs.mkdirs(dir);
      fs.create(file).close();
      fs.getFileStatus(file);
      String stat = cost("getFileInfo");

      fs.setXAttr(file, "user.a", bytes("1"));
      String firstSet = cost("setXAttr");
      fs.setXAttr(file, "user.b", bytes("2"));
      String nextSet = cost("setXAttr");
      fs.getXAttrs(file);
      String get = cost("getXAttrs");
      fs.listXAttrs(dir);
      String listNone = cost("listXAttrs");
      fs.removeXAttr(file, "user.a");
      String remove = cost("removeXAttr");
      fs.getFileStatus(file);
      String statWithXAttrs = cost("getFileInfo");

      fs.modifyAclEntries(dir, AclEntry.parseAclSpec("user:alice:r-x", true));
      String firstAcl = cost("modifyAclEntries");
      fs.modifyAclEntries(dir, AclEntry.parseAclSpec("user:bob:r-x", true));
      String nextAcl = cost("modifyAclEntries");
      fs.getAclStatus(dir);
      String aclStatus = cost("getAclStatus");
      fs.getFileStatus(file);
      String statBelowAcl = cost("getFileInfo");
      fs.access(file, FsAction.READ);
      String access = cost("checkAccess");

      System.out.printf(
          "stat %s | setXAttr first %s, next %s | getXAttrs %s | listXAttrs of none %s"
              + " | removeXAttr %s | stat with xattrs %s | modifyAcl first %s, next %s"
              + " | getAclStatus %s | stat below an ACL %s | checkAccess %s%n",
          stat,
          firstSet,
          nextSet,
          get,
          listNone,
          remove,
          statWithXAttrs,
          firstAcl,
          nextAcl,
          aclStatus,
          statBelowAcl,
          access);
      // Attributes cost nothing to calls that do not ask for them.
      assertThat(statWithXAttrs).isEqualTo(stat);
      // An inode without attributes is not scanned; with some, one pruned scan of its partition.
      // Every write also reads the safe-mode row under a shared lock (PK(SHARED)).
      assertThat(firstSet).isEqualTo("PK(SHARED) + PK(EXCLUSIVE) + B + W");
      assertThat(nextSet).isEqualTo("PK(SHARED) + PK(EXCLUSIVE) + B + PPIS + W");
      assertThat(get).isEqualTo("PK(SHARED) + B + PPIS");
      assertThat(listNone).isEqualTo("PK(SHARED) + B");
      assertThat(remove).isEqualTo("PK(SHARED) + PK(EXCLUSIVE) + B + PPIS + W");
      // The ACL row is read with the path (one PK for one inode with an ACL).
      assertThat(firstAcl).isEqualTo("PK(SHARED) + PK(EXCLUSIVE) + B + W");
      assertThat(nextAcl).isEqualTo("PK + PK(SHARED) + PK(EXCLUSIVE) + B + W");
      assertThat(aclStatus).isEqualTo("PK + PK(SHARED) + B");
      assertThat(statBelowAcl).isEqualTo("PK + " + stat);
      assertThat(access).isEqualTo("PK + PK(SHARED) + B");
    }
  }

  private static String cost(String op) {
    return LAST.get(op).toString();
  }

  private static byte[] bytes(String s) {
    return s.getBytes(StandardCharsets.UTF_8);
  }
}
