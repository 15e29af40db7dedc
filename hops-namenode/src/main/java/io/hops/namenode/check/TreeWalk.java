package io.hops.namenode.check;

import static io.hops.namenode.check.NamespaceCheck.describe;
import static io.hops.namenode.check.NamespaceCheck.problem;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.check.Problem.Kind;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.Inodes;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The tree walked from the root (and from each deleted subtree's root still being reclaimed), depth
 * first, a page of children per level: each directory's children counted against its count, each
 * quota directory's usage summed on the way back up and compared with its quota row, and the inodes
 * reached counted. When fewer are reached than the inodes hold, a second pass finds which are
 * unreachable by walking up from each inode, remembering the answers of a bounded set of ancestors.
 * Memory: a page per level of the deepest path, and that bounded set.
 */
final class TreeWalk {
  /** Children read per page and level. */
  static final int PAGE = 512;

  /** Inodes whose children's reach the second pass remembers. */
  static final int KNOWN = 1 << 16;

  /** Hops a walk up takes before it calls the chain a cycle. */
  private static final int MAX_DEPTH = 10_000;

  /**
   * Levels the walk goes down (HDFS's longest path has 1,000 components): deeper is a cycle that
   * two inodes sharing an id closed, reported as such by the scan.
   */
  private static final int MAX_WALK_DEPTH = 1_000;

  private final NamespaceCheck check;
  private long reached;

  /**
   * Usage kept charged to each quota directory beyond its tree (docs/architecture.md, "Snapshots"):
   * what deletes left for the snapshots ({@link SnapshotKeptUsageRow}), and the detached subtrees
   * charged until their reclaim.
   */
  private final Map<Long, long[]> charged = new HashMap<>();

  TreeWalk(NamespaceCheck check) {
    this.check = check;
  }

  /** Walks the tree of {@code root}; {@code inodes}: how many the scan of the inodes saw. */
  void run(InodeRow root, long inodes) throws StorageException {
    Map<Long, List<Long>> untilReclaimed = readCharges();
    // The detached subtrees first: the quota directories charged with them are walked after.
    Key after = null;
    while (true) {
      List<InodeRow> page;
      try (Transaction tx = check.storage().begin()) {
        page = tx.scanFrom(InodeRow.TABLE, Inodes.DETACHED, after, PAGE, LockMode.READ_COMMITTED);
        tx.commit();
      }
      for (InodeRow r : page) {
        if (r.parentId() == Inodes.DETACHED) {
          long[] holds = walk(r, true);
          for (long q : untilReclaimed.getOrDefault(r.id(), List.of())) {
            charge(q, holds[0], holds[1]);
          }
        }
      }
      if (page.size() < PAGE) {
        break;
      }
      after = InodeRow.TABLE.keyOf(page.get(page.size() - 1));
    }
    walk(root, false);
    check.progress("walked " + reached + " inodes from the root");
    if (reached != inodes) {
      check.progress(
          "the tree holds " + reached + " of " + inodes + " inodes: looking for the others");
      findUnreached();
    }
  }

  /**
   * Reads the usage rows snapshots keep charged: adds each to its quota directory's charge, and
   * answers, for each detached subtree charged until its reclaim, its quota directories.
   */
  private Map<Long, List<Long>> readCharges() throws StorageException {
    Map<Long, List<Long>> untilReclaimed = new HashMap<>();
    check.scan(
        SnapshotKeptUsageRow.TABLE,
        "quota usage kept for snapshots",
        (page, tx) -> {
          for (SnapshotKeptUsageRow u : page) {
            if (u.untilReclaim()) {
              untilReclaimed.computeIfAbsent(u.inodeId(), k -> new ArrayList<>()).add(u.quotaId());
            } else if (!u.uncounted()) { // an uncounted charge names no quota directory
              charge(u.quotaId(), u.ns(), u.ds());
            }
          }
        });
    return untilReclaimed;
  }

  private void charge(long quotaId, long ns, long ds) {
    long[] c = charged.computeIfAbsent(quotaId, k -> new long[2]);
    c[0] += ns;
    c[1] += ds;
  }

  /** A directory being walked: its page of children, and what its subtree holds so far. */
  private final class Frame {
    final InodeRow dir;
    final boolean detached;
    Key after;
    List<InodeRow> page = List.of();
    int pos;
    boolean lastPage;
    long children;
    long count = 1;
    long space;

    Frame(InodeRow dir, boolean detached) {
      this.dir = dir;
      this.detached = detached;
    }

    /** The next child, or null after the last. */
    InodeRow next() throws StorageException {
      while (true) {
        while (pos < page.size()) {
          InodeRow r = page.get(pos++);
          if (r.parentId() == dir.id()) {
            return r; // a row of a wrong partition is checked by the scan of the inodes
          }
        }
        if (lastPage) {
          return null;
        }
        try (Transaction tx = check.storage().begin()) {
          page = children(tx, dir.id(), after);
          tx.commit();
        }
        pos = 0;
        lastPage = page.size() < PAGE;
        if (!page.isEmpty()) {
          after = InodeRow.TABLE.keyOf(page.get(page.size() - 1));
        }
      }
    }
  }

  /** A page of the rows where the children of {@code dirId} live, after {@code after}. */
  private static List<InodeRow> children(Transaction tx, long dirId, Key after)
      throws StorageException {
    if (dirId == Inodes.ROOT_ID) {
      // The root's children are spread over hashed partitions; its index holds only them.
      return tx.findByIndexFrom(
          InodeRow.TABLE, "parent_id", Inodes.ROOT_ID, after, PAGE, LockMode.READ_COMMITTED);
    }
    return tx.scanFrom(InodeRow.TABLE, dirId, after, PAGE, LockMode.READ_COMMITTED);
  }

  /** Walks the tree of {@code top}; answers what it holds (inodes, storage space). */
  private long[] walk(InodeRow top, boolean detached) throws StorageException {
    if (!top.isDir()) {
      reached++;
      return new long[] {1, space(top)};
    }
    long[] holds = {0, 0};
    Deque<Frame> stack = new ArrayDeque<>();
    stack.push(new Frame(top, detached));
    while (!stack.isEmpty()) {
      Frame f = stack.peek();
      InodeRow child = f.next();
      if (child == null) {
        stack.pop();
        finish(f);
        Frame up = stack.peek();
        if (up != null) {
          up.count += f.count;
          up.space += f.space;
        } else {
          holds = new long[] {f.count, f.space};
        }
        continue;
      }
      f.children++;
      if (child.isDir() && stack.size() < MAX_WALK_DEPTH) {
        stack.push(new Frame(child, f.detached));
      } else {
        f.count++;
        f.space += space(child);
        if (++reached % 1_000_000 == 0) {
          check.progress("walked " + reached + " inodes from the root ...");
        }
      }
    }
    return holds;
  }

  private long space(InodeRow file) throws StorageException {
    BlockInfoRow last = null;
    if (file.underConstruction()) {
      try (Transaction tx = check.storage().begin()) {
        for (BlockInfoRow b :
            tx.findByPartition(BlockInfoRow.TABLE, file.id(), LockMode.READ_COMMITTED)) {
          if (last == null || b.blockIndex() > last.blockIndex()) {
            last = b;
          }
        }
        tx.commit();
      }
    }
    return FileSpace.of(file.size(), file.replication(), file.preferredBlockSize(), last);
  }

  /** A directory walked: its children count, and its quota row if it has a quota. */
  private void finish(Frame f) throws StorageException {
    reached++;
    InodeRow d = f.dir;
    // A deleted subtree's reclaim drops rows without counting them off their parents, which go
    // soon after them; only its root's count (in the detached partition) is not looked at either.
    if (!f.detached) {
      checkChildrenCount(d, f.children);
    }
    if (!d.hasQuota()) {
      return;
    }
    QuotaRow q;
    try (Transaction tx = check.storage().begin()) {
      q = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(d.id()), LockMode.READ_COMMITTED);
      tx.commit();
    }
    // A detached subtree's usage is no longer kept, and its root loses its quota row while the
    // reclaim is under way; the reclaim's last transaction drops the root itself.
    if (f.detached) {
      return;
    }
    long[] kept = charged.getOrDefault(d.id(), new long[2]);
    long count = f.count + kept[0];
    long space = f.space + kept[1];
    if (q == null) {
      check.add(problem(Kind.QUOTA_ROW, describe(d) + " has a quota but no quota row", d.id()));
    } else if (q.nsCount() != count || q.dsCount() != space) {
      check.add(
          new Problem(
              Kind.QUOTA_USAGE,
              describe(d)
                  + " records a usage of "
                  + q.nsCount()
                  + " inodes and "
                  + q.dsCount()
                  + " bytes, its tree holds "
                  + f.count
                  + " and "
                  + f.space
                  + (kept[0] == 0 && kept[1] == 0
                      ? ""
                      : " and snapshots keep " + kept[0] + " and " + kept[1] + " charged"),
              d.id(),
              0));
      check.needsUsage(d.id(), new long[] {count, space});
    }
  }

  private void checkChildrenCount(InodeRow d, long listed) {
    long has = listed + check.misplacedChildren(d.id());
    if (d.childrenCount() != has) {
      check.add(
          problem(
              Kind.CHILDREN_COUNT,
              describe(d) + " counts " + d.childrenCount() + " children but has " + has,
              d.id()));
    }
  }

  /** How an inode hangs from the root. */
  private enum Reach {
    /** Through directories only: the walk reached it. */
    TREE,
    /** Through a file somewhere above: reachable, but the walk did not go there. */
    VIA_FILE,
    /** Not at all: an orphan above, or a cycle. */
    NONE
  }

  /**
   * The inodes the walk did not reach: unreachable ones reported, and the children of directories
   * it did not enter counted.
   */
  private void findUnreached() throws StorageException {
    Map<Long, Reach> below =
        new LinkedHashMap<>(1024, 0.75f, true) {
          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, Reach> eldest) {
            return size() > KNOWN;
          }
        };
    check.scan(
        InodeRow.TABLE,
        "inodes for reachability",
        (page, tx) -> {
          for (InodeRow r : page) {
            if (r.id() == Inodes.ROOT_ID && r.parentId() == Inodes.NO_PARENT) {
              continue;
            }
            Reach reach = reach(r, tx, below);
            if (reach == Reach.NONE && NamespaceCheck.byId(tx, r.parentId()) != null) {
              check.add(
                  problem(
                      Kind.UNREACHABLE,
                      describe(r) + " is not reachable from the root (a cycle or an orphan above)",
                      r.id()));
            }
            if (r.isDir() && reach != Reach.TREE) {
              checkChildrenCount(r, countChildren(tx, r.id()));
            }
          }
        });
  }

  private static long countChildren(Transaction tx, long dirId) throws StorageException {
    long n = 0;
    Key after = null;
    while (true) {
      List<InodeRow> page = children(tx, dirId, after);
      for (InodeRow c : page) {
        n += c.parentId() == dirId ? 1 : 0;
      }
      if (page.size() < PAGE) {
        return n;
      }
      after = InodeRow.TABLE.keyOf(page.get(page.size() - 1));
    }
  }

  /**
   * The reach of {@code n}, walking up until an answer. {@code below} remembers, by inode id, the
   * reach of that inode's children, so the siblings of an inode walked cost no read.
   */
  private static Reach reach(InodeRow n, Transaction tx, Map<Long, Reach> below)
      throws StorageException {
    if (n.parentId() == Inodes.DETACHED) {
      return Reach.TREE; // a deleted subtree waiting to be reclaimed: a root of its own
    }
    List<InodeRow> walked = new ArrayList<>();
    Set<Long> onWalk = new HashSet<>();
    long up = n.parentId();
    Reach reach; // of the last inode walked, or of n
    while (true) {
      reach = up == Inodes.ROOT_ID ? Reach.TREE : below.get(up);
      if (reach != null) {
        break;
      }
      if (!onWalk.add(up) || walked.size() >= MAX_DEPTH) {
        reach = Reach.NONE; // a cycle
        break;
      }
      InodeRow p = NamespaceCheck.byId(tx, up);
      if (p == null) {
        below.put(up, Reach.NONE);
        reach = Reach.NONE;
        break;
      }
      walked.add(p);
      if (p.parentId() == Inodes.DETACHED) {
        reach = Reach.TREE;
        break;
      }
      up = p.parentId();
    }
    // Down the walk again: below a file the tree is reachable only through it.
    for (int i = walked.size() - 1; i >= 0; i--) {
      InodeRow p = walked.get(i);
      if (reach == Reach.TREE && !p.isDir()) {
        reach = Reach.VIA_FILE;
      }
      below.put(p.id(), reach);
    }
    return reach;
  }
}
