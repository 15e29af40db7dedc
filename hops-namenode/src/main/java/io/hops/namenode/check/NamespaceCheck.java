package io.hops.namenode.check;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.check.Problem.Kind;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * The namespace's invariants, checked straight from the database (the engine of {@code hops
 * fsck-namespace} and of the tests' consistency checks): one root; every other inode's parent
 * exists and is a directory; ids unique; names unique per directory; no cycles and every inode
 * reachable from the root; every row in the partition its parent and name call for; children counts
 * right; every block belongs to a live file (or one whose blocks are being released), has the one
 * offset row that places it in its file, and every replica belongs to a live block; no subtree mark
 * or subtree operation of a dead namenode; every quota row's usage equal to what its subtree holds;
 * every snapshot version log row names its version ({@link SnapshotLogLinks}).
 *
 * <p>It streams: each table is read in key order in pages of {@code batch} rows, each page checked
 * in its own read-committed transaction against the rows it points to (a parent by id, a block by
 * key), so neither a transaction nor the check's heap grows with the namespace. The inodes' key
 * order groups them by parent, so one lookup of a parent serves all its children; the tree is then
 * walked from the root ({@link TreeWalk}) for reachability, children counts and quota usage, with a
 * page of children per level; blocks, replicas, offsets and attributes are joined with the rows
 * they name ({@link RowLinks}). What it keeps besides: an 8 MB window of seen ids (rounds of it
 * above 64 M ids), the problems found, and the ids of files kept for snapshots. On a namespace in
 * use the pages see different moments: run it on a quiet namespace for a verdict (as HDFS's fsck,
 * it reports what it saw).
 */
public final class NamespaceCheck {
  /** Ids per round of the duplicate-id check: a bit each, 8 MB. */
  static final long ID_WINDOW = 1L << 26;

  private final Storage storage;
  private final int batch;
  private final Consumer<String> progress;
  private final LongPredicate ownerAlive;
  private final List<Problem> problems = new ArrayList<>();

  /** Children that are rows of a wrong partition, by parent: a partition's scan misses them. */
  private final Map<Long, Integer> misplacedChildren = new HashMap<>();

  /** The usage each quota directory with a wrong one should have (for the repair). */
  private final Map<Long, long[]> usage = new HashMap<>();

  /**
   * {@code ownerAlive} tells whether a namenode id is in the membership (a mark of one that is not
   * is stale); {@code progress} sees a line per page.
   */
  public NamespaceCheck(
      Storage storage, int batch, Consumer<String> progress, LongPredicate ownerAlive) {
    this.storage = storage;
    this.batch = batch;
    this.progress = progress;
    this.ownerAlive = ownerAlive;
  }

