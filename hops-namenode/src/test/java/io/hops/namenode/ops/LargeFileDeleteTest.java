package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.io.EnumSetWritable;
import org.junit.jupiter.api.Test;

/**
 * Deleting a file of 100,000 blocks is not one transaction of hundreds of thousands of row writes:
 * the delete writes a handful of rows and names the file in {@code released_files}; the leader
 * frees its blocks afterwards, at most 1,000 per transaction, each replica becoming an
 * invalidation, and the queue row goes with the last batch.
 */
class LargeFileDeleteTest {
  private static final int BLOCKS = 100_000;
  private static final int FAKE_STORAGE = 999;

  @Test
  void aFileOfOneHundredThousandBlocksIsFreedInBoundedTransactions() throws Exception {
    Configuration conf = new Configuration(false);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 3_600_000); // rounds run when asked
    conf.setInt(NamenodeConfig.TRANSACTION_MAX_ROWS, 16_000); // 1,000 blocks per release batch
    try (HopsTestCluster cluster = new HopsTestCluster(conf);
        DistributedFileSystem fs = cluster.client()) {
      List<String> ops = Collections.synchronizedList(new ArrayList<>());
      List<AccessCounts> counts = Collections.synchronizedList(new ArrayList<>());
      cluster
          .namenode()
          .namesystem()
          .runner()
          .observe(
              (op, c) -> {
                ops.add(op);
                counts.add(c);
              });
      ClientProtocol nn = fs.getClient().getNamenode();
      fs.mkdirs(new org.apache.hadoop.fs.Path("/big"));
      nn.create(
          "/big/f",
          FsPermission.getFileDefault(),
          "writer-of-big",
          new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
          true,
          (short) 1,
          1024 * 1024,
          CryptoProtocolVersion.supported(),
          null,
          null);
      long file = nn.getFileInfo("/big/f").getFileId();
      Storage storage = cluster.namenode().namesystem().storage();
      long firstBlock = 1_000_000_000_000L;
      for (int i = 0; i < BLOCKS; i += 5000) {
        try (Transaction tx = storage.begin()) {
          for (int j = i; j < i + 5000; j++) {
            long b = firstBlock + j;
            BlockInfoRow block =
                new BlockInfoRow(file, b, j, j * 1024L, 1024, 1, BlockState.COMPLETE, 0, -1, 0);
            tx.insert(BlockInfoRow.TABLE, block);
            tx.insert(BlockOffsetRow.TABLE, BlockOffsetRow.of(block));
            tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(b, file));
            tx.insert(ReplicaRow.TABLE, new ReplicaRow(file, b, FAKE_STORAGE, 0));
          }
          tx.commit();
        }
      }

      ops.clear();
      counts.clear();
      assertThat(nn.delete("/big/f", false)).isTrue();
      AccessCounts delete = counts.get(ops.indexOf("delete"));
      assertThat(delete.rowsWritten()).as("rows written by the delete").isLessThan(20);
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/big/f"))).isFalse();
      try (Transaction tx = storage.begin()) {
        assertThat(tx.find(ReleasedFileRow.TABLE, ReleasedFileRow.TABLE.key(file), rc()))
            .isNotNull();
      }

      long deadline = System.nanoTime() + 30_000_000_000L;
      while (!cluster.namenode().namesystem().blocks().isLeader()) {
        assertThat(System.nanoTime()).as("leader within 30 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      for (int round = 0; round < 20 && !released(storage, file); round++) {
        cluster.namenode().housekeeping().runOnce();
      }
      assertThat(released(storage, file)).as("released within 20 rounds").isTrue();
      int batches = 0;
      for (int i = 0; i < ops.size(); i++) {
        if (ops.get(i).equals("releaseBlocks")) {
          batches++;
          // 1,000 blocks, their offset rows, their replicas, their invalidations: a few thousand
          // rows written; read, the same and a page past the batch's range of each table that has
          // more.
          assertThat(counts.get(i).rowsWritten()).isLessThanOrEqualTo(4 * 1000 + 1);
          assertThat(counts.get(i).rowsRead()).isLessThanOrEqualTo(4 * 1000 + 1);
        }
      }
      assertThat(batches).isBetween(BLOCKS / 1000, BLOCKS / 1000 + 1);
      try (Transaction tx = storage.begin()) {
        assertThat(tx.findByPartition(BlockInfoRow.TABLE, file, rc())).isEmpty();
        assertThat(tx.findByPartition(BlockOffsetRow.TABLE, file, rc())).isEmpty();
        assertThat(tx.findByPartition(ReplicaRow.TABLE, file, rc())).isEmpty();
        // Every replica is to be deleted (or already dropped, its storage being unknown).
        int invalidations = tx.findByPartition(InvalidatedBlockRow.TABLE, file, rc()).size();
        assertThat(invalidations).isLessThanOrEqualTo(BLOCKS);
      }
    }
  }

  private static boolean released(Storage storage, long file) throws Exception {
    try (Transaction tx = storage.begin()) {
      return tx.find(ReleasedFileRow.TABLE, ReleasedFileRow.TABLE.key(file), rc()) == null;
    }
  }

  private static LockMode rc() {
    return LockMode.READ_COMMITTED;
  }
}
