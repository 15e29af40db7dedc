package io.hops.namenode.tx;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.ResolvedPath;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The copy-on-write of inode entries under a snapshot (docs/architecture.md, "Snapshots"), for one
 * transaction attempt. In the lock phase, the entries a writer may change below a snapshottable
 * directory with snapshots (its locked parent and target, the name it creates) are registered with
 * their rows as read, and whether each already has its version at the latest snapshot is read in
 * one batch; in the execute phase, the first write of a registered entry that has none writes it.
 * Entries are keyed by parent id and name, so a rename or a delete keeps the old entry and a create
 * records that the name was free.
 */
final class CopyOnWrite {
  private record Name(long parentId, String name) {}

  private record Entry(InodeRow before, long snapshotId) {}

  /**
   * A registered entry's covering snapshottable directory, its latest snapshot, and the id and size
   * of the inode the entry had at that snapshot (id 0: none).
   */
  private record Cover(long dirId, long snapshotId, long idAtSnapshot, long sizeAtSnapshot) {}

  private final boolean enabled;

  /** Registered entries whose version at their snapshot is still to be written. */
  private final Map<Name, Entry> pending = new HashMap<>();

  /** Every registered entry (written or not), so that none is registered twice. */
  private final Map<Name, Long> seen = new HashMap<>();

  /** What each registered entry was at its latest snapshot. */
  private final Map<Name, Cover> covers = new HashMap<>();

  CopyOnWrite(boolean enabled) {
    this.enabled = enabled;
  }

  /**
   * The latest snapshot covering the end of {@code rows} (the path's inodes from the root): the
   * {@code snapshot_id} of the deepest snapshottable directory on it that has snapshots, or 0.
   */
  static int coveringRoot(List<InodeRow> rows) {
    for (int i = rows.size() - 1; i >= 0; i--) {
      InodeRow r = rows.get(i);
      if (r != null && r.snapshottable() && r.snapshotId() > 0) {
        return i;
      }
    }
    return -1;
  }

  /**
   * Registers what a writer of {@code p} may change: its parent and target if they lie below the
   * covering snapshottable directory (whose own state at a snapshot is the snapshot's row), the
   * deepest existing directory of a path that does not exist, and the first missing name.
   */
  void cover(Transaction tx, ResolvedPath p) throws StorageException {
    if (!enabled) {
      return;
    }
    List<InodeRow> rows = p.inodes();
    int root = coveringRoot(rows);
    if (root < 0) {
      return;
    }
    long snapshotId = rows.get(root).snapshotId();
    List<Name> names = new ArrayList<>();
    List<InodeRow> before = new ArrayList<>();
    int from = Math.max(root + 1, Math.min(p.depth() - 1, rows.size() - 1));
    for (int j = from; j < rows.size(); j++) {
      names.add(new Name(rows.get(j).parentId(), rows.get(j).name()));
      before.add(rows.get(j));
    }
    InodeRow last = rows.get(rows.size() - 1);
    if (!p.exists() && last.isDir()) {
      names.add(new Name(last.id(), p.components()[rows.size() - 1]));
      before.add(null);
    }
    register(tx, names, before, rows.get(root).id(), snapshotId);
  }

  /** Registers rows below {@code p}'s target that a writer also changes (a delete's subtree). */
  void coverBelow(Transaction tx, ResolvedPath p, List<InodeRow> rows) throws StorageException {
    if (!enabled) {
      return;
    }
    int root = coveringRoot(p.inodes());
    if (root < 0) {
      return;
    }
    List<Name> names = new ArrayList<>(rows.size());
    for (InodeRow r : rows) {
      names.add(new Name(r.parentId(), r.name()));
    }
    InodeRow dir = p.inodes().get(root);
    register(tx, names, rows, dir.id(), dir.snapshotId());
  }

  private void register(
      Transaction tx, List<Name> names, List<InodeRow> before, long dirId, long snapshotId)
      throws StorageException {
    List<Key> keys = new ArrayList<>();
    List<Integer> which = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Name n = names.get(i);
      if (seen.putIfAbsent(n, snapshotId) == null) {
        keys.add(InodeVersionRow.TABLE.key(n.parentId(), n.name(), snapshotId));
        which.add(i);
      }
    }
    if (keys.isEmpty()) {
      return;
    }
    // The entries are locked by their rows or their parent's (hierarchical locking), so their
    // versions need no lock of their own.
    List<InodeVersionRow> kept =
        keys.size() == 1
            ? java.util.Collections.singletonList(
                tx.find(InodeVersionRow.TABLE, keys.get(0), LockMode.READ_COMMITTED))
            : tx.findBatch(InodeVersionRow.TABLE, keys, LockMode.READ_COMMITTED);
    for (int k = 0; k < keys.size(); k++) {
      int i = which.get(k);
      InodeVersionRow v = kept.get(k);
      InodeRow b = before.get(i);
      Cover c;
      if (v == null) {
        pending.put(names.get(i), new Entry(b, snapshotId));
        c = new Cover(dirId, snapshotId, b == null ? 0 : b.id(), b == null ? 0 : b.size());
      } else {
        c = new Cover(dirId, snapshotId, v.present() ? v.id() : 0, v.size());
      }
      covers.put(names.get(i), c);
    }
  }

  /** Before a write of the entry {@code row} names: its version, if it is the first. */
  void beforeWrite(Transaction tx, InodeRow row) throws StorageException {
    if (pending.isEmpty()) {
      return;
    }
    Name n = new Name(row.parentId(), row.name());
    Entry e = pending.remove(n);
    if (e != null) {
      tx.insert(
          InodeVersionRow.TABLE,
          InodeVersionRow.of(n.parentId(), n.name(), e.snapshotId(), e.before()));
    }
  }

  /**
   * The snapshot that keeps the blocks of {@code file} if it goes now (deleted or overwritten): the
   * latest snapshot of its covering directory, when the file is what its entry was at that snapshot
   * (a snapshot from before the file was created has a version of the entry without it); else null.
   */
  SnapshotKeptFileRow keeperOf(InodeRow file) {
    if (file.isDir() || covers.isEmpty()) {
      return null;
    }
    Cover c = covers.get(new Name(file.parentId(), file.name()));
    return c == null || c.idAtSnapshot() != file.id()
        ? null
        : new SnapshotKeptFileRow(c.dirId(), c.snapshotId(), file.id());
  }

  /**
   * The length the latest snapshot has of {@code file}, when the file is what its entry was at that
   * snapshot; else -1.
   */
  long snapshotLengthOf(InodeRow file) {
    Cover c = file.isDir() ? null : covers.get(new Name(file.parentId(), file.name()));
    return c == null || c.idAtSnapshot() != file.id() ? -1 : c.sizeAtSnapshot();
  }

  /** The latest snapshot covering {@code p}'s target, or 0. */
  static long coveringSnapshot(ResolvedPath p) {
    int root = coveringRoot(p.inodes());
    return root < 0 ? 0 : p.inodes().get(root).snapshotId();
  }

  /** The covering snapshottable directory's inode id, or 0. */
  static long coveringDirectory(List<InodeRow> rows) {
    int root = coveringRoot(rows);
    return root < 0 ? 0 : rows.get(root).id();
  }
}
