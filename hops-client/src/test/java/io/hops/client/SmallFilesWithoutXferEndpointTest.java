package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.LocatedFileStatus;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * With the namenode's data-transfer endpoint off ({@code hops.smallfiles.xfer.port=-1}), a listing
 * with locations of a directory of database files ({@code listLocatedStatus}, how Spark and
 * MapReduce list their input) succeeds for both clients and shows each database file's block with
 * no locations, as HDFS lists a block whose replicas are all gone; hops-client then reads the
 * files, and only a stock client's open of one fails, naming hops-client. Found running Spark with
 * hops-client: the whole listing failed.
 */
class SmallFilesWithoutXferEndpointTest {
  @Test
  void listingWithLocationsShowsDatabaseFilesWithoutAnEndpoint() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    nn.setInt(HopsConfig.SMALL_FILE_XFER_PORT, -1);
    try (HopsTestCluster cluster = new HopsTestCluster(nn)) {
      cluster.startDatanodes(1);
      cluster.waitForLive(1);
      Configuration c = cluster.clientConf();
      c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
      c.setInt("dfs.replication", 1);
      try (DistributedFileSystem stock = cluster.client();
          FileSystem hops = FileSystem.get(cluster.uri(), c)) {
        stock.mkdirs(new Path("/db"));
        stock.setStoragePolicy(new Path("/db"), "DB");
        Map<String, byte[]> written = new TreeMap<>();
        for (int size : new int[] {0, 1, 4096, HopsConfig.SMALL_FILE_MAX_SIZE_DEFAULT + 1}) {
          byte[] data = SmallFilesTest.bytes(size, size);
          written.put("f" + size, data);
          SmallFilesTest.write(hops, new Path("/db/f" + size), data);
        }

        for (FileSystem fs : List.of(hops, stock)) {
          Map<String, LocatedFileStatus> listed = new TreeMap<>();
          RemoteIterator<LocatedFileStatus> it = fs.listLocatedStatus(new Path("/db"));
          while (it.hasNext()) {
            LocatedFileStatus st = it.next();
            listed.put(st.getPath().getName(), st);
          }
          assertThat(listed.keySet()).as(fs.getClass().getName()).isEqualTo(written.keySet());
          for (String name : written.keySet()) {
            assertThat(listed.get(name).getLen()).isEqualTo(written.get(name).length);
          }
          assertThat(listed.get("f0").getBlockLocations()).isEmpty();
          assertThat(listed.get("f4096").getBlockLocations()).hasSize(1);
          assertThat(listed.get("f4096").getBlockLocations()[0].getLength()).isEqualTo(4096);
          assertThat(listed.get("f4096").getBlockLocations()[0].getHosts()).isEmpty();
          assertThat(listed.get("f65537").getBlockLocations()[0].getHosts()).hasSize(1);
        }

        for (Map.Entry<String, byte[]> e : written.entrySet()) {
          assertThat(SmallFilesTest.read(hops, new Path("/db/" + e.getKey())))
              .as(e.getKey())
              .isEqualTo(e.getValue());
        }
        assertThatThrownBy(() -> SmallFilesTest.read(stock, new Path("/db/f4096")))
            .isInstanceOf(IOException.class)
            .hasMessageContaining("read it with hops-client");
      }
    }
  }
}