  /** Runs every check; the problems found, empty when the namespace is consistent. */
  public List<Problem> run() throws StorageException {
    problems.clear();
    misplacedChildren.clear();
    usage.clear();
    InodeRow root;
    try (Transaction tx = storage.begin()) {
      root = tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.READ_COMMITTED);
      tx.commit();
    }
    if (root == null || root.id() != Inodes.ROOT_ID) {
      add(problem(Kind.NO_ROOT, "no root inode", Inodes.ROOT_ID));
      return List.copyOf(problems);
    }
    long inodes = checkInodes();
    checkDuplicateIds();
    new TreeWalk(this).run(root, inodes);
    checkSubtreeOperations();
    new RowLinks(this).run();
    new SnapshotLogLinks(this).run();
    return List.copyOf(problems);
  }

  long[] countedUsage(long id) {
    return usage.get(id);
  }

  /**
   * Each inode on its own and against its parent, with one lookup per run of siblings (the key
   * order groups them): partition, name, parent, subtree mark, attribute flags. Returns how many.
   */
  private long checkInodes() throws StorageException {
    long[] parent = {Long.MIN_VALUE};
    InodeRow[] parentRow = {null};
    return scan(
        InodeRow.TABLE,
        "inodes",
        (page, tx) -> {
          for (InodeRow r : page) {
            if (r.id() == Inodes.ROOT_ID && r.parentId() == Inodes.NO_PARENT) {
              continue;
            }
            checkPlace(r, tx);
            if (r.parentId() != Inodes.DETACHED) {
              if (r.parentId() != parent[0]) {
                parent[0] = r.parentId();
                parentRow[0] = byId(tx, r.parentId());
              }
              if (parentRow[0] == null) {
                // Gone with its parent since the page was read (a delete that ran meanwhile) is
                // no orphan.
                if (stillThere(tx, InodeRow.TABLE, r)) {
                  add(
                      problem(
                          Kind.ORPHAN,
                          describe(r) + ": its parent " + r.parentId() + " does not exist",
                          r.id()));
                }
              } else if (!parentRow[0].isDir()) {
                add(
                    problem(
                        Kind.PARENT_NOT_DIRECTORY, describe(r) + " has a file as parent", r.id()));
              }
            }
            // A detached root's mark names its reclaimer; the leader takes a dead one's over.
            if (r.subtreeLocked()
                && r.parentId() != Inodes.DETACHED
                && !ownerAlive.test(r.subtreeLockOwner())) {
              add(
                  new Problem(
                      Kind.STALE_SUBTREE_MARK,
                      describe(r)
                          + " is marked by namenode "
                          + r.subtreeLockOwner()
                          + ", which is not alive",
                      r.id(),
                      r.subtreeLockOwner()));
            }
            checkFlags(r, tx);
          }
        });
  }

  /** The row's partition is the one its parent and name call for, and its name is not taken. */
  private void checkPlace(InodeRow r, Transaction tx) throws StorageException {
    long want = Inodes.partitionOf(r.parentId(), r.name());
    if (r.partitionId() == want) {
      return;
    }
    add(
        problem(
            Kind.WRONG_PARTITION,
            describe(r) + " is in partition " + r.partitionId() + ", not " + want,
            r.id()));
    misplacedChildren.merge(r.parentId(), 1, Integer::sum);
    if (tx.find(InodeRow.TABLE, Inodes.key(r.parentId(), r.name()), LockMode.READ_COMMITTED)
        != null) {
      add(
          problem(
              Kind.DUPLICATE_NAME,
              "two children named " + r.name() + " under inode " + r.parentId(),
              r.id()));
    }
  }

  /** An inode flagged with an ACL or attributes has such rows. */
  private void checkFlags(InodeRow r, Transaction tx) throws StorageException {
    boolean acl = InodeFlags.hasAcl(r.permission());
    boolean xattrs = InodeFlags.hasXAttrs(r.permission());
    if (!acl && !xattrs) {
      return;
    }
    boolean hasAcl = false;
    boolean hasXAttrs = false;
    for (XAttrRow x : tx.findByPartition(XAttrRow.TABLE, r.id(), LockMode.READ_COMMITTED)) {
      if (x.namespace() == XAttrRow.HIDDEN) {
        hasAcl = true;
      } else {
        hasXAttrs = true;
      }
    }
    if (acl && !hasAcl) {
      add(
          problem(
              Kind.ATTRIBUTE_ROWS,
              describe(r) + " is flagged with an ACL it does not have",
              r.id()));
    }
    if (xattrs && !hasXAttrs) {
      add(
          problem(
              Kind.ATTRIBUTE_ROWS,
              describe(r) + " is flagged with attributes it does not have",
              r.id()));
    }
  }

  /**
   * No two inodes share an id: a bit per id in a window of {@link #ID_WINDOW} ids, one scan of the
   * inodes per window that holds ids (one scan up to 64 M ids).
   */
  private void checkDuplicateIds() throws StorageException {
    BitSet seen = new BitSet();
    long from = 0;
    while (from != Long.MAX_VALUE) {
      long start = from;
      long[] next = {Long.MAX_VALUE};
      seen.clear();
      scan(
          InodeRow.TABLE,
          "inode ids from " + start,
          (page, tx) -> {
            for (InodeRow r : page) {
              long id = r.id();
              if (id >= start + ID_WINDOW) {
                next[0] = Math.min(next[0], id);
              } else if (id >= start) {
                int bit = (int) (id - start);
                if (seen.get(bit)) {
                  add(problem(Kind.DUPLICATE_ID, "two inodes with id " + id, id));
                }
                seen.set(bit);
              }
            }
          });
      from = next[0];
    }
  }

  private void checkSubtreeOperations() throws StorageException {
    scan(
        OnGoingSubtreeOpRow.TABLE,
        "subtree operations",
        (page, tx) -> {
          for (OnGoingSubtreeOpRow o : page) {
            if (!ownerAlive.test(o.namenodeId())) {
              add(
                  new Problem(
                      Kind.STALE_SUBTREE_OPERATION,
                      "the subtree operation on "
                          + o.path()
                          + " of namenode "
                          + o.namenodeId()
                          + ", which is not alive",
                      o.inodeId(),
                      o.namenodeId()));
            }
          }
        });
  }

  /** The inode of {@code id}, or null: an index read. */
  static InodeRow byId(Transaction tx, long id) throws StorageException {
    List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED);
    return rows.isEmpty() ? null : rows.get(0);
  }

  /**
   * Whether {@code row} is still stored: a problem found by a lookup after the row's page was read
   * is reported only if the row outlived the lookup, since a delete running meanwhile (a subtree's
   * reclaim, a file's blocks released) takes the row and what it names away together.
   */
  static <R extends Record> boolean stillThere(Transaction tx, Table<R> table, R row)
      throws StorageException {
    return tx.find(table, table.keyOf(row), LockMode.READ_COMMITTED) != null;
  }

  void add(Problem p) {
    problems.add(p);
  }

  void needsUsage(long id, long[] counted) {
    usage.put(id, counted);
  }

  int misplacedChildren(long parentId) {
    return misplacedChildren.getOrDefault(parentId, 0);
  }

  static Problem problem(Kind kind, String text, long id) {
    return new Problem(kind, text, id, 0);
  }

  static String describe(InodeRow n) {
    return (n.isDir() ? "directory " : "file ") + n.name() + " (" + n.id() + ")";
  }

  /** Checks a page of rows inside the read-committed transaction that read it. */
  interface PageCheck<R> {
    void check(List<R> page, Transaction tx) throws StorageException;
  }

  /**
   * Reads {@code table} in pages, one read-committed transaction each, in which the page is
   * checked, with a progress line; returns the rows read.
   */
  <R extends Record> long scan(Table<R> table, String what, PageCheck<R> each)
      throws StorageException {
    Key after = null;
    long rows = 0;
    while (true) {
      List<R> page;
      try (Transaction tx = storage.begin()) {
        page = tx.scanFrom(table, null, after, batch, LockMode.READ_COMMITTED);
        each.check(page, tx);
        tx.commit();
      }
      rows += page.size();
      if (page.size() < batch) {
        progress.accept("checked " + rows + " " + what);
        return rows;
      }
      after = table.keyOf(page.get(page.size() - 1));
      progress.accept("checked " + rows + " " + what + " ...");
    }
  }

  void progress(String line) {
    progress.accept(line);
  }

  int batch() {
    return batch;
  }

  /** The storage checked. */
  Storage storage() {
    return storage;
  }
}
