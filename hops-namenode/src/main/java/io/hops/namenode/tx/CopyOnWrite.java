package io.hops.namenode.tx;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodeFlags;
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
 * records that the name was free. A version of an inode with xattrs or an ACL (its flags) keeps
 * their rows too ({@code xattr_versions}, read here with the version keys, one pruned scan per such
 * inode), and a change of those alone records the entry's version ({@link
 * ExecutePhase#recordModification}).
 */
final class CopyOnWrite {
  private record Name(long parentId, String name) {}

  /**
   * A pending version: the entry's row, the inode's attribute rows (xattrs and ACL), and the
   * directory whose snapshots (or hold) read it, under which it is logged for its reclaim.
   */
  private record Entry(
      InodeRow before,
      long snapshotId,
      List<XAttrRow> attributes,
      long dirId,
      List<Long> missedBy) {
    Entry(InodeRow before, long snapshotId, List<XAttrRow> attributes, long dirId) {
      this(before, snapshotId, attributes, dirId, List.of());
    }
  }

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

  /**
   * Snapshottable directories whose own attributes a writer changes, by id: their attribute rows,
   * to be kept at their latest snapshot before the first change ({@link #coverOwnAttributes}).
   */
  private final Map<Long, Entry> ownPending = new HashMap<>();

  /**
   * The {@link SnapshotLogGaps} rows of the snapshottable directories whose logs miss a pending
   * version, by directory, as locked (null: none yet).
   */
  private final Map<Long, VariableRow> gaps = new HashMap<>();

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
   * What a directory row gives the entries below it: the latest snapshot of a snapshottable
   * directory with snapshots, or the hold of a directory moved out of one (the latest snapshot of
   * the directory it left, which still has its subtree as it was; docs/architecture.md,
   * "Snapshots"); else 0.
   */
  static long coverOf(InodeRow r) {
    return r != null && r.isDir() ? r.snapshotId() : 0;
  }

  /**
   * What the rows down to a directory give its entries: the latest snapshot that can read them (the
   * versions written at it answer every earlier one), and the directory whose snapshots keep a file
   * they had: the snapshottable one, or, below a moved directory's hold, the deepest such
   * directory, whose kept files no {@code deleteSnapshot} releases yet (docs/architecture.md,
   * "Snapshots").
   */
  private record Reach(long keeperDir, long snapshotId, boolean held, List<Long> snapshottable) {
    /** The snapshottable directories above whose logs miss what is logged under the keeper. */
    List<Long> missedBy() {
      if (snapshottable.isEmpty()
          || (snapshottable.size() == 1 && snapshottable.get(0) == keeperDir)) {
        return List.of();
      }
      List<Long> out = new ArrayList<>(snapshottable);
      out.remove(Long.valueOf(keeperDir));
      return out;
    }
  }

  private static Reach reachAt(List<InodeRow> rows, int parent) {
    Reach r = null;
    for (int i = 0; i <= parent && i < rows.size(); i++) {
      r = within(r, rows.get(i));
    }
    return r;
  }

  /** The reach of the entries of {@code dir}, whose own entry has {@code above}. */
  private static Reach within(Reach above, InodeRow dir) {
    long id = coverOf(dir);
    if (id == 0) {
      return above;
    }
    boolean hold = !dir.snapshottable();
    long latest = above == null ? id : Math.max(id, above.snapshotId());
    List<Long> snapshottable = above == null ? List.of() : above.snapshottable();
    if (!hold) {
      snapshottable = new ArrayList<>(snapshottable);
      snapshottable.add(dir.id());
    }
    if (above != null && above.held() && !hold) {
      return new Reach(above.keeperDir(), latest, true, snapshottable);
    }
    return new Reach(dir.id(), latest, hold || (above != null && above.held()), snapshottable);
  }

