package io.hops.namenode.check;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.check.Problem.Kind;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.InodeFlags;
import io.hops.namenode.resolve.Inodes;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongPredicate;

/**
 * The namespace's invariants, checked straight from the database (the engine of {@code hops
 * fsck-namespace} and of the tests' consistency checks): one root; every other inode's parent
 * exists and is a directory; ids unique; names unique per directory; no cycles and every inode
 * reachable from the root; every row in the partition its parent and name call for; children counts
 * right; every block belongs to a live file (or one whose blocks are being released), has the one
 * offset row that places it in its file, and every replica belongs to a live block; no subtree mark
 * or subtree operation of a dead namenode; every quota row's usage equal to what its subtree holds.
 *
 * <p>Each table is read in pages of {@code batch} rows, each page its own read-committed
 * transaction, so no transaction grows with the namespace, and a progress line follows every page.
 * On a namespace in use the pages see different moments: run it on a quiet namespace for a verdict
 * (as HDFS's fsck, it reports what it saw). Memory: one small entry per inode (about 120 bytes with
 * a short name: 1 M inodes take about 120 MB) and an entry per block.
 */
public final class NamespaceCheck {
  /** What the check keeps of an inode. */
  private record Node(
      long id,
      long parentId,
      long partitionId,
      String name,
      boolean isDir,
      int childrenCount,
      boolean hasQuota,
      boolean subtreeLocked,
      long markOwner,
      long size,
      short replication,
      long preferredBlockSize,
      boolean underConstruction,
      short permission) {}

