package io.hops.namenode.rpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

class MetadataOverRpcTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  @Test
  void mkdirsWithParentsIsVisibleToTheStockClient() throws Exception {
    assertThat(fs.mkdirs(new Path("/a/b/c"))).isTrue();
    FileStatus st = fs.getFileStatus(new Path("/a/b/c"));
    assertThat(st.isDirectory()).isTrue();
    assertThat(st.getOwner()).isEqualTo(System.getProperty("user.name"));
    assertThat(fs.getFileStatus(new Path("/a")).getPermission())
        .isEqualTo(new FsPermission((short) 0755));
  }

  @Test
  void statOfAMissingPathIsFileNotFound() {
    assertThatThrownBy(() -> fs.getFileStatus(new Path("/missing/x")))
        .isInstanceOf(FileNotFoundException.class);
  }

  @Test
  void unimplementedCallsNameThemselves() {
    assertThatThrownBy(
            () ->
                fs.getClient()
                    .getNamenode()
                    .rollingUpgrade(
                        org.apache.hadoop.hdfs.protocol.HdfsConstants.RollingUpgradeAction.PREPARE))
        .hasMessageContaining("ClientProtocol.rollingUpgrade PREPARE is not supported by hops");
  }
}
