package io.hops.namenode.blocks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.hops.namenode.HopsTestCluster;
import java.util.function.LongSupplier;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * A datanode's info is built once per heartbeat and shared by the calls in between: what clients
 * see of it (reports, block locations) still moves with every heartbeat.
 */
class DatanodeInfoFollowsHeartbeatsTest {
  @Test
  void reportsAndBlockLocationsShowTheLatestHeartbeat() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      cluster.startDatanodes(1);
      DistributedFileSystem fs = cluster.client(cluster.namenode());
      Path file = new Path("/f");
      try (FSDataOutputStream out = fs.create(file)) {
        out.write(1);
      }
      LongSupplier reported = () -> uncheckedLastUpdate(fs, null);
      LongSupplier located = () -> uncheckedLastUpdate(fs, file);
      assertEquals(reported.getAsLong(), located.getAsLong());
      assertAdvances(reported);
      assertAdvances(located);
    }
  }

  private static void assertAdvances(LongSupplier lastUpdate) throws InterruptedException {
    long first = lastUpdate.getAsLong();
    long deadline = System.currentTimeMillis() + 30_000;
    long later = first;
    while (later == first && System.currentTimeMillis() < deadline) {
      Thread.sleep(100);
      later = lastUpdate.getAsLong();
    }
    assertTrue(later > first, "last update stayed at " + first);
  }

  private static long uncheckedLastUpdate(DistributedFileSystem fs, Path file) {
    try {
      if (file == null) {
        return fs.getDataNodeStats()[0].getLastUpdate();
      }
      return fs.getClient()
          .getLocatedBlocks(file.toString(), 0)
          .get(0)
          .getLocations()[0]
          .getLastUpdate();
    } catch (java.io.IOException e) {
      throw new java.io.UncheckedIOException(e);
    }
  }
}
