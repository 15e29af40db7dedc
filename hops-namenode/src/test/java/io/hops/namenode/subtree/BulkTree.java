package io.hops.namenode.subtree;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * Test setup for issue 11's sizes: a tree of {@code dirs} directories of {@code files} empty files
 * each, written straight into the store below a directory made through the client. Creating 200,000
 * files through the namenode takes about two minutes on the test machines; written here in
 * transactions of a few thousand rows it takes seconds. The rows are what the namenode itself
 * writes for {@code mkdirs} and an empty file's {@code create}+{@code close} (the namespace check
 * passes over them), with ids from a range the namenode's allocator never reaches. The operations
 * under test then go through the stock client as usual.
 */
public final class BulkTree {
  private static final AtomicLong NEXT_ID = new AtomicLong(1L << 42);
  private static final int ROWS_PER_TX = 4_000;

  private BulkTree() {}

  /** Builds the tree below {@code top} (made if missing); returns its inodes, {@code top} too. */
  public static int build(Storage storage, DistributedFileSystem fs, Path top, int dirs, int files)
      throws IOException {
    fs.mkdirs(top);
    long topId = ((HdfsFileStatus) fs.getFileStatus(top)).getFileId();
    InodeRow parent;
    try (Transaction tx = storage.begin()) {
      List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", topId, LockMode.READ_COMMITTED);
      parent = rows.get(0);
    }
    long now = System.currentTimeMillis();
    int inTx = 0;
    Transaction tx = storage.begin();
    try {
      for (int d = 0; d < dirs; d++) {
        MutableInode dir = inode(parent, "d" + d, true, now);
        dir.childrenCount = files;
        tx.insert(InodeRow.TABLE, dir.toRow());
        for (int f = 0; f < files; f++) {
          tx.insert(InodeRow.TABLE, inode(dir, "f" + f, now).toRow());
          if (++inTx == ROWS_PER_TX) {
            tx.commit();
            tx.close();
            tx = storage.begin();
            inTx = 0;
          }
        }
      }
      InodeRow locked = tx.find(InodeRow.TABLE, key(parent), LockMode.EXCLUSIVE);
      MutableInode p = MutableInode.of(locked);
      p.childrenCount += dirs;
      tx.update(InodeRow.TABLE, p.toRow());
      tx.commit();
    } finally {
      tx.close();
    }
    return 1 + dirs + dirs * files;
  }

  private static io.hops.dal.schema.Key key(InodeRow r) {
    return Inodes.key(r.parentId(), r.name());
  }

  private static MutableInode inode(InodeRow parent, String name, boolean dir, long now) {
    MutableInode m = MutableInode.of(parent);
    m.parentId = parent.id();
    m.name = name;
    m.id = NEXT_ID.getAndIncrement();
    m.isDir = dir;
    m.permission = dir ? (short) 0755 : (short) 0644;
    m.modificationTime = now;
    m.accessTime = now;
    m.size = 0;
    m.replication = dir ? 0 : (short) 3;
    m.preferredBlockSize = dir ? 0 : 128L * 1024 * 1024;
    m.underConstruction = false;
    m.clientName = null;
    m.clientMachine = null;
    m.subtreeLocked = false;
    m.subtreeLockOwner = 0;
    m.fileStoredInDb = false;
    m.storagePolicy = 0;
    m.childrenCount = 0;
    m.hasQuota = false;
    m.symlink = null;
    return m;
  }

  private static MutableInode inode(MutableInode parent, String name, long now) {
    MutableInode m = inode(parent.toRow(), name, false, now);
    return m;
  }
}
