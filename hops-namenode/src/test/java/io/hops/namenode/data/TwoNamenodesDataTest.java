package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.datanode.DatanodeLauncher;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Random;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.IOUtils;
import org.junit.jupiter.api.Test;

/**
 * Two namenodes over one store, the datanodes configured with both as one HA nameservice: a file
 * written through the namenode that is not the leader (the datanodes report to the leader) is read
 * through the other, and through the nameservice with the stock failover client.
 */
class TwoNamenodesDataTest {

  @Test
  void aFileWrittenThroughOneNamenodeIsReadThroughTheOther() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        HopsNameNode second = cluster.startAnotherNamenode()) {
      cluster.startDatanodes(3, new Configuration(false), second);
      byte[] data = new byte[3 * 1024 * 1024 + 17];
      new Random(7).nextBytes(data);
      Path p = new Path("/two/f");
      try (DistributedFileSystem viaSecond = cluster.client(second)) {
        try (FSDataOutputStream out = viaSecond.create(p, true, 4096, (short) 3, 1024 * 1024)) {
          out.write(data);
        }
      }
      try (DistributedFileSystem viaLeader = cluster.client(cluster.namenode())) {
        assertThat(readAll(viaLeader, p, data.length)).isEqualTo(data);
        HopsTestCluster.awaitReplicas(viaLeader, p, 3);
      }
      Configuration ha = cluster.clientConf();
      DatanodeLauncher.setNamenodes(
          ha, List.<InetSocketAddress>of(cluster.namenode().address(), second.address()));
      try (FileSystem viaNameservice = FileSystem.get(FileSystem.getDefaultUri(ha), ha)) {
        assertThat(readAll(viaNameservice, p, data.length)).isEqualTo(data);
      }
    }
  }

  private static byte[] readAll(FileSystem fs, Path p, int size) throws IOException {
    byte[] back = new byte[size];
    try (FSDataInputStream in = fs.open(p)) {
      IOUtils.readFully(in, back, 0, size);
      assertThat(in.read()).isEqualTo(-1);
    }
    return back;
  }
}
