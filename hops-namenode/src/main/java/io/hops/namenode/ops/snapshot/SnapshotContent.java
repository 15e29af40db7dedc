package io.hops.namenode.ops.snapshot;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotRenamedEntryRow;
import io.hops.dal.rows.SnapshotRow;
import io.hops.namenode.ops.ChildrenCount;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the snapshots of a subtree hold besides its live inodes, as HDFS counts it in {@code
 * getContentSummary} (DirectoryWithSnapshotFeature.computeContentSummary4Snapshot): every child a
 * directory had at a snapshot that still exists and no longer has under that name (deleted,
 * replaced, or renamed away, which HDFS also counts through its reference), once per entry it left
 * (HDFS counts a file renamed and then deleted through both references), with everything a deleted
 * directory held, through each entry it is reached by (docs/architecture.md, "Snapshots", "Content
 * summaries"). The counts add to the summary's and are its {@code snapshot...} figures.
 *
 * <p>An entry's inode counts as its latest version has it, and a file deleted there as HDFS's
 * deleted file counts itself (its current state, INodeFile.computeContentSummary): its blocks the
 * delete left it (those a snapshot's length reaches, or those before a truncate's cut after its
 * latest version), and the blocks its truncates keep for the snapshots (its tails), in its space. A
 * file that left its entry by a rename counts at its version's length with no tails, as HDFS's
 * {@code WithName} reference counts it at its snapshot; a directory that did, live or deleted
 * since, counts its whole subtree as it was at its version's snapshot ({@link
 * RenamedDirectoryCount}), as the reference counts it there.
 *
 * <p>Cost: nothing for a directory that no snapshottable directory with snapshots, nor the hold of
 * a directory moved out of one, covers; else a pruned scan of the directory's versions, and when it
 * has some, of its live children and (once per snapshottable directory and read) of its snapshots,
 * read committed; a deleted directory adds a scan of its versions, and one of its rows when a
 * delete too big for one transaction detached it with them: the whole deleted subtree is read in
 * one transaction. Each held directory adds a pruned scan of its entry's renamed rows (a renamed
 * one's subtree as it was is read by {@link RenamedDirectoryCount}, bounded). Below a directory
 * moved out of its snapshots, its hold rows (by the index) and each holder's snapshots (a pruned
 * scan), once per count. Where files are held, or live files may have tails, one batched read of
 * their tails and one of the blocks of the held files and of the tails, and a read of a file's
 * renamed entries by the index where its blocks say it changed after its latest version.
 *
 * <p>{@code keptByTruncates} is the space of the blocks truncates keep for the snapshots of live
 * files: HDFS counts a file's diff blocks in its own space, so it adds to the summary's space and
 * not to its snapshot figures. A file truncated in place after a snapshot has its entry's version
 * in its directory's partition, read here anyway, and one renamed since carries the reference mark,
 * which its directory's count sees ({@link ChildrenCount}): only such files are asked for tails.
 */