  /**
   * Registers what a writer of {@code p} may change: its parent and target if a snapshot can read
   * them (the snapshottable directory's own state at a snapshot is the snapshot's row, and a
   * directory moved out of one has its entry's version there), the deepest existing directory of a
   * path that does not exist, and the first missing name.
   */
  void cover(Transaction tx, ResolvedPath p) throws StorageException {
    if (!enabled) {
      return;
    }
    List<InodeRow> rows = p.inodes();
    List<Name> names = new ArrayList<>();
    List<InodeRow> before = new ArrayList<>();
    List<Reach> by = new ArrayList<>();
    int from = Math.max(1, Math.min(p.depth() - 1, rows.size() - 1));
    Reach c = reachAt(rows, from - 1);
    for (int j = from; j < rows.size(); j++) {
      if (c != null) {
        names.add(new Name(rows.get(j).parentId(), rows.get(j).name()));
        before.add(rows.get(j));
        by.add(c);
      }
      c = within(c, rows.get(j));
    }
    InodeRow last = rows.get(rows.size() - 1);
    if (!p.exists() && last.isDir() && c != null) {
      names.add(new Name(last.id(), p.components()[rows.size() - 1]));
      before.add(null);
      by.add(c);
    }
    register(tx, names, before, by);
  }

  /**
   * Registers rows below {@code p}'s target that a writer also changes (a delete's subtree, the top
   * first and each directory before its children).
   */
  void coverBelow(Transaction tx, ResolvedPath p, List<InodeRow> rows) throws StorageException {
    if (!enabled) {
      return;
    }
    List<InodeRow> path = p.inodes();
    Map<Long, Reach> dirs = new HashMap<>();
    Reach top = reachAt(path, path.size() - 1);
    if (top != null) {
      dirs.put(path.get(path.size() - 1).id(), top);
    }
    List<Name> names = new ArrayList<>(rows.size());
    List<InodeRow> before = new ArrayList<>(rows.size());
    List<Reach> by = new ArrayList<>(rows.size());
    for (InodeRow r : rows) {
      Reach c = dirs.get(r.parentId());
      if (c != null) {
        names.add(new Name(r.parentId(), r.name()));
        before.add(r);
        by.add(c);
      }
      Reach below = within(c, r);
      if (below != null && r.isDir()) {
        dirs.putIfAbsent(r.id(), below);
      }
    }
    register(tx, names, before, by);
  }

  private void register(Transaction tx, List<Name> names, List<InodeRow> before, List<Reach> by)
      throws StorageException {
    List<Key> keys = new ArrayList<>();
    List<Integer> which = new ArrayList<>();
    for (int i = 0; i < names.size(); i++) {
      Name n = names.get(i);
      long snapshotId = by.get(i).snapshotId();
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
      long dirId = by.get(i).keeperDir();
      long snapshotId = by.get(i).snapshotId();
      Cover c;
      if (v == null) {
        List<Long> missedBy = by.get(i).missedBy();
        lockGaps(tx, missedBy);
        pending.put(names.get(i), new Entry(b, snapshotId, attributesOf(tx, b), dirId, missedBy));
        c = new Cover(dirId, snapshotId, b == null ? 0 : b.id(), b == null ? 0 : b.size());
      } else {
        c = new Cover(dirId, snapshotId, v.present() ? v.id() : 0, v.size());
      }
      covers.put(names.get(i), c);
    }
  }

  /**
   * Locks the {@link SnapshotLogGaps} rows of {@code dirs} (exclusively, once per transaction): a
   * version below a held directory inside them is logged under the held one only.
   */
  private void lockGaps(Transaction tx, List<Long> dirs) throws StorageException {
    for (long d : dirs) {
      if (!gaps.containsKey(d)) {
        gaps.put(d, tx.find(VariableRow.TABLE, SnapshotLogGaps.key(d), LockMode.EXCLUSIVE));
      }
    }
  }

