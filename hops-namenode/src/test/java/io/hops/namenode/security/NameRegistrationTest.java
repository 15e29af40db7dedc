package io.hops.namenode.security;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.GroupRow;
import io.hops.dal.rows.UserRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/**
 * A user or group name is stored in {@code hdfs_users} / {@code hdfs_groups} only when an inode is
 * written with it, never because someone called: any caller could otherwise grow the tables and
 * every namenode's name caches without bound.
 */
class NameRegistrationTest {

  private static boolean stored(Storage s, String user, String group) throws Exception {
    try (Transaction tx = s.begin()) {
      return user != null
          ? !tx.findByIndex(UserRow.TABLE, "name", user, LockMode.READ_COMMITTED).isEmpty()
          : !tx.findByIndex(GroupRow.TABLE, "name", group, LockMode.READ_COMMITTED).isEmpty();
    }
  }

  private static <T> T as(String user, HopsTestCluster c, HopsNameNode nn, Call<T> call)
      throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, new String[] {user});
    Configuration conf = new Configuration(c.clientConf());
    return ugi.doAs(
        (PrivilegedExceptionAction<T>)
            () -> {
              try (FileSystem fs = FileSystem.newInstance(java.net.URI.create(nn.uri()), conf)) {
                return call.on(fs);
              }
            });
  }

  private interface Call<T> {
    T on(FileSystem fs) throws Exception;
  }

  @Test
  void namesAreStoredOnlyWithTheInodesThatCarryThem() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem admin = cluster.client()) {
      Storage s = cluster.namenode().namesystem().storage();
      HopsNameNode nn = cluster.namenode();
      admin.mkdirs(new Path("/tmp"));
      admin.setPermission(new Path("/tmp"), new FsPermission((short) 0777));
      admin.create(new Path("/tmp/admins")).close();

      // Calls that write no inode with the caller's name store no name.
      as(
          "mallory",
          cluster,
          nn,
          fs -> {
            fs.getFileStatus(new Path("/tmp"));
            fs.listStatus(new Path("/"));
            assertThatThrownBy(() -> fs.setOwner(new Path("/tmp/admins"), "eve", "evil"))
                .isInstanceOf(AccessControlException.class);
            assertThatThrownBy(
                    () -> fs.setPermission(new Path("/tmp/admins"), FsPermission.getDefault()))
                .isInstanceOf(AccessControlException.class);
            return null;
          });
      assertThat(stored(s, "mallory", null)).isFalse();
      assertThat(stored(s, "eve", null)).isFalse();
      assertThat(stored(s, null, "evil")).isFalse();
      assertThatThrownBy(() -> admin.setOwner(new Path("/nowhere"), "ghost", "ghosts"))
          .isInstanceOf(java.io.FileNotFoundException.class);
      assertThat(stored(s, "ghost", null)).isFalse();
      assertThat(stored(s, null, "ghosts")).isFalse();

      // An inode written with a name stores it.
      admin.setOwner(new Path("/tmp/admins"), "bob", "staff");
      assertThat(stored(s, "bob", null)).isTrue();
      assertThat(stored(s, null, "staff")).isTrue();
      as("mallory", cluster, nn, fs -> fs.mkdirs(new Path("/tmp/m")));
      assertThat(stored(s, "mallory", null)).isTrue();
      assertThat(admin.getFileStatus(new Path("/tmp/m")).getOwner()).isEqualTo("mallory");

      // Another namenode that has not seen the name still knows its owner.
      try (HopsNameNode other = cluster.startAnotherNamenode()) {
        as(
            "mallory",
            cluster,
            other,
            fs -> {
              fs.setPermission(new Path("/tmp/m"), new FsPermission((short) 0700));
              return null;
            });
      }
      assertThat(admin.getFileStatus(new Path("/tmp/m")).getPermission().toShort())
          .isEqualTo((short) 0700);
    }
  }
}
