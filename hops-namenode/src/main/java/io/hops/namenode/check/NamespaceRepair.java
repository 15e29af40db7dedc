package io.hops.namenode.check;

import io.hops.dal.IdAllocator;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.util.ArrayList;
import java.util.List;

/**
 * What {@code hops fsck-namespace --repair} may fix without losing anything, each in a short
 * transaction that first checks the problem is still there: a subtree mark or operation record of a
 * dead namenode is cleared; an orphan (with everything below it) moves to {@code /lost+found},
 * named {@code <name>#<id>}; a quota row's usage is set to what its tree holds. Everything else is
 * reported for an operator to decide.
 */
public final class NamespaceRepair {
  /** Where orphans go, as in HDFS's fsck -move. */
  public static final String LOST_FOUND = "lost+found";

  private final Storage storage;

  public NamespaceRepair(Storage storage) {
    this.storage = storage;
  }

  /** Repairs the repairable problems {@code check} found; returns those repaired. */
  public List<Problem> repair(NamespaceCheck check, List<Problem> problems)
      throws StorageException {
    List<Problem> done = new ArrayList<>();
    for (Problem p : problems) {
      boolean fixed =
          switch (p.kind()) {
            case STALE_SUBTREE_MARK -> clearMark(p.inodeId(), p.owner());
            case STALE_SUBTREE_OPERATION -> clearOperation(p.inodeId(), p.owner());
            case ORPHAN -> moveToLostFound(p.inodeId());
            case QUOTA_USAGE -> setUsage(p.inodeId(), check.countedUsage(p.inodeId()));
            default -> false;
          };
      if (fixed) {
        done.add(p);
      }
    }
    return done;
  }

  private InodeRow lockById(Transaction tx, long id) throws StorageException {
    List<InodeRow> seen = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    if (seen.isEmpty()) {
      return null;
    }
    InodeRow r = seen.get(0);
    return tx.find(InodeRow.TABLE, InodeRow.TABLE.keyOf(r), LockMode.EXCLUSIVE);
  }

  private boolean clearMark(long id, long owner) throws StorageException {
    try (Transaction tx = storage.begin()) {
      InodeRow r = lockById(tx, id);
      if (r == null || !r.subtreeLocked() || r.subtreeLockOwner() != owner) {
        return false;
      }
      MutableInode m = MutableInode.of(r);
      m.subtreeLocked = false;
      m.subtreeLockOwner = 0;
      tx.update(InodeRow.TABLE, m.toRow());
      OnGoingSubtreeOpRow op =
          tx.find(
              OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, id), LockMode.EXCLUSIVE);
      if (op != null && op.namenodeId() == owner) {
        tx.delete(OnGoingSubtreeOpRow.TABLE, op);
      }
      tx.commit();
      return true;
    }
  }

  private boolean clearOperation(long id, long owner) throws StorageException {
    try (Transaction tx = storage.begin()) {
      OnGoingSubtreeOpRow op =
          tx.find(
              OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, id), LockMode.EXCLUSIVE);
      if (op == null || op.namenodeId() != owner) {
        return false;
      }
      tx.delete(OnGoingSubtreeOpRow.TABLE, op);
      tx.commit();
      return true;
    }
  }

  private boolean moveToLostFound(long id) throws StorageException {
    long newId = IdAllocator.allocate(storage, "inode_id", 1).first();
    try (Transaction tx = storage.begin()) {
      InodeRow root = tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.EXCLUSIVE);
      InodeRow lf =
          tx.find(InodeRow.TABLE, Inodes.key(Inodes.ROOT_ID, LOST_FOUND), LockMode.EXCLUSIVE);
      InodeRow orphan = lockById(tx, id);
      if (orphan == null
          || tx.findByIndex(InodeRow.TABLE, "id", orphan.parentId(), LockMode.READ_COMMITTED).size()
              > 0) {
        return false; // gone, or its parent is back
      }
      if (lf != null && !lf.isDir()) {
        return false;
      }
      long now = System.currentTimeMillis();
      MutableInode dir;
      if (lf == null) {
        MutableInode r = MutableInode.of(root);
        r.childrenCount++;
        tx.update(InodeRow.TABLE, r.toRow());
        dir = new MutableInode();
        dir.parentId = Inodes.ROOT_ID;
        dir.name = LOST_FOUND;
        dir.id = newId;
        dir.isDir = true;
        dir.permission = (short) 0700;
        dir.userId = root.userId();
        dir.groupId = root.groupId();
        dir.modificationTime = now;
        dir.accessTime = 0; // as in HDFS: a directory's access time moves only by setTimes
      } else {
        dir = MutableInode.of(lf);
      }
      MutableInode moved = MutableInode.of(orphan);
      tx.delete(InodeRow.TABLE, orphan);
      moved.parentId = dir.id;
      moved.name = orphan.name() + "#" + orphan.id();
      dir.childrenCount++;
      dir.modificationTime = now;
      if (lf == null) {
        tx.insert(InodeRow.TABLE, dir.toRow());
      } else {
        tx.update(InodeRow.TABLE, dir.toRow());
      }
      tx.insert(InodeRow.TABLE, moved.toRow());
      tx.commit();
      return true;
    }
  }

  private boolean setUsage(long id, long[] usage) throws StorageException {
    if (usage == null) {
      return false;
    }
    try (Transaction tx = storage.begin()) {
      QuotaRow q = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(id), LockMode.EXCLUSIVE);
      if (q == null) {
        return false;
      }
      tx.update(QuotaRow.TABLE, new QuotaRow(id, q.nsQuota(), q.dsQuota(), usage[0], usage[1]));
      tx.commit();
      return true;
    }
  }
}