  /** Raises the {@link SnapshotLogGaps} rows of {@code e}'s missing logs to its snapshot. */
  private void raiseGaps(Transaction tx, Entry e) throws StorageException {
    for (long d : e.missedBy()) {
      VariableRow now = gaps.get(d);
      if (now != null && now.longValue() >= e.snapshotId()) {
        continue;
      }
      VariableRow raised = SnapshotLogGaps.row(d, e.snapshotId());
      if (now == null) {
        tx.insert(VariableRow.TABLE, raised);
      } else {
        tx.update(VariableRow.TABLE, raised);
      }
      gaps.put(d, raised);
    }
  }

  /**
   * The attribute rows of the inode {@code row} (read committed: the writer holds the row's lock),
   * none read for an inode whose flags say it has none.
   */
  private static List<XAttrRow> attributesOf(Transaction tx, InodeRow row) throws StorageException {
    if (row == null || !InodeFlags.hasAttributeRows(row.permission())) {
      return List.of();
    }
    return tx.findByPartition(XAttrRow.TABLE, row.id(), LockMode.READ_COMMITTED);
  }

  /**
   * Registers a change of the xattrs or ACL of {@code dir} itself, if it is a snapshottable
   * directory with snapshots: its attribute rows are kept under {@link XAttrVersionRow#OWN} at its
   * latest snapshot, unless rows are there already (a pruned scan of that name). None are written
   * when it has none now: a snapshot at which it had none says so by its row's flags, and an
   * earlier one is answered by rows written before they went.
   */
  void coverOwnAttributes(Transaction tx, InodeRow dir) throws StorageException {
    if (!enabled
        || dir == null
        || !dir.snapshottable()
        || dir.snapshotId() == 0
        || ownPending.containsKey(dir.id())
        || !InodeFlags.hasAttributeRows(dir.permission())) {
      return;
    }
    for (XAttrVersionRow r :
        tx.findByPartition(
            XAttrVersionRow.TABLE,
            dir.id(),
            "entry_name",
            XAttrVersionRow.OWN,
            LockMode.READ_COMMITTED)) {
      if (r.snapshotId() == dir.snapshotId()) {
        return;
      }
    }
    ownPending.put(dir.id(), new Entry(dir, dir.snapshotId(), attributesOf(tx, dir), dir.id()));
  }

  /** Before a write of the entry {@code row} names: its version, if it is the first. */
  void beforeWrite(Transaction tx, InodeRow row) throws StorageException {
    Entry own = ownPending.isEmpty() ? null : ownPending.remove(row.id());
    if (own != null) {
      for (XAttrRow a : own.attributes()) {
        tx.insert(
            XAttrVersionRow.TABLE,
            XAttrVersionRow.of(row.id(), XAttrVersionRow.OWN, own.snapshotId(), a));
      }
    }
    if (pending.isEmpty()) {
      return;
    }
    Name n = new Name(row.parentId(), row.name());
    Entry e = pending.remove(n);
    if (e != null) {
      tx.insert(
          InodeVersionRow.TABLE,
          InodeVersionRow.of(n.parentId(), n.name(), e.snapshotId(), e.before()));
      // So that a deleteSnapshot finds it by snapshot, to reclaim it when no snapshot reads it.
      tx.insert(
          SnapshotVersionLogRow.TABLE,
          new SnapshotVersionLogRow(e.dirId(), e.snapshotId(), n.parentId(), n.name()));
      raiseGaps(tx, e);
      for (XAttrRow a : e.attributes()) {
        tx.insert(
            XAttrVersionRow.TABLE, XAttrVersionRow.of(n.parentId(), n.name(), e.snapshotId(), a));
      }
    }
  }

  /**
   * The snapshot that keeps the blocks of {@code file} if it goes now (deleted or overwritten): the
   * latest snapshot of its covering directory, when the file is what its entry was at that snapshot
   * (a snapshot from before the file was created has a version of the entry without it); else null.
   */
  SnapshotKeptFileRow keeperOf(InodeRow file) {
    return file.isDir() ? null : holderOf(file);
  }

