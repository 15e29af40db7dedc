package io.hops.namenode.contract;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileSystemContractBaseTest;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * Hadoop's file system contract over WebHDFS ({@code webhdfs://}) against a hops namenode with two
 * stock datanodes, set up as Hadoop's own {@code TestWebHdfsFileSystemContract} sets up HDFS (root
 * writable by all, a test user of group {@code user}, its home as the working directory), with that
 * class's WebHDFS-specific expectation for mkdirs under a file restated.
 */
public class TestHopsWebHdfsFileSystemContract extends FileSystemContractBaseTest {
  private static HopsTestCluster cluster;

  private String defaultWorkingDirectory;

  @BeforeAll
  public static void createCluster() throws IOException {
    Configuration conf = new Configuration(false);
    // Hadoop's own test hdfs-site.xml lifts the minimum so that the suite's 1 KB blocks are
    // allowed.
    conf.setLong(DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY, 0);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(2);
    try (DistributedFileSystem dfs = cluster.client()) {
      dfs.setPermission(new Path("/"), new FsPermission((short) 0777));
    }
  }

  @AfterAll
  public static void destroyCluster() {
    if (cluster != null) {
      cluster.close();
      cluster = null;
    }
  }

  @BeforeEach
  public void setUp() throws Exception {
    UserGroupInformation ugi =
        UserGroupInformation.createUserForTesting(
            UserGroupInformation.getCurrentUser().getShortUserName() + "x", new String[] {"user"});
    InetSocketAddress http = cluster.namenode().httpAddress();
    URI uri = URI.create("webhdfs://" + http.getHostString() + ":" + http.getPort());
    Configuration conf = cluster.clientConf();
    fs =
        ugi.doAs(
            (PrivilegedExceptionAction<WebHdfsFileSystem>)
                () -> (WebHdfsFileSystem) FileSystem.newInstance(uri, conf));
    defaultWorkingDirectory = fs.getWorkingDirectory().toUri().getPath();
  }

  @Override
  protected String getDefaultWorkingDirectory() {
    return defaultWorkingDirectory;
  }

  @Override
  protected int getGlobalTimeout() {
    return 60000;
  }

  /**
   * WebHDFS reports the failed mkdirs under a file as an exception, not as false, and a status
   * below a file to a user that is not the superuser as an access error.
   */
  @Test
  @Override
  public void testMkdirsFailsForSubdirectoryOfExistingFile() throws Exception {
    Path testDir = path("/test/hadoop");
    assertFalse(fs.exists(testDir));
    assertTrue(fs.mkdirs(testDir));
    assertTrue(fs.exists(testDir));
    createFile(path("/test/hadoop/file"));
    for (String below :
        new String[] {"/test/hadoop/file/subdir", "/test/hadoop/file/deep/sub/dir"}) {
      Path p = path(below);
      try {
        fs.mkdirs(p);
        fail("Should throw IOException.");
      } catch (IOException expected) {
        // as HDFS: ParentNotDirectoryException
      }
      try {
        assertFalse(fs.exists(p));
      } catch (AccessControlException expected) {
        // as HDFS: "... (is not a directory)"
      }
    }
  }
}
