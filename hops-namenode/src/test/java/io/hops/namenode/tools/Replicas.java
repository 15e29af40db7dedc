package io.hops.namenode.tools;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.ReplicaRow;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.hdfs.DistributedFileSystem;

/**
 * Marks replicas corrupt the way a bad-block report would, straight in {@code corrupt_replicas}, so
 * tests of what operators see do not depend on how corruption is detected.
 */
final class Replicas {
  private Replicas() {}

  /** The finalized replicas of a one-block file. */
  static List<ReplicaRow> of(Storage storage, DistributedFileSystem fs, String path)
      throws IOException {
    long inode = fs.getClient().getFileInfo(path).getFileId();
    try (Transaction tx = storage.begin()) {
      return tx.findByPartition(ReplicaRow.TABLE, inode, LockMode.READ_COMMITTED);
    }
  }

  static void markCorrupt(Storage storage, List<ReplicaRow> replicas) throws IOException {
    try (Transaction tx = storage.begin()) {
      for (ReplicaRow r : replicas) {
        tx.insert(
            CorruptReplicaRow.TABLE,
            new CorruptReplicaRow(
                r.inodeId(), r.blockId(), r.storageId(), System.currentTimeMillis(), "test"));
      }
      tx.commit();
    }
  }

  static void unmark(Storage storage, List<ReplicaRow> replicas) throws IOException {
    try (Transaction tx = storage.begin()) {
      for (ReplicaRow r : replicas) {
        tx.delete(
            CorruptReplicaRow.TABLE,
            CorruptReplicaRow.TABLE.key(r.inodeId(), r.blockId(), r.storageId()));
      }
      tx.commit();
    }
  }
}
