package io.hops.namenode.data;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.BlockReportOptions;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * A full block report is diffed against the persisted replica locations: replicas the store lost
 * come back, and a replica the store does not know of a block no file has is invalidated.
 */
class FullBlockReportTest {

  @Test
  void aFullReportRestoresLostLocationsAndInvalidatesUnknownBlocks() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setLong("hops.namenode.housekeeping.interval.ms", 3_600_000); // no invalidation sent
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      List<DataNode> dns = cluster.startDatanodes(1);
      Storage storage = cluster.namenode().namesystem().storage();
      try (DistributedFileSystem fs = cluster.client()) {
        Path p = new Path("/fbr/f");
        try (FSDataOutputStream out = fs.create(p, true, 4096, (short) 1, 64 * 1024)) {
          out.write(new byte[5 * 64 * 1024]); // 5 blocks
        }
        long inode = fs.getClient().getFileInfo("/fbr/f").getFileId();
        List<ReplicaRow> before = replicas(storage, inode);
        assertThat(before).hasSize(5);

        // The store loses two locations; the datanode's next full report brings them back.
        try (Transaction tx = storage.begin()) {
          tx.delete(ReplicaRow.TABLE, before.get(0));
          tx.delete(ReplicaRow.TABLE, before.get(3));
          tx.commit();
        }
        assertThat(replicas(storage, inode)).hasSize(3);
        var metrics = cluster.namenode().namesystem().runner().metrics();
        long batches = metrics.get("blockReportBatch").count();
        dns.get(0)
            .triggerBlockReport(new BlockReportOptions.Factory().setIncremental(false).build());
        awaitReplicas(storage, inode, 5);
        // Both differences in one transaction (its metrics are recorded just after the commit).
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (metrics.get("blockReportBatch").count() == batches && System.nanoTime() < deadline) {
          Thread.sleep(10);
        }
        assertThat(metrics.get("blockReportBatch").count()).isEqualTo(batches + 1);

        // A file deleted behind the datanode's back (rows gone, invalidations not sent): its
        // blocks are unknown to the next full report and are invalidated.
        fs.delete(p, false);
        try (Transaction tx = storage.begin()) {
          for (InvalidatedBlockRow r :
              tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
            tx.delete(InvalidatedBlockRow.TABLE, r);
          }
          tx.commit();
        }
        dns.get(0)
            .triggerBlockReport(new BlockReportOptions.Factory().setIncremental(false).build());
        deadline = System.nanoTime() + 30_000_000_000L;
        while (invalidations(storage) < 5 && System.nanoTime() < deadline) {
          Thread.sleep(100);
        }
        assertThat(invalidations(storage)).isEqualTo(5);
      }
    }
  }

  private static void awaitReplicas(Storage storage, long inode, int n) throws Exception {
    long deadline = System.nanoTime() + 30_000_000_000L;
    while (replicas(storage, inode).size() < n && System.nanoTime() < deadline) {
      Thread.sleep(100);
    }
    assertThat(replicas(storage, inode)).hasSize(n);
  }

  private static List<ReplicaRow> replicas(Storage storage, long inode) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(ReplicaRow.TABLE, inode, LockMode.READ_COMMITTED);
    }
  }

  private static int invalidations(Storage storage) throws IOException {
    try (Transaction tx = storage.begin()) {
      return tx.scanAll(InvalidatedBlockRow.TABLE, LockMode.READ_COMMITTED).size();
    }
  }
}
