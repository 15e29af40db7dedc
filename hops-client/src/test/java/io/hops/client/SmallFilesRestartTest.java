package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.config.NamenodeConfig;
import java.util.Arrays;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.Test;

/**
 * A small file whose create-and-complete returned is in the database, not in the namenode: the
 * namenode is stopped at once without a clean shutdown and a new one over the same database serves
 * it, with the cluster-wide default key instead of a policy on the directory.
 */
class SmallFilesRestartTest {

  @Test
  void fileIsThereAfterTheNamenodeDiesAndAnotherStarts() throws Exception {
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.EMBEDDED_DIR, "mem:smallfiles-restart-" + System.nanoTime());
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    conf.setBoolean(HopsConfig.SMALL_FILE_DB_BY_DEFAULT, true);
    byte[] data = SmallFilesTest.bytes(4096, 42);
    HopsNameNode first = HopsNameNode.start(conf);
    try (FileSystem fs = client(first)) {
      try (FSDataOutputStream out = fs.create(new Path("/k/f"))) {
        out.write(data);
      }
    }
    first.crash();
    HopsNameNode second = HopsNameNode.start(conf);
    try (FileSystem fs = client(second)) {
      assertThat(fs.getFileStatus(new Path("/k/f")).getLen()).isEqualTo(4096);
      byte[] back;
      try (var in = fs.open(new Path("/k/f"))) {
        back = IOUtils.readFullyToByteArray(in);
      }
      assertThat(Arrays.equals(back, data)).isTrue();
      assertThat(
              second
                  .namesystem()
                  .storage()
                  .begin()
                  .find(
                      io.hops.dal.rows.OnDiskMediumFileDataRow.TABLE,
                      io.hops.dal.rows.OnDiskMediumFileDataRow.TABLE.key(
                          ((org.apache.hadoop.hdfs.DistributedFileSystem) fs)
                              .getClient()
                              .getFileInfo("/k/f")
                              .getFileId()),
                      io.hops.dal.LockMode.READ_COMMITTED))
          .isNotNull();
    } finally {
      second.close();
    }
  }

  private static FileSystem client(HopsNameNode nn) throws Exception {
    Configuration c = new Configuration();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 2);
    return FileSystem.get(java.net.URI.create(nn.uri()), c);
  }
}
