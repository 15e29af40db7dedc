package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotEarlierEntryRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.rows.XAttrVersionRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * One batch of the reclaim of entry versions no snapshot reads any more (docs/architecture.md,
 * "Snapshots", "Reclaiming versions"). A version of an entry at snapshot id {@code v} answers the
 * snapshots in {@code (u, v]}, {@code u} the id of the entry's previous version (0: none); once
 * none of the snapshots that can read it exists, it goes, with its xattr versions, its log row, the
 * rename row at its key ({@code snapshot_renamed_entries}: HDFS drops a {@code WithName} with the
 * diff that holds it) unless a version still kept has the inode there, and the file's earlier-entry
 * row ({@code snapshot_earlier_entries}) when no version kept names the file at that entry.
 *
 * <p>The versions come from the directory's partition of {@code snapshot_version_log}, in snapshot
 * order, a bounded page per transaction, each page's entries read whole (a pruned scan of each
 * entry's versions and one of its rename rows, read committed: the writers of an entry lock its
 * inode rows, not its versions, and a version written meanwhile is at the directory's latest
 * snapshot, so it changes the range of no version judged here). Two kinds of work, named by the
 * pending row ({@link SnapshotVersionLogRow#pending}) that the transaction starting it writes:
 *
 * <ul>
 *   <li>after a {@code deleteSnapshot} of a snapshottable directory: the versions from the deleted
 *       snapshot's id on (from 0 when none remains), judged by the directory's remaining snapshots,
 *       and, while the directory is itself held, kept when their range reaches below the hold (its
 *       holder's snapshots may read them); nothing while it is held for good. A {@code
 *       createSnapshot} of a directory whose latest snapshot was deleted while older ones remained
 *       starts the same for that id: changes wrote versions there since, and write none any more;
 *   <li>after a hold's end ({@link ClearHold}): the held directory's versions up to the hold,
 *       judged by its own snapshots if it is snapshottable (those past the hold were written for
 *       the snapshots of a directory it sits in now, which its log does not name); below a
 *       snapshottable directory with snapshots inside it, those its snapshots read move to its log;
 *       for a directory deleted since, up to the largest of its holds.
 * </ul>
 *
 * Whoever finishes deletes the pending row; a namenode that stops midway leaves it, and the leader
 * resumes it ({@link #resumePending}). Nothing is in a namenode's memory: a page judged again does
 * the same.
 */
public final class ReclaimVersions extends Operation<ReclaimVersions.Next> {
  /** Marks a pending row of the second kind: versions up to its snapshot id. */
  static final String UP_TO_HOLD = "hold";

  /** Marks a pending row a {@code createSnapshot} wrote for a deleted latest snapshot's id. */
  static final String LATEST = "latest";

  /** The directory of the holds kept for good (two holders), whose versions are never judged. */
  private static final long KEPT_FOR_GOOD = 0;

  /** Where the next batch starts; {@code done} when this one finished the reclaim. */
  public record Next(boolean done, Key after) {}

  private final SnapshotVersionLogRow pending;
  private final Key after;
  private List<SnapshotVersionLogRow> page = List.of();
  private final Map<String, EntryVersions> entries = new HashMap<>();
  private long[] readers = new long[0];
  private List<XAttrVersionRow> own = List.of();
  private final List<SnapshotVersionLogRow> moved = new ArrayList<>();
  private InodeRow heir;

  /**
   * Past a hold's end, the snapshottable directories with snapshots below the held one, by id, with
   * their snapshots' ids sorted (empty: none, or not a hold's end).
   */
  private final Map<Long, long[]> inner = new HashMap<>();

  /** Per page row, the inner directory the entry lies below (absent: none; 0: not known). */
  private final Map<SnapshotVersionLogRow, Long> innerOf = new HashMap<>();

  /** {@link #innerOf}'s mark of an entry whose directory has left the held one since. */
  private static final long MOVED_OUT = -1;

  private Key cursor;
  private long heldAt;
  private boolean frozen;
  private boolean last;

  private ReclaimVersions(SnapshotVersionLogRow pending, Key after) {
    this.pending = pending;
    this.after = after;
  }

  /** The pending row that starts the reclaim after a snapshot of {@code dirId} is deleted. */
  static SnapshotVersionLogRow afterDelete(long dirId, long deletedId, boolean noneRemains) {
    return SnapshotVersionLogRow.pending(dirId, noneRemains ? 0 : deletedId);
  }

  /**
   * The pending row that starts the reclaim of the versions written at {@code deletedId}, the
   * latest snapshot of {@code dirId}, deleted while older ones remained, once a new snapshot is
   * taken: judged as after a delete (a row of its own, so that a reclaim of that delete still
   * running cannot finish it).
   */
  static SnapshotVersionLogRow afterLatestDeleted(long dirId, long deletedId) {
    return new SnapshotVersionLogRow(SnapshotVersionLogRow.PENDING, deletedId, dirId, LATEST);
  }

  /** The pending row that starts the reclaim after the hold {@code hold} of {@code dirId} ends. */
  static SnapshotVersionLogRow afterHold(long dirId, long hold) {
    return new SnapshotVersionLogRow(SnapshotVersionLogRow.PENDING, hold, dirId, UP_TO_HOLD);
  }

  /** Runs the reclaim {@code pending} names to its end, a bounded transaction each. */
  public static void drain(TransactionRunner runner, SnapshotVersionLogRow pending)
      throws IOException {
    Key after = null;
    while (true) {
      Key from = after;
      Next next = runner.run(() -> new ReclaimVersions(pending, from));
      if (next.done()) {
        return;
      }
      after = next.after();
    }
  }

  /**
   * The reclaims started and not finished yet (their pending rows, one pruned scan), at most {@code
   * limit}: the leader resumes those a namenode left ({@code SnapshotVersionReclaims}).
   */
  public static List<SnapshotVersionLogRow> pending(TransactionRunner runner, int limit)
      throws IOException {
    return runner.run(() -> new PendingReclaims(limit));
  }

  @Override
  public String name() {
    return "reclaimSnapshotVersions";
  }

  @Override
  public Object partitionHint() {
    return pending.pendingDir();
  }

  private boolean upToHold() {
    return UP_TO_HOLD.equals(pending.name());
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    // Locked, so that the namenode that started it and the leader resuming it take turns; gone:
    // finished by another namenode, or never started (a hold that did not end).
    if (tx.find(
            SnapshotVersionLogRow.TABLE,
            SnapshotVersionLogRow.TABLE.keyOf(pending),
            LockMode.EXCLUSIVE)
        == null) {
      frozen = true;
      return;
    }
    long dirId = pending.pendingDir();
    List<SnapshotRow> snapshots = List.of();
    InodeRow dir = tx.inodePaths().byId(dirId);
    if (dir != null && dir.snapshottable()) {
      snapshots = tx.findByPartition(SnapshotRow.TABLE, dirId, LockMode.READ_COMMITTED);
    }
    readers = snapshots.stream().mapToLong(SnapshotRow::snapshotId).sorted().toArray();
    if (!upToHold() && dir != null && dir.snapshotId() > 0) {
      // Still held: its own hold row comes first in its partition, in snapshot order.
      for (SnapshotKeptFileRow r :
          tx.scanFrom(SnapshotKeptFileRow.TABLE, dirId, null, 1, LockMode.READ_COMMITTED)) {
        if (r.isHold() && r.heldId() == dirId) {
          heldAt = r.snapshotId();
        }
      }
      frozen =
          tx.find(
                  SnapshotKeptFileRow.TABLE,
                  SnapshotKeptFileRow.TABLE.keyOf(
                      SnapshotKeptFileRow.hold(KEPT_FOR_GOOD, 0, dirId)),
                  LockMode.READ_COMMITTED)
              != null;
    }
    if (frozen) {
      return;
    }
    int batch = Math.max(1, tx.maxRows() / 8);
    Key start =
        after != null
            ? after
            : SnapshotVersionLogRow.TABLE.key(
                dirId, upToHold() ? Long.MIN_VALUE : pending.snapshotId() - 1, Long.MAX_VALUE, "");
    List<SnapshotVersionLogRow> rows =
        tx.scanFrom(SnapshotVersionLogRow.TABLE, dirId, start, batch, LockMode.EXCLUSIVE);
    last = rows.isEmpty() || rows.size() < batch;
    // Past a hold that ended, a directory that is not snapshottable has versions only for the
    // snapshots of the directory it sits in now: they move to its log (none: no snapshot reads
    // them). A snapshottable one keeps them for its own snapshots; a deleted one, for whoever had
    // it.
    boolean pastHoldMoves = upToHold() && dir != null && !dir.snapshottable();
    if (pastHoldMoves) {
      heir = heirOf(tx, dir);
      readInner(tx, dirId);
    }
    // After a deleteSnapshot, the versions from the deleted id up to the next remaining snapshot:
    // those at or past it have that snapshot in their range if the deleted one was.
    long until = Long.MAX_VALUE;
    for (long r : readers) {
      if (!upToHold() && r > pending.snapshotId()) {
        until = Math.min(until, r);
      }
    }
    List<SnapshotVersionLogRow> judged = new ArrayList<>();
    for (SnapshotVersionLogRow r : rows) {
      if (r.snapshotId() >= until) {
        last = true;
        break;
      }
      if (upToHold() && r.snapshotId() > pending.snapshotId()) {
        if (!pastHoldMoves) {
          last = true;
          break;
        }
        if (heir != null) {
          moved.add(r);
          cursor = SnapshotVersionLogRow.TABLE.keyOf(r);
          continue;
        }
      }
      judged.add(r);
      cursor = SnapshotVersionLogRow.TABLE.keyOf(r);
    }
    page = judged;
    if (!inner.isEmpty()) {
      Map<Long, Long> below = new HashMap<>();
      for (SnapshotVersionLogRow r : page) {
        Long d = innerAbove(tx, r.parentId(), dirId, below);
        if (d != null) {
          innerOf.put(r, d);
        }
      }
    }
    if (last) {
      // The directory's own xattrs and ACL kept at its snapshots, read by its own snapshots alone.
      own =
          tx.findByPartition(
              XAttrVersionRow.TABLE,
              dirId,
              "entry_name",
              XAttrVersionRow.OWN,
              LockMode.READ_COMMITTED);
    }
    for (SnapshotVersionLogRow r : page) {
      String k = r.parentId() + "/" + r.name();
      if (!entries.containsKey(k)) {
        entries.put(k, EntryVersions.read(tx, r.parentId(), r.name()));
      }
    }
  }

  /**
   * The nearest directory above {@code dir} whose snapshots (or hold) cover it now, read by id up
   * the path (read committed), or null.
   */
  private static InodeRow heirOf(LockPhase tx, InodeRow dir) throws IOException {
    InodeRow at = dir;
    while (at != null && at.parentId() != at.id() && at.parentId() > 0) {
      at = tx.inodePaths().byId(at.parentId());
      if (at != null && at.isDir() && at.snapshotId() > 0) {
        return at;
      }
    }
    return null;
  }

  /**
   * The snapshottable directories with snapshots below the held directory {@code dirId} and their
   * snapshots (read committed): the versions below one of them were logged under the held directory
   * (the copy-on-write rule's keeper) while it was held, and its snapshots read them.
   */
  private void readInner(LockPhase tx, long dirId) throws IOException {
    for (SnapshottableDirs.Dir d : SnapshottableDirs.read(tx)) {
      if (d.row().snapshotId() > 0 && d.ancestors().contains(dirId)) {
        inner.put(
            d.row().id(),
            tx.findByPartition(SnapshotRow.TABLE, d.row().id(), LockMode.READ_COMMITTED).stream()
                .mapToLong(SnapshotRow::snapshotId)
                .sorted()
                .toArray());
      }
    }
  }

  /**
   * The inner directory at or above {@code parentId}, up to the held directory {@code dirId} (read
   * by id, read committed; {@code memo} by directory), null when none is, 0 when the path is not
   * known (a directory deleted since), {@link #MOVED_OUT} when the path leaves the held directory.
   */
  private Long innerAbove(LockPhase tx, long parentId, long dirId, Map<Long, Long> memo)
      throws IOException {
    List<Long> walked = new ArrayList<>();
    long at = parentId;
    Long found = null;
    while (true) {
      if (memo.containsKey(at)) {
        found = memo.get(at);
        break;
      }
      walked.add(at);
      if (inner.containsKey(at)) {
        found = at;
        break;
      }
      if (at == dirId) {
        break;
      }
      InodeRow row = tx.inodePaths().byId(at);
      if (row == null) {
        found = 0L;
        break;
      }
      if (row.id() == Inodes.ROOT_ID || row.parentId() == Inodes.DETACHED) {
        found = MOVED_OUT; // moved out of the held directory since, perhaps out of an inner one
        break;
      }
      at = row.parentId();
    }
    for (long w : walked) {
      memo.put(w, found);
    }
    return found;
  }

  /**
   * An inner directory a snapshot of which can read {@code (u, v]}, or null: for an entry whose
   * directory has left the held one since its versions were logged there, perhaps from below an
   * inner directory, whose older snapshots still read them through its id.
   */
  private Long innerReading(long u, long v) {
    for (long d : inner.keySet()) {
      if (readByInner(d, u, v)) {
        return d;
      }
    }
    return null;
  }

  /** Whether a snapshot of the inner directory {@code d} can read {@code (u, v]}. */
  private boolean readByInner(long d, long u, long v) {
    for (long r : inner.getOrDefault(d, new long[0])) {
      if (r > u && r <= v) {
        return true;
      }
    }
    return false;
  }

  /** Whether a snapshot that can read {@code (u, v]} exists. */
  private boolean read(long u, long v) {
    if (u < heldAt) {
      return true;
    }
    for (long r : readers) {
      if (r > u && r <= v) {
        return true;
      }
    }
    return false;
  }

  @Override
  protected Next execute(ExecutePhase tx) throws IOException {
    if (frozen) {
      return new Next(true, null);
    }
    for (SnapshotVersionLogRow r : page) {
      EntryVersions e = entries.get(r.parentId() + "/" + r.name());
      InodeVersionRow v = e.at(r.snapshotId());
      Long below = innerOf.get(r);
      if (v != null && below != null && below == MOVED_OUT) {
        below = innerReading(e.previous(v), v.snapshotId());
      }
      if (v != null && below != null) {
        if (below == 0) {
          continue; // below a directory deleted since, which an inner one's snapshots may read
        }
        if (readByInner(below, e.previous(v), v.snapshotId())) {
          // Read by the inner directory's snapshots: its log takes it, its deleteSnapshot judges
          // it.
          tx.delete(SnapshotVersionLogRow.TABLE, r);
          tx.insert(
              SnapshotVersionLogRow.TABLE,
              new SnapshotVersionLogRow(below, r.snapshotId(), r.parentId(), r.name()));
          continue;
        }
      }
      if (v == null || !read(e.previous(v), v.snapshotId())) {
        if (v != null) {
          e.drop(tx, v);
        }
        tx.delete(SnapshotVersionLogRow.TABLE, r);
      }
    }
    for (EntryVersions e : entries.values()) {
      e.dropOrphans(tx);
    }
    for (SnapshotVersionLogRow r : moved) {
      tx.delete(SnapshotVersionLogRow.TABLE, r);
      tx.insert(
          SnapshotVersionLogRow.TABLE,
          new SnapshotVersionLogRow(heir.id(), r.snapshotId(), r.parentId(), r.name()));
    }
    if (last) {
      dropOwnAttributes(tx);
      tx.delete(SnapshotVersionLogRow.TABLE, pending);
      return new Next(true, null);
    }
    return new Next(false, cursor);
  }

  /** The directory's own attribute rows at snapshots that none of its own snapshots reads. */
  private void dropOwnAttributes(ExecutePhase tx) throws IOException {
    long[] at = own.stream().mapToLong(XAttrVersionRow::snapshotId).distinct().sorted().toArray();
    for (int i = 0; i < at.length; i++) {
      long u = i == 0 ? 0 : at[i - 1];
      long v = at[i];
      if (java.util.Arrays.stream(readers).noneMatch(r -> r > u && r <= v)) {
        for (XAttrVersionRow a : own) {
          if (a.snapshotId() == v) {
            tx.delete(XAttrVersionRow.TABLE, a);
          }
        }
      }
    }
  }

  /** One entry's versions and rename rows, as read, and what this batch drops of them. */
  private static final class EntryVersions {
    private final List<InodeVersionRow> versions;
    private final List<SnapshotRenamedEntryRow> renames;
    private final Map<Long, List<XAttrVersionRow>> attributes = new HashMap<>();
    private final List<InodeVersionRow> dropped = new ArrayList<>();

    private EntryVersions(List<InodeVersionRow> versions, List<SnapshotRenamedEntryRow> renames) {
      this.versions = versions;
      this.renames = renames;
    }

    static EntryVersions read(LockPhase tx, long parentId, String name) throws IOException {
      List<InodeVersionRow> versions =
          new ArrayList<>(
              tx.findByPartition(
                  InodeVersionRow.TABLE, parentId, "name", name, LockMode.READ_COMMITTED));
      versions.sort((a, b) -> Long.compare(a.snapshotId(), b.snapshotId()));
      List<SnapshotRenamedEntryRow> renames =
          tx.findByPartition(
              SnapshotRenamedEntryRow.TABLE, parentId, "name", name, LockMode.READ_COMMITTED);
      EntryVersions e = new EntryVersions(versions, renames);
      if (versions.stream()
          .anyMatch(v -> v.present() && InodeFlags.hasAttributeRows(v.permission()))) {
        for (XAttrVersionRow a :
            tx.findByPartition(
                XAttrVersionRow.TABLE, parentId, "entry_name", name, LockMode.READ_COMMITTED)) {
          e.attributes.computeIfAbsent(a.snapshotId(), k -> new ArrayList<>()).add(a);
        }
      }
      return e;
    }

    InodeVersionRow at(long snapshotId) {
      for (InodeVersionRow v : versions) {
        if (v.snapshotId() == snapshotId) {
          return v;
        }
      }
      return null;
    }

    /** The id of the version before {@code v} among those still kept (0: none). */
    long previous(InodeVersionRow v) {
      long u = 0;
      for (InodeVersionRow w : versions) {
        if (w.snapshotId() < v.snapshotId() && !dropped.contains(w)) {
          u = w.snapshotId();
        }
      }
      return u;
    }

    void drop(ExecutePhase tx, InodeVersionRow v) throws IOException {
      dropped.add(v);
      tx.delete(InodeVersionRow.TABLE, v);
      for (XAttrVersionRow a : attributes.getOrDefault(v.snapshotId(), List.of())) {
        tx.delete(XAttrVersionRow.TABLE, a);
      }
    }

    /** Whether a version kept up to snapshot {@code upTo} has inode {@code id} at the entry. */
    private boolean kept(long id, long upTo) {
      for (InodeVersionRow w : versions) {
        if (w.present() && w.id() == id && w.snapshotId() <= upTo && !dropped.contains(w)) {
          return true;
        }
      }
      return false;
    }

    /**
     * The rename rows at the dropped versions' keys whose inode no kept snapshot has here before,
     * and the earlier-entry rows of the files no kept version names here.
     */
    void dropOrphans(ExecutePhase tx) throws IOException {
      for (InodeVersionRow v : dropped) {
        for (SnapshotRenamedEntryRow r : renames) {
          if (r.snapshotId() == v.snapshotId() && !kept(r.inodeId(), r.snapshotId())) {
            tx.delete(SnapshotRenamedEntryRow.TABLE, r);
          }
        }
        if (v.present() && !v.isDir() && !kept(v.id(), Long.MAX_VALUE)) {
          tx.delete(
              SnapshotEarlierEntryRow.TABLE,
              SnapshotEarlierEntryRow.TABLE.key(v.id(), v.parentId(), v.name()));
        }
      }
    }
  }

  /** The pending rows of the reclaims not finished, at most {@code limit}. */
  private static final class PendingReclaims extends Operation<List<SnapshotVersionLogRow>> {
    private final int limit;
    private List<SnapshotVersionLogRow> rows = List.of();

    PendingReclaims(int limit) {
      this.limit = limit;
    }

    @Override
    public String name() {
      return "pendingSnapshotReclaims";
    }

    @Override
    protected void lock(LockPhase tx) throws IOException {
      rows =
          tx.scanFrom(
              SnapshotVersionLogRow.TABLE,
              SnapshotVersionLogRow.PENDING,
              null,
              limit,
              LockMode.READ_COMMITTED);
    }

    @Override
    protected List<SnapshotVersionLogRow> execute(ExecutePhase tx) {
      return rows;
    }
  }
}