  /**
   * As {@link #keeperOf}, for a directory too: the latest snapshot of the covering directory when
   * it has the inode at its entry, which a delete then leaves charged to the quotas above.
   */
  SnapshotKeptFileRow holderOf(InodeRow file) {
    if (covers.isEmpty()) {
      return null;
    }
    Cover c = covers.get(new Name(file.parentId(), file.name()));
    return c == null || c.idAtSnapshot() != file.id()
        ? null
        : new SnapshotKeptFileRow(c.dirId(), c.snapshotId(), file.id());
  }

  /**
   * The directory whose snapshots (or hold) can read the entry of {@code row} and the latest such
   * snapshot, whatever the entry had at it (an inode renamed within the directory since has its
   * earlier entry there), as a kept-file row of the inode; null when none covers the entry.
   */
  SnapshotKeptFileRow entryCoverOf(InodeRow row) {
    Cover c = covers.isEmpty() ? null : covers.get(new Name(row.parentId(), row.name()));
    return c == null ? null : new SnapshotKeptFileRow(c.dirId(), c.snapshotId(), row.id());
  }

  /**
   * A file's reference mark ({@code snapshot_id} of a file's row; HDFS's {@code INodeReference}):
   * the directory whose snapshots have the file under an earlier entry (parent and name), as the
   * kept-file rule names it (a snapshottable directory, or a held one), so that deleting it under
   * its new entry still keeps its blocks; 0 when none does. A file renamed away from entries of two
   * such directories is marked {@link #REFERENCED_BY_SEVERAL}.
   */
  static long referenceMarkOfMoved(InodeRow file, SnapshotKeptFileRow keeper) {
    long mark = file.snapshotId();
    if (keeper == null || mark == keeper.dirId()) {
      return mark;
    }
    return mark == 0 ? keeper.dirId() : REFERENCED_BY_SEVERAL;
  }

  /**
   * The mark of a file that snapshots of more than one directory have under earlier entries: its
   * blocks stay for good when it is deleted (kept under {@link #KEPT_FOR_GOOD}), as one kept-file
   * row cannot name two directories.
   */
  static final long REFERENCED_BY_SEVERAL = -1;

  /** The directory id of the kept-file rows no {@code deleteSnapshot} releases. */
  static final long KEPT_FOR_GOOD = 0;

  /**
   * The snapshot that keeps the blocks of {@code file} if it goes now, given its entry's keeper
   * ({@link #keeperOf}) and, for a file renamed after a snapshot had it, the row of the directory
   * its mark names (read by id; null if gone): the later of the two when both name one directory,
   * the mark's directory's latest snapshot (or hold) when only it keeps the file; kept for good
   * when they name two directories.
   */
  static SnapshotKeptFileRow keeperOfMarked(
      InodeRow file, SnapshotKeptFileRow own, InodeRow markDir) {
    long mark = file.snapshotId();
    if (mark == REFERENCED_BY_SEVERAL || (own != null && own.dirId() != mark)) {
      return new SnapshotKeptFileRow(KEPT_FOR_GOOD, 0, file.id());
    }
    long latest = markDir != null && markDir.isDir() ? markDir.snapshotId() : 0;
    if (latest <= 0) {
      return own;
    }
    return new SnapshotKeptFileRow(
        mark, Math.max(latest, own == null ? 0 : own.snapshotId()), file.id());
  }

  /**
   * Every snapshot that keeps the blocks of {@code file} if it goes now, one kept-file row per
   * holder (docs/architecture.md, "Snapshots", the reference mark): its entry's keeper ({@link
   * #keeperOf}) and each directory whose snapshots have it under an earlier entry ({@code
   * markDirs}, read by id; null values for those gone), at its latest snapshot or hold (the later
   * of the two where the entry's keeper names the same directory). A file marked {@link
   * #REFERENCED_BY_SEVERAL} before schema version 10 recorded its earlier entries (no {@code
   * markDirs}) is kept for good.
   */
  static List<SnapshotKeptFileRow> keepersOfMarked(
      InodeRow file, SnapshotKeptFileRow own, Map<Long, InodeRow> markDirs) {
    if (markDirs.isEmpty()) {
      return List.of(new SnapshotKeptFileRow(KEPT_FOR_GOOD, 0, file.id()));
    }
    List<SnapshotKeptFileRow> out = new ArrayList<>();
    if (own != null && !markDirs.containsKey(own.dirId())) {
      out.add(own);
    }
    for (Map.Entry<Long, InodeRow> d : markDirs.entrySet()) {
      InodeRow markDir = d.getValue();
      long latest = markDir != null && markDir.isDir() ? markDir.snapshotId() : 0;
      long atEntry = own != null && own.dirId() == d.getKey() ? own.snapshotId() : 0;
      if (Math.max(latest, atEntry) > 0) {
        out.add(new SnapshotKeptFileRow(d.getKey(), Math.max(latest, atEntry), file.id()));
      }
    }
    return out;
  }