  private final Storage storage;
  private final int batch;
  private final Consumer<String> progress;
  private final LongPredicate ownerAlive;

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
    List<Problem> problems = new ArrayList<>();
    Map<Long, Node> byId = new HashMap<>();
    Map<Long, Integer> children = new HashMap<>();
    Set<String> names = new HashSet<>();
    long[] seen = {0};
    scan(
        InodeRow.TABLE,
        "inodes",
        r -> {
          seen[0]++;
          Node n =
              new Node(
                  r.id(),
                  r.parentId(),
                  r.partitionId(),
                  r.name(),
                  r.isDir(),
                  r.childrenCount(),
                  r.hasQuota(),
                  r.subtreeLocked(),
                  r.subtreeLockOwner(),
                  r.size(),
                  r.replication(),
                  r.preferredBlockSize(),
                  r.underConstruction(),
                  r.permission());
          if (byId.put(r.id(), n) != null) {
            problems.add(problem(Kind.DUPLICATE_ID, "two inodes with id " + r.id(), r.id()));
          }
          if (!names.add(r.parentId() + "/" + r.name())) {
            problems.add(
                problem(
                    Kind.DUPLICATE_NAME,
                    "two children named " + r.name() + " under inode " + r.parentId(),
                    r.id()));
          }
          if (r.id() != Inodes.ROOT_ID
              && r.partitionId() != Inodes.partitionOf(r.parentId(), r.name())) {
            problems.add(
                problem(
                    Kind.WRONG_PARTITION,
                    describe(n)
                        + " is in partition "
                        + r.partitionId()
                        + ", not "
                        + Inodes.partitionOf(r.parentId(), r.name()),
                    r.id()));
          }
          children.merge(r.parentId(), 1, Integer::sum);
        });
    names.clear();
    Node root = byId.get(Inodes.ROOT_ID);
    if (root == null || root.parentId() != Inodes.NO_PARENT) {
      problems.add(problem(Kind.NO_ROOT, "no root inode", Inodes.ROOT_ID));
      return problems;
    }
    checkTree(byId, children, problems);
    checkMarks(byId, problems);
    Map<Long, BlockInfoRow> lastOfOpen = checkBlocks(byId, problems);
    checkQuotas(byId, lastOfOpen, problems);
    checkAttributes(byId, problems);
    return problems;
  }

  /**
   * Every row of {@code xattrs} belongs to an inode whose flag says it has such rows (the ACL row
   * to the ACL flag, the others to the xattr flag), and every flagged inode has them.
   */
  private void checkAttributes(Map<Long, Node> byId, List<Problem> out) throws StorageException {
    Set<Long> withAcl = new HashSet<>();
    Set<Long> withXAttrs = new HashSet<>();
    scan(
        XAttrRow.TABLE,
        "xattrs",
        x -> {
          Node owner = byId.get(x.inodeId());
          boolean acl = x.namespace() == XAttrRow.HIDDEN;
          (acl ? withAcl : withXAttrs).add(x.inodeId());
          if (owner == null) {
            out.add(
                problem(
                    Kind.ATTRIBUTE_ROWS,
                    "attribute " + x.name() + " of a missing inode " + x.inodeId(),
                    x.inodeId()));
          } else if (acl
              ? !InodeFlags.hasAcl(owner.permission())
              : !InodeFlags.hasXAttrs(owner.permission())) {
            out.add(
                problem(
                    Kind.ATTRIBUTE_ROWS,
                    "attribute " + x.name() + " of " + describe(owner) + " without its flag",
                    owner.id()));
          }
        });
    for (Node n : byId.values()) {
      if (InodeFlags.hasAcl(n.permission()) && !withAcl.contains(n.id())) {
        out.add(
            problem(
                Kind.ATTRIBUTE_ROWS,
                describe(n) + " is flagged with an ACL it does not have",
                n.id()));
      }
      if (InodeFlags.hasXAttrs(n.permission()) && !withXAttrs.contains(n.id())) {
        out.add(
            problem(
                Kind.ATTRIBUTE_ROWS,
                describe(n) + " is flagged with attributes it does not have",
                n.id()));
      }
    }
  }

  private static Problem problem(Kind kind, String text, long id) {
    return new Problem(kind, text, id, 0);
  }

  private static String describe(Node n) {
    return (n.isDir() ? "directory " : "file ") + n.name() + " (" + n.id() + ")";
  }

  private void checkTree(Map<Long, Node> byId, Map<Long, Integer> children, List<Problem> out) {
    Map<Long, Boolean> reachable = new HashMap<>();
    reachable.put(Inodes.ROOT_ID, true);
    for (Node n : byId.values()) {
      if (n.id() != Inodes.ROOT_ID && n.parentId() != Inodes.DETACHED) {
        Node parent = byId.get(n.parentId());
        if (parent == null) {
          out.add(
              problem(
                  Kind.ORPHAN,
                  describe(n) + ": its parent " + n.parentId() + " does not exist",
                  n.id()));
        } else if (!parent.isDir()) {
          out.add(
              problem(Kind.PARENT_NOT_DIRECTORY, describe(n) + " has a file as parent", n.id()));
        }
        if (parent != null && !reachable(n, byId, reachable)) {
          out.add(
              problem(
                  Kind.UNREACHABLE,
                  describe(n) + " is not reachable from the root (a cycle or an orphan above)",
                  n.id()));
        }
      }
      if (n.isDir() && n.childrenCount() != children.getOrDefault(n.id(), 0)) {
        out.add(
            problem(
                Kind.CHILDREN_COUNT,
                describe(n)
                    + " counts "
                    + n.childrenCount()
                    + " children but has "
                    + children.getOrDefault(n.id(), 0),
                n.id()));
      }
    }
  }

  /** Whether the root is an ancestor of {@code n}; remembers the answer for every inode walked. */
  private static boolean reachable(Node n, Map<Long, Node> byId, Map<Long, Boolean> known) {
    List<Long> walked = new ArrayList<>();
    Set<Long> onWalk = new HashSet<>();
    Node cur = n;
    Boolean answer = null;
    while (answer == null) {
      answer = known.get(cur.id());
      if (answer != null) {
        break;
      }
      if (!onWalk.add(cur.id())) {
        answer = false; // a cycle
        break;
      }
      walked.add(cur.id());
      if (cur.parentId() == Inodes.DETACHED) {
        answer = true; // a deleted subtree waiting to be reclaimed: a root of its own
        break;
      }
      Node parent = byId.get(cur.parentId());
      if (parent == null) {
        answer = false;
        break;
      }
      cur = parent;
    }
    for (long id : walked) {
      known.put(id, answer);
    }
    return answer;
  }

  private void checkMarks(Map<Long, Node> byId, List<Problem> out) throws StorageException {
    for (Node n : byId.values()) {
      // A detached root's mark names its reclaimer; the leader takes a dead one's over.
      if (n.subtreeLocked() && n.parentId() != Inodes.DETACHED && !ownerAlive.test(n.markOwner())) {
        out.add(
            new Problem(
                Kind.STALE_SUBTREE_MARK,
                describe(n) + " is marked by namenode " + n.markOwner() + ", which is not alive",
                n.id(),
                n.markOwner()));
      }
    }
    scan(
        OnGoingSubtreeOpRow.TABLE,
        "subtree operations",
        o -> {
          if (!ownerAlive.test(o.namenodeId())) {
            out.add(
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
        });
  }

  /** Blocks and replicas; returns the last block of each file being written (for quotas). */
  private Map<Long, BlockInfoRow> checkBlocks(Map<Long, Node> byId, List<Problem> out)
      throws StorageException {
    Set<Long> released = new HashSet<>();
    scan(ReleasedFileRow.TABLE, "released files", r -> released.add(r.inodeId()));
    // Files deleted while a snapshot had them keep their blocks (docs/architecture.md,
    // "Snapshots").
    scan(
        io.hops.dal.rows.SnapshotKeptFileRow.TABLE,
        "files kept for snapshots",
        r -> released.add(r.inodeId()));
    // Each block's offset row as it should be, until the offset rows' scan finds it.
    Map<Long, BlockOffsetRow> blocks = new HashMap<>();
    Map<Long, BlockInfoRow> last = new HashMap<>();
    scan(
        BlockInfoRow.TABLE,
        "blocks",
        b -> {
          Node f = byId.get(b.inodeId());
          if ((f == null || f.isDir()) && !released.contains(b.inodeId())) {
            out.add(
                problem(
                    Kind.BLOCK_OF_MISSING_FILE,
                    "block "
                        + b.blockId()
                        + " belongs to inode "
                        + b.inodeId()
                        + (f == null ? ", which does not exist" : ", a directory"),
                    b.inodeId()));
          }
          blocks.put(b.blockId(), BlockOffsetRow.of(b));
          if (f != null && f.underConstruction()) {
            BlockInfoRow l = last.get(f.id());
            if (l == null || b.blockIndex() > l.blockIndex()) {
              last.put(f.id(), b);
            }
          }
        });
    scan(
        ReplicaRow.TABLE,
        "replicas",
        r -> {
          if (!blocks.containsKey(r.blockId())) {
            out.add(
                problem(
                    Kind.REPLICA_OF_MISSING_BLOCK,
                    "a replica on storage "
                        + r.storageId()
                        + " of block "
                        + r.blockId()
                        + " (inode "
                        + r.inodeId()
                        + "), which does not exist",
                    r.inodeId()));
          }
        });
    checkOffsets(blocks, out);
    return last;
  }

  /**
   * Every offset row places an existing block where its block row says (file, start offset, index),
   * and every block has one ({@code expected}: the rows the blocks call for, by block id; emptied).
   */
  private void checkOffsets(Map<Long, BlockOffsetRow> expected, List<Problem> out)
      throws StorageException {
    Set<Long> placed = new HashSet<>();
    scan(
        BlockOffsetRow.TABLE,
        "block offsets",
        o -> {
          BlockOffsetRow want = expected.get(o.blockId());
          if (want == null || !want.equals(o) || !placed.add(o.blockId())) {
            out.add(
                problem(
                    Kind.BLOCK_OFFSET,
                    "an offset row places block "
                        + o.blockId()
                        + " at "
                        + o.startOffset()
                        + " (index "
                        + o.blockIndex()
                        + ") of inode "
                        + o.inodeId()
                        + (want == null
                            ? ", a block that does not exist"
                            : ", where its block row does not (" + describe(want) + ")"),
                    o.inodeId()));
          }
        });
    for (BlockOffsetRow want : expected.values()) {
      if (!placed.contains(want.blockId())) {
        out.add(
            problem(
                Kind.BLOCK_OFFSET,
                "block " + want.blockId() + " has no offset row (" + describe(want) + ")",
                want.inodeId()));
      }
    }
  }

  private static String describe(BlockOffsetRow o) {
    return "at " + o.startOffset() + ", index " + o.blockIndex() + " of inode " + o.inodeId();
  }

  /**
   * Whether {@code n} is in a deleted subtree still being reclaimed: its quota usage is not kept up
   * to date any more, since no path reaches it.
   */
  private static boolean detached(Node n, Map<Long, Node> byId) {
    Node cur = n;
    for (int depth = 0; cur != null && depth < 10_000; depth++) {
      if (cur.parentId() == Inodes.DETACHED) {
        return true;
      }
      if (cur.id() == Inodes.ROOT_ID) {
        return false;
      }
      cur = byId.get(cur.parentId());
    }
    return false;
  }

  private void checkQuotas(
      Map<Long, Node> byId, Map<Long, BlockInfoRow> lastOfOpen, List<Problem> out)
      throws StorageException {
    Map<Long, QuotaRow> rows = new HashMap<>();
    scan(QuotaRow.TABLE, "quotas", q -> rows.put(q.inodeId(), q));
    Map<Long, long[]> counted = new HashMap<>();
    for (Node n : byId.values()) {
      if (n.isDir() && n.hasQuota()) {
        counted.put(n.id(), new long[2]);
        // A detached subtree's root loses its quota row while the reclaim is under way (its usage
        // is no longer kept); the reclaim's last transaction drops the root itself.
        if (!rows.containsKey(n.id()) && !detached(n, byId)) {
          out.add(problem(Kind.QUOTA_ROW, describe(n) + " has a quota but no quota row", n.id()));
        }
      }
    }
    for (QuotaRow q : rows.values()) {
      Node n = byId.get(q.inodeId());
      if (n == null || !n.isDir() || !n.hasQuota()) {
        out.add(
            problem(
                Kind.QUOTA_ROW,
                "a quota row for inode " + q.inodeId() + ", which has no quota",
                q.inodeId()));
      }
    }
    for (Node n : byId.values()) {
      long space =
          n.isDir()
              ? 0
              : FileSpace.of(
                  n.size(), n.replication(), n.preferredBlockSize(), lastOfOpen.get(n.id()));
      Node cur = n;
      for (int depth = 0; cur != null && depth < 10_000; depth++) {
        long[] c = counted.get(cur.id());
        if (c != null) {
          c[0]++;
          c[1] += space;
        }
        if (cur.id() == Inodes.ROOT_ID) {
          break;
        }
        cur = byId.get(cur.parentId());
      }
    }
    for (Map.Entry<Long, long[]> e : counted.entrySet()) {
      QuotaRow q = rows.get(e.getKey());
      long[] c = e.getValue();
      if (q != null
          && (q.nsCount() != c[0] || q.dsCount() != c[1])
          && !detached(byId.get(e.getKey()), byId)) {
        out.add(
            new Problem(
                Kind.QUOTA_USAGE,
                describe(byId.get(e.getKey()))
                    + " records a usage of "
                    + q.nsCount()
                    + " inodes and "
                    + q.dsCount()
                    + " bytes, its tree holds "
                    + c[0]
                    + " and "
                    + c[1],
                e.getKey(),
                0));
        usage.put(e.getKey(), c);
      }
    }
  }

  /** The usage each quota directory with a wrong one should have (for the repair). */
  private final Map<Long, long[]> usage = new HashMap<>();

  long[] countedUsage(long id) {
    return usage.get(id);
  }

  /** Reads {@code table} in pages, one read-committed transaction each, with a progress line. */
  private <R extends Record> void scan(Table<R> table, String what, Consumer<R> each)
      throws StorageException {
    Key after = null;
    long rows = 0;
    while (true) {
      List<R> page;
      try (Transaction tx = storage.begin()) {
        page = tx.scanFrom(table, null, after, batch, LockMode.READ_COMMITTED);
        tx.commit();
      }
      page.forEach(each);
      rows += page.size();
      if (page.size() < batch) {
        progress.accept("checked " + rows + " " + what);
        return;
      }
      after = table.keyOf(page.get(page.size() - 1));
      progress.accept("checked " + rows + " " + what + " ...");
    }
  }

  /** The storage checked. */
  Storage storage() {
    return storage;
  }
}
