package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;

/**
 * A read's access time, written after the read answered ({@link AccessTimes}): the inode where the
 * read found it, locked exclusively by primary key (PK(EXCLUSIVE) + W). Nothing is written if the
 * inode moved or was replaced meanwhile, or if another read already moved its time forward.
 */
public final class UpdateAccessTime extends Operation<Boolean> {
  private final long parentId;
  private final String name;
  private final long inodeId;
  private final long atime;
  private InodeRow inode;

  public UpdateAccessTime(long parentId, String name, long inodeId, long atime) {
    this.parentId = parentId;
    this.name = name;
    this.inodeId = inodeId;
    this.atime = atime;
  }

  @Override
  public String name() {
    return "updateAccessTime";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    inode = tx.find(InodeRow.TABLE, Inodes.key(parentId, name), LockMode.EXCLUSIVE);
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    if (inode == null || inode.id() != inodeId || inode.accessTime() >= atime) {
      return false;
    }
    MutableInode m = MutableInode.of(inode);
    m.accessTime = atime;
    tx.update(InodeRow.TABLE, m.toRow());
    return true;
  }
}