  /**
   * The length the latest snapshot has of {@code file}, when the file is what its entry was at that
   * snapshot; else -1.
   */
  long snapshotLengthOf(InodeRow file) {
    Cover c = file.isDir() ? null : covers.get(new Name(file.parentId(), file.name()));
    return c == null || c.idAtSnapshot() != file.id() ? -1 : c.sizeAtSnapshot();
  }

  /**
   * The latest snapshot that can read what lies below {@code p}'s target (a snapshottable
   * directory's or a moved directory's hold, {@link #coverOf}), or 0.
   */
  static long coveringSnapshot(ResolvedPath p) {
    Reach r = reachAt(p.inodes(), p.inodes().size() - 1);
    return r == null ? 0 : r.snapshotId();
  }

  /**
   * The hold a directory moved from {@code from} (the rows above it) to {@code to} (the rows above
   * its new entry) keeps, so that the snapshots that have it as it was get versions of its
   * descendants' changes: the latest snapshot that can read its old place, when its new place is
   * not below the same snapshottable (or held) directory (0: none).
   */
  static long holdOfMoved(List<InodeRow> from, List<InodeRow> to) {
    Reach was = reachAt(from, from.size() - 1);
    Reach now = reachAt(to, to.size() - 1);
    return was == null || (now != null && now.keeperDir() == was.keeperDir())
        ? 0
        : was.snapshotId();
  }

  /**
   * The hold row ({@link SnapshotKeptFileRow#hold}) of {@code dir} moved from below {@code from}
   * with hold {@code hold} ({@link #holdOfMoved}): in the partition of the directory whose
   * snapshots it leaves (the snapshottable one, or the held one it was below), whose last snapshot
   * up to the hold deleted clears it. A directory held already gets a row for this holder too (one
   * per holder, docs/architecture.md, "Snapshots"), unless {@code holdersUnknown}: held by a row
   * written before schema version 12, which the index by held id lacks, so that its clearing could
   * not see this one; then it is held for good. Null without a hold.
   */
  static SnapshotKeptFileRow holdRowOfMoved(
      List<InodeRow> from, long hold, InodeRow dir, boolean holdersUnknown) {
    if (hold == 0) {
      return null;
    }
    if (holdersUnknown) {
      return SnapshotKeptFileRow.hold(KEPT_FOR_GOOD, 0, dir.id());
    }
    return SnapshotKeptFileRow.hold(reachAt(from, from.size() - 1).keeperDir(), hold, dir.id());
  }

  /**
   * Where a file deleted below the last of {@code rows} (the path's directories from the top) would
   * be kept now: the directory whose snapshots (or hold) keep it and the latest snapshot that can
   * read it, as a kept-file row of inode 0; null when no snapshot or hold covers it.
   */
  static SnapshotKeptFileRow keeperBelow(List<InodeRow> rows) {
    Reach r = reachAt(rows, rows.size() - 1);
    return r == null ? null : new SnapshotKeptFileRow(r.keeperDir(), r.snapshotId(), 0);
  }

  /** The covering snapshottable directory's inode id, or 0. */
  static long coveringDirectory(List<InodeRow> rows) {
    int root = coveringRoot(rows);
    return root < 0 ? 0 : rows.get(root).id();
  }
}