public record SnapshotContent(
    long length, long files, long dirs, long space, long keptByTruncates) {
  public static final SnapshotContent NONE = new SnapshotContent(0, 0, 0, 0, 0);

  /** The holder of a hold row that holds its directory for good. */
  private static final long KEPT_FOR_GOOD = 0;

  /**
   * An entry a snapshot had: the directory, the name, and the inode it named; below a deleted
   * directory, also the entry it was reached through ({@code via}, null at the top), as HDFS counts
   * a directory's contents once per reference to it.
   */
  public record Entry(long parentId, String name, long id, Entry via) {
    static Entry of(InodeVersionRow v) {
      return of(v, null);
    }

    static Entry of(InodeVersionRow v, Entry via) {
      return new Entry(v.parentId(), v.name(), v.id(), via);
    }
  }

  /** What one entry only the snapshots hold adds: a directory counts itself, not what it held. */
  public record Held(long length, long files, long dirs, long space) {}

  static final Held DIRECTORY = new Held(0, 0, 1, 0);

  /**
   * What one transaction found: the entries only the snapshots hold, the space truncates keep for
   * live files, and the directories that left a snapshot's entry by a rename, whose subtrees as
   * they were at the snapshot are still to count ({@link RenamedDirectoryCount}). The subtree
   * protocol reads one per step of its walk; {@link Sum} adds them.
   */
  public record Part(
      Map<Entry, Held> held, long keptByTruncates, List<RenamedDirectoryCount.Pending> renamed) {
    public static final Part NONE = new Part(Map.of(), 0, List.of());
  }

  /** Adds up parts read in separate transactions, each held entry once. */
  public static final class Sum {
    private final Set<Entry> counted = new HashSet<>();
    private final Map<Entry, RenamedDirectoryCount.Pending> renamed = new LinkedHashMap<>();
    private long length;
    private long files;
    private long dirs;
    private long space;
    private long kept;

    public void add(Part part) {
      for (Map.Entry<Entry, Held> e : part.held().entrySet()) {
        if (counted.add(e.getKey())) {
          Held h = e.getValue();
          length += h.length();
          files += h.files();
          dirs += h.dirs();
          space += h.space();
        }
      }
      kept += part.keptByTruncates();
      for (RenamedDirectoryCount.Pending p : part.renamed()) {
        renamed.putIfAbsent(p.via(), p);
      }
    }

    /**
     * The directories renamed away from a snapshot's entry whose subtrees as they were are still to
     * count, each once over the parts: a part's own are counted with it ({@link #read}), the
     * subtree protocol's after its walk.
     */
    public List<RenamedDirectoryCount.Pending> renamed() {
      return List.copyOf(renamed.values());
    }

    public SnapshotContent total() {
      return new SnapshotContent(length, files, dirs, space, kept);
    }
  }

  /**
   * Counts what the snapshots hold below the directories of {@code covered}, each mapped to the id
   * of the snapshottable directory (with snapshots) that covers it, and the tails of {@code marked}
   * (live files the reference mark says some snapshot had elsewhere; see {@link ChildrenCount}),
   * with the subtrees of directories renamed away from a snapshot's entry as they were then; null
   * when those subtrees hold more than {@code bound} inodes: the subtree protocol counts them.
   */
  public static SnapshotContent read(
      LockPhase tx, Map<Long, Long> covered, Collection<InodeRow> marked, int bound)
      throws StorageException {
    Sum sum = new Sum();
    sum.add(readPart(tx, covered, marked));
    RenamedDirectoryCount.Step renamed = RenamedDirectoryCount.read(tx, sum.renamed(), bound);
    if (!renamed.left().isEmpty()) {
      return null;
    }
    sum.add(renamed.part());
    return sum.total();
  }

  /** As {@link #read}, each held entry apart, for a {@link Sum} over many transactions. */
  public static Part readPart(LockPhase tx, Map<Long, Long> covered, Collection<InodeRow> marked)
      throws StorageException {
    if (covered.isEmpty() && marked.isEmpty()) {
      return Part.NONE;
    }
    Map<Long, Readers> snapshots = new HashMap<>();
    Counting counting = new Counting(tx);
    Map<Long, Short> live = new HashMap<>();
    for (InodeRow r : marked) {
      live.put(r.id(), r.replication());
    }
    for (Map.Entry<Long, Long> e : covered.entrySet()) {
      long dir = e.getKey();
      List<InodeVersionRow> versions =
          tx.findByPartition(InodeVersionRow.TABLE, dir, LockMode.READ_COMMITTED);
      if (versions.isEmpty()) {
        continue;
      }
      Readers ids = snapshots.get(e.getValue());
      if (ids == null) {
        ids = Readers.of(tx, e.getValue());
        snapshots.put(e.getValue(), ids);
      }
      Set<String> versioned = new HashSet<>();
      for (InodeVersionRow v : versions) {
        versioned.add(v.name());
      }
      Map<String, Long> now = new HashMap<>();
      for (InodeRow r : liveChildren(tx, dir)) {
        now.put(r.name(), r.id());
        if (!r.isDir() && !r.fileStoredInDb() && versioned.contains(r.name())) {
          live.put(r.id(), r.replication());
        }
      }
      for (InodeVersionRow v : seen(versions, ids)) {
        Long id = now.get(v.name());
        if ((id == null || id != v.id()) && !counting.held.containsKey(Entry.of(v))) {
          counting.count(v, ids);
        }
      }
    }
    long kept = lastStates(tx, counting.files, live, counting.held);
    return new Part(counting.held, kept, counting.renamed);
  }

  /**
   * What a file's content summary adds for the snapshots: the space of the blocks truncates keep
   * for them ({@link CopyOnTruncate#keptSpace}), for a file a snapshottable directory with
   * snapshots covers ({@code covered}) or that a rename marked as some snapshot's; nothing else.
   */
  public static SnapshotContent ofFile(LockPhase tx, InodeRow file, boolean covered)
      throws StorageException {
    if (file.isDir() || file.fileStoredInDb() || (!covered && file.snapshotId() == 0)) {
      return NONE;
    }
    return new SnapshotContent(
        0, 0, 0, 0, CopyOnTruncate.keptSpace(tx, Map.of(file.id(), file.replication())));
  }

  /**
   * The snapshot at which a directory that left an entry by a rename while snapshot {@code
   * snapshotId} of {@code keeper} (the snapshottable or held directory whose snapshots read the
   * entry) had it is counted, as {@link RenamedDirectoryCount} counts it for a content summary: the
   * earliest of the keeper's snapshots from {@code snapshotId} on, else as it is now ({@link
   * Long#MAX_VALUE}). One or two pruned scans, read committed.
   */
  static long renamedCountedAt(LockPhase tx, long keeper, long snapshotId) throws StorageException {
    Readers ids = Readers.of(tx, keeper);
    if (ids.ids().isEmpty()) {
      ids = Readers.ofHeld(tx, keeper);
    }
    return ids.readAt(snapshotId);
  }

  /**
   * The cover of a directory for {@link #readPart}, from its parent's ({@code above}) and its own
   * ({@code own}; both as {@link LockPhase#summaryCover} gives them): a snapshottable directory
   * with snapshots anywhere above wins, else the nearest hold.
   */
  public static long coverBelow(long above, long own) {
    return own > 0 || (own < 0 && above <= 0) ? own : above;
  }

  /**
   * The snapshots that may read a covered directory's versions: those of its snapshottable
   * directory, or, below a directory moved out of its snapshots, those of its holders up to each
   * one's hold; where a holder's snapshots are not known ({@code ids} null), every snapshot up to
   * the directory's hold ({@code upTo}), which stands while one of them remains.
   */
  private record Readers(TreeSet<Long> ids, long upTo) {
    static Readers of(LockPhase tx, long cover) throws StorageException {
      if (cover < 0) {
        return ofHeld(tx, -cover);
      }
      TreeSet<Long> ids = new TreeSet<>();
      for (SnapshotRow s : tx.findByPartition(SnapshotRow.TABLE, cover, LockMode.READ_COMMITTED)) {
        ids.add(s.snapshotId());
      }
      return new Readers(ids, 0);
    }

    /**
     * Below held directory {@code heldId}: its hold rows ({@code (holder, hold, -heldId)}, by the
     * index) name its holders, and each holder's snapshots up to its hold read it (a pruned scan
     * each). A holder held for good, or one with no snapshots of its own (a held directory, or a
     * snapshottable one whose snapshots are all gone, whose hold ends soon), leaves the holders
     * unknown: then every snapshot up to the directory's hold (its row, by id).
     */
    static Readers ofHeld(LockPhase tx, long heldId) throws StorageException {
      TreeSet<Long> ids = new TreeSet<>();
      List<SnapshotKeptFileRow> holds =
          tx.findByIndex(SnapshotKeptFileRow.TABLE, "inode_id", -heldId, LockMode.READ_COMMITTED);
      for (SnapshotKeptFileRow h : holds) {
        List<SnapshotRow> of =
            h.dirId() == KEPT_FOR_GOOD
                ? List.of()
                : tx.findByPartition(SnapshotRow.TABLE, h.dirId(), LockMode.READ_COMMITTED);
        if (of.isEmpty()) {
          holds = List.of();
          break;
        }
        for (SnapshotRow s : of) {
          if (s.snapshotId() <= h.snapshotId()) {
            ids.add(s.snapshotId());
          }
        }
      }
      if (holds.isEmpty()) {
        InodeRow held = tx.inodePaths().byId(heldId);
        return new Readers(null, held == null ? 0 : held.snapshotId());
      }
      return new Readers(ids, 0);
    }

    /**
     * The snapshot that reads the state recorded at {@code id}: the earliest from it on, else the
     * current state ({@link Long#MAX_VALUE}: above every snapshot's id); {@code id} itself where
     * the snapshots are not known.
     */
    long readAt(long id) {
      if (ids == null) {
        return id;
      }
      Long s = ids.ceiling(id);
      return s == null ? Long.MAX_VALUE : s;
    }

    /** Whether a snapshot in {@code [from, to]} may read. */
    boolean anyIn(long from, long to) {
      if (ids == null) {
        return from <= Math.min(to, upTo);
      }
      Long s = ids.ceiling(from);
      return s != null && s <= to;
    }
  }

  /**
   * The latest present version of each entry and inode that some existing snapshot reads: a version
   * at s answers the snapshots after the entry's previous version and up to s, and the latest one
   * is the inode as it was last seen there.
   */
  private static List<InodeVersionRow> seen(List<InodeVersionRow> versions, Readers ids) {
    List<InodeVersionRow> sorted = new ArrayList<>(versions);
    sorted.sort(
        Comparator.comparing(InodeVersionRow::name).thenComparingLong(InodeVersionRow::snapshotId));
    Map<Entry, InodeVersionRow> latest = new LinkedHashMap<>();
    String name = null;
    long previous = 0;
    for (InodeVersionRow v : sorted) {
      if (!v.name().equals(name)) {
        name = v.name();
        previous = 0;
      }
      if (v.present() && ids.anyIn(previous + 1, v.snapshotId())) {
        latest.put(Entry.of(v), v);
      }
      previous = v.snapshotId();
    }
    return new ArrayList<>(latest.values());
  }

  /**
   * The entries the snapshots alone hold, as one transaction counts them: the files (not symlinks,
   * not in the database) go into {@code files}, for {@link #lastStates}; a directory renamed away
   * from the entry into {@code renamed}, its subtree as it was to count.
   */
  private static final class Counting {
    private final LockPhase tx;
    private final Map<Entry, Held> held = new LinkedHashMap<>();
    private final Map<Entry, InodeVersionRow> files = new LinkedHashMap<>();
    private final List<RenamedDirectoryCount.Pending> renamed = new ArrayList<>();

    Counting(LockPhase tx) {
      this.tx = tx;
    }

    /**
     * Adds an entry the snapshots alone hold: a file, or a directory with what it held, each entry
     * once ({@code held}); {@code ids} are the covering directory's snapshots.
     */
    void count(InodeVersionRow v, Readers ids) throws StorageException {
      if (v.isDir() && renamedAway(v, null, ids)) {
        return;
      }
      // A directory deleted too big for one transaction is detached with its rows (held for the
      // snapshots): below it, an entry without a version from the delete's snapshot on is its row.
      boolean detached =
          v.isDir()
              && tx.find(InodeRow.TABLE, Inodes.detachedKey(v.id()), LockMode.READ_COMMITTED)
                  != null;
      count(v, null, v.snapshotId(), detached, ids);
    }

    private void count(InodeVersionRow v, Entry via, long deletedAt, boolean detached, Readers ids)
        throws StorageException {
      Entry key = Entry.of(v, via);
      if (!v.isDir()) {
        // HDFS's snapshot counts leave symlinks out of the files
        held.put(
            key, new Held(v.size(), v.symlink() == null ? 1 : 0, 0, v.size() * v.replication()));
        if (v.symlink() == null && !v.fileStoredInDb()) {
          files.put(key, v);
        }
        return;
      }
      held.put(key, DIRECTORY);
      Entry below = via == null ? key : via;
      for (InodeVersionRow child : seen(heldBy(tx, v.id(), deletedAt, detached), ids)) {
        if (!held.containsKey(Entry.of(child, below))
            && !(child.isDir() && renamedAway(child, below, ids))) {
          count(child, below, deletedAt, detached, ids);
        }
      }
    }

    /**
     * Whether directory version {@code v} is of a directory that left the entry by a rename (its
     * {@code snapshot_renamed_entries} row, at or after the version: a pruned scan of the entry's),
     * HDFS's {@code WithName}, which counts the directory's subtree as it was at its last snapshot
     * (the row's): if so, the entry counts the directory and its subtree is left to {@link
     * RenamedDirectoryCount}, at the earliest snapshot of {@code ids} from the row's on, else as it
     * is now (HDFS reads a snapshot's id by its next recorded state, AbstractINodeDiffList
     * .getDiffById, and merges a deleted snapshot's diffs into the previous one's).
     */
    private boolean renamedAway(InodeVersionRow v, Entry via, Readers ids) throws StorageException {
      SnapshotRenamedEntryRow left = null;
      for (SnapshotRenamedEntryRow r :
          tx.findByPartition(
              SnapshotRenamedEntryRow.TABLE,
              v.parentId(),
              "name",
              v.name(),
              LockMode.READ_COMMITTED)) {
        if (r.inodeId() == v.id()
            && r.snapshotId() >= v.snapshotId()
            && (left == null || r.snapshotId() < left.snapshotId())) {
          left = r; // the departure that ended the version's stay
        }
      }
      if (left == null) {
        return false;
      }
      Entry key = Entry.of(v, via);
      held.put(key, DIRECTORY);
      renamed.add(new RenamedDirectoryCount.Pending(v.id(), ids.readAt(left.snapshotId()), key));
      return true;
    }
  }

  /**
   * Counts the held files as HDFS's deleted files count themselves, and returns the space the tails
   * of the {@code live} files keep. A held file's latest entry is where it was deleted, unless it
   * left it by a rename: its blocks there (read with the tails, in one batched read) give its
   * length as HDFS's delete leaves it (FileWithSnapshotFeature.collectBlocksAndClear: the blocks
   * before the cut of a truncate after its latest version, else those its latest version's length
   * reaches), and its tails add to its space. Where that changes nothing nothing more is read; else
   * its renamed entries (by the index) say whether it left the entry by a rename, whose reference
   * HDFS counts at its snapshot, as the version has it.
   */
  private static long lastStates(
      LockPhase tx, Map<Entry, InodeVersionRow> files, Map<Long, Short> live, Map<Entry, Held> held)
      throws StorageException {
    Map<Long, InodeVersionRow> last = new HashMap<>();
    for (InodeVersionRow v : files.values()) {
      InodeVersionRow was = last.get(v.id());
      if (!live.containsKey(v.id()) && (was == null || v.snapshotId() > was.snapshotId())) {
        last.put(v.id(), v);
      }
    }
    List<Long> asked = new ArrayList<>(live.keySet());
    asked.addAll(last.keySet());
    if (asked.isEmpty()) {
      return 0;
    }
    Map<Long, SnapshotFileTailRow> tails = new HashMap<>();
    for (SnapshotFileTailRow t :
        tx.findByPartitions(SnapshotFileTailRow.TABLE, asked, LockMode.READ_COMMITTED)) {
      if (!t.isReleased()) {
        tails.put(t.tailId(), t);
      }
    }
    List<Long> blocksOf = new ArrayList<>(tails.keySet());
    blocksOf.addAll(last.keySet());
    if (blocksOf.isEmpty()) {
      return 0;
    }
    Map<Long, Long> tailBytes = new HashMap<>();
    Map<Long, Integer> cut = new HashMap<>(); // the first index a truncate after the version took
    Map<Long, List<BlockInfoRow>> own = new HashMap<>();
    for (BlockInfoRow b :
        tx.findByPartitions(BlockInfoRow.TABLE, blocksOf, LockMode.READ_COMMITTED)) {
      SnapshotFileTailRow t = tails.get(b.inodeId());
      if (t == null) {
        own.computeIfAbsent(b.inodeId(), k -> new ArrayList<>()).add(b);
      } else if (b.blockId() != t.copyId()) {
        tailBytes.merge(t.inodeId(), b.numBytes(), Long::sum);
        InodeVersionRow v = last.get(t.inodeId());
        if (v != null && t.snapshotId() >= v.snapshotId()) {
          cut.merge(t.inodeId(), b.blockIndex(), Math::min);
        }
      }
    }
    long kept = 0;
    for (Map.Entry<Long, Short> f : live.entrySet()) {
      kept += tailBytes.getOrDefault(f.getKey(), 0L) * f.getValue();
    }
    for (InodeVersionRow v : last.values()) {
      long tail = tailBytes.getOrDefault(v.id(), 0L);
      long length = lengthLeft(v, own.get(v.id()), cut.get(v.id()));
      if ((tail == 0 && length == v.size()) || leftByRename(tx, v)) {
        continue;
      }
      Held left = new Held(length, 1, 0, (length + tail) * v.replication());
      for (Map.Entry<Entry, InodeVersionRow> f : files.entrySet()) {
        if (f.getValue().equals(v)) { // each reference the file was reached through
          held.put(f.getKey(), left);
        }
      }
    }
    return kept;
  }

  /**
   * A deleted file's length as HDFS's delete leaves it: its blocks before {@code cut} (the first
   * index a truncate after its latest version took for the snapshots), else those that start before
   * its latest version's length; the version's length where no block is left.
   */
  private static long lengthLeft(InodeVersionRow v, List<BlockInfoRow> blocks, Integer cut) {
    if (blocks == null) {
      return v.size();
    }
    long length = 0;
    for (BlockInfoRow b : blocks) {
      if (cut != null ? b.blockIndex() < cut : b.startOffset() < v.size()) {
        length += b.numBytes();
      }
    }
    return length;
  }

  /** Whether the file of version {@code v} left the version's entry by a rename (by the index). */
  private static boolean leftByRename(LockPhase tx, InodeVersionRow v) throws StorageException {
    for (SnapshotRenamedEntryRow r :
        tx.findByIndex(
            SnapshotRenamedEntryRow.TABLE, "inode_id", v.id(), LockMode.READ_COMMITTED)) {
      if (r.parentId() == v.parentId() && r.name().equals(v.name())) {
        return true;
      }
    }
    return false;
  }

  /**
   * The versions of deleted directory {@code dir}'s entries: its delete (or an earlier change)
   * versioned each at the snapshot it was deleted at, {@code deletedAt}. Below a detached directory
   * an entry without a version from that snapshot on is its live row, unchanged since: it counts as
   * a version at {@code deletedAt}.
   */
  private static List<InodeVersionRow> heldBy(
      LockPhase tx, long dir, long deletedAt, boolean detached) throws StorageException {
    List<InodeVersionRow> versions =
        new ArrayList<>(tx.findByPartition(InodeVersionRow.TABLE, dir, LockMode.READ_COMMITTED));
    if (detached) {
      Set<String> answered = new HashSet<>();
      for (InodeVersionRow v : versions) {
        if (v.snapshotId() >= deletedAt) {
          answered.add(v.name());
        }
      }
      for (InodeRow r : tx.findByPartition(InodeRow.TABLE, dir, LockMode.READ_COMMITTED)) {
        if (!answered.contains(r.name())) {
          versions.add(InodeVersionRow.of(dir, r.name(), deletedAt, r));
        }
      }
    }
    return versions;
  }

  private static List<InodeRow> liveChildren(LockPhase tx, long dir) throws StorageException {
    return dir == Inodes.ROOT_ID
        ? tx.findByIndex(InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, LockMode.READ_COMMITTED)
        : tx.findByPartition(InodeRow.TABLE, dir, LockMode.READ_COMMITTED);
  }
}
