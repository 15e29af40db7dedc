package io.hops.namenode.resolve;

import io.hops.dal.rows.InodeRow;

/** An inode being changed in an execute phase; {@link #toRow()} gives the row to write. */
public final class MutableInode {
  public long parentId;
  public String name;
  public long id;
  public boolean isDir;
  public short permission;
  public int userId;
  public int groupId;
  public long modificationTime;
  public long accessTime;
  public long size;
  public short replication;
  public long preferredBlockSize;
  public boolean underConstruction;
  public String clientName;
  public String clientMachine;
  public boolean subtreeLocked;
  public long subtreeLockOwner;
  public boolean fileStoredInDb;
  public byte storagePolicy;
  public int childrenCount;
  public boolean hasQuota;
  public String symlink;
  public boolean snapshottable;
  public long snapshotId;

  public MutableInode() {}

  public static MutableInode of(InodeRow r) {
    MutableInode m = new MutableInode();
    m.parentId = r.parentId();
    m.name = r.name();
    m.id = r.id();
    m.isDir = r.isDir();
    m.permission = r.permission();
    m.userId = r.userId();
    m.groupId = r.groupId();
    m.modificationTime = r.modificationTime();
    m.accessTime = r.accessTime();
    m.size = r.size();
    m.replication = r.replication();
    m.preferredBlockSize = r.preferredBlockSize();
    m.underConstruction = r.underConstruction();
    m.clientName = r.clientName();
    m.clientMachine = r.clientMachine();
    m.subtreeLocked = r.subtreeLocked();
    m.subtreeLockOwner = r.subtreeLockOwner();
    m.fileStoredInDb = r.fileStoredInDb();
    m.storagePolicy = r.storagePolicy();
    m.childrenCount = r.childrenCount();
    m.hasQuota = r.hasQuota();
    m.symlink = r.symlink();
    m.snapshottable = r.snapshottable();
    m.snapshotId = r.snapshotId();
    return m;
  }

  /** The row, with the partition derived from parent and name. */
  public InodeRow toRow() {
    return new InodeRow(
        parentId == Inodes.NO_PARENT ? Inodes.NO_PARENT : Inodes.partitionOf(parentId, name),
        parentId,
        name,
        id,
        isDir,
        permission,
        userId,
        groupId,
        modificationTime,
        accessTime,
        size,
        replication,
        preferredBlockSize,
        underConstruction,
        clientName,
        clientMachine,
        subtreeLocked,
        subtreeLockOwner,
        fileStoredInDb,
        storagePolicy,
        childrenCount,
        hasQuota,
        symlink,
        snapshottable,
        snapshotId);
  }
}
