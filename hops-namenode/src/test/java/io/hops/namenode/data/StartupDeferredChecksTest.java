package io.hops.namenode.data;

import static io.hops.namenode.data.BlockFiles.bytes;
import static io.hops.namenode.data.BlockFiles.holders;
import static io.hops.namenode.data.BlockFiles.located;
import static io.hops.namenode.data.BlockFiles.read;
import static io.hops.namenode.data.BlockFiles.waitFor;
import static io.hops.namenode.data.BlockFiles.write;
import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.blocks.DeferredChecks;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.config.NamenodeConfig;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.junit.jupiter.api.Test;

/**
 * A cluster that starts again (a new namenode over the metadata, stock DataNodes that live on) in
 * which one datanode's replicas were forgotten: its first full report, in startup safe mode, adds
 * them without queueing checks, and once safe mode ends the leader's walk still finds the file that
 * is over-replicated (its excess replicas deleted from the disks) and the one that is
 * under-replicated (copied to the third datanode), as HDFS does when it leaves safe mode.
 */
class StartupDeferredChecksTest {
  private static final int BLOCK = 1024;

  @Test
  void afterAStartTheWalkDeletesExcessReplicasAndCopiesMissingOnes() throws Exception {
    Path dir = Files.createTempDirectory("hops-deferred-");
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    conf.setInt(NamenodeConfig.RPC_PORT, port);
    conf.setInt(NamenodeConfig.HTTP_PORT, 0); // tests run in parallel forks
    conf.setLong("dfs.namenode.fs-limits.min-block-size", BLOCK);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.heartbeat.recheck-interval", 500);
    conf.setLong("dfs.namenode.safemode.extension", 0);
    // Safe mode waits for the forgotten datanode's report: a block is safe on two datanodes.
    conf.setInt("dfs.namenode.safemode.replication.min", 2);
    Configuration quiet = new Configuration(conf);
    quiet.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // no check before the crash
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    List<DataNode> dns = new ArrayList<>();
    HopsNameNode second = null;
    try (Storage storage = Storages.open(NamenodeConfig.dalConfig(conf))) {
      HopsNameNode first = HopsNameNode.start(quiet, storage);
      InetSocketAddress address = first.address();
      dns.addAll(BlockFiles.startDatanodes(dir, address, 3));
      byte[] data = bytes(2 * BLOCK + 100, 7);
      try (DistributedFileSystem fs = client(port)) {
        waitFor("the datanodes are live", 30, () -> fs.getDataNodeStats().length == 3);
        write(fs, "/over", data, (short) 3, BLOCK);
        write(fs, "/under", data, (short) 2, BLOCK);
        waitFor(
            "the replicas written", 30, () -> onEach("/over", 3, fs) && onEach("/under", 2, fs));
        // Their checks are queued but not made: the namenode does no housekeeping.
        fs.setReplication(new org.apache.hadoop.fs.Path("/over"), (short) 2);
        fs.setReplication(new org.apache.hadoop.fs.Path("/under"), (short) 3);
        // A holder of /under's first block: safe mode then waits for its report (see conf).
        String forgotten = holders(located(fs, "/under").get(0)).iterator().next();
        List<Integer> storages = new ArrayList<>();
        for (StorageStat s : first.namesystem().blocks().datanodes().node(forgotten).storages()) {
          storages.add(s.ref.id());
        }

        // The cluster stops; its queued checks go, and one datanode's replicas are forgotten.
        first.crash();
        for (DataNode dn : dns) {
          dn.shutdown();
        }
        dns.clear();
        try (Transaction tx = storage.begin()) {
          for (UnderReplicatedBlockRow r :
              tx.scanAll(UnderReplicatedBlockRow.TABLE, LockMode.READ_COMMITTED)) {
            tx.delete(UnderReplicatedBlockRow.TABLE, r);
          }
          for (int id : storages) {
            for (var k : tx.findKeysByIndex(ReplicaRow.TABLE, "storage_id", id)) {
              tx.delete(ReplicaRow.TABLE, k);
            }
          }
          tx.commit();
        }
        second = HopsNameNode.start(conf, storage);
        // It starts: the leader defers the checks before the datanodes come back and report.
        waitFor("the checks deferred", 60, () -> deferral(storage) != null);
        dns.addAll(BlockFiles.startDatanodes(dir, address, 3));
        try (DistributedFileSystem after = client(port)) {

          waitFor("safe mode left", 60, () -> !inSafeMode(after));
          waitFor(
              "two replicas of /over on disk and located, three of /under",
              60,
              () ->
                  onEach("/over", 2, after)
                      && onEach("/under", 3, after)
                      && onDisks("/over", after, dns) == 2 * located(after, "/over").size());
          assertThat(read(after, "/over", data.length)).isEqualTo(data);
          assertThat(read(after, "/under", data.length)).isEqualTo(data);
          assertThat(deferral(storage)).as("the walk ended").isNull();
        }
      } finally {
        for (DataNode dn : dns) {
          dn.shutdown();
        }
        if (second != null) {
          second.close();
        }
      }
    } finally {
      FileUtil.fullyDelete(dir.toFile());
    }
  }

  private static DistributedFileSystem client(int port) throws java.io.IOException {
    Configuration client = new Configuration(false);
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    return (DistributedFileSystem) FileSystem.get(URI.create("hdfs://127.0.0.1:" + port), client);
  }

  private static VariableRow deferral(Storage storage) throws java.io.IOException {
    try (Transaction tx = storage.begin()) {
      return tx.find(VariableRow.TABLE, DeferredChecks.key(), LockMode.READ_COMMITTED);
    }
  }

  /** Whether the namenode is in safe mode; a connection to the namenode that died retried. */
  private static boolean inSafeMode(DistributedFileSystem fs) {
    try {
      return fs.setSafeMode(SafeModeAction.SAFEMODE_GET);
    } catch (java.io.IOException e) {
      return true;
    }
  }

  private static boolean onEach(String path, int n, DistributedFileSystem fs)
      throws java.io.IOException {
    List<LocatedBlock> blocks = located(fs, path);
    return !blocks.isEmpty() && blocks.stream().allMatch(b -> holders(b).size() == n);
  }

  /** How many block files of the file the datanodes' disks hold. */
  private static int onDisks(String path, DistributedFileSystem fs, List<DataNode> dns)
      throws java.io.IOException {
    int n = 0;
    for (LocatedBlock b : located(fs, path)) {
      for (DataNode dn : dns) {
        if (BlockFiles.blockFile(dn, b.getBlock().getBlockId()).isPresent()) {
          n++;
        }
      }
    }
    return n;
  }
}
