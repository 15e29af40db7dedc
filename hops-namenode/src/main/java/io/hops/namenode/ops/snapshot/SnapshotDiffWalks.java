package io.hops.namenode.ops.snapshot;

import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;

/**
 * The cursor of {@code getSnapshotDiffReportListing}'s pages (docs/architecture.md, "Diff reports",
 * pages): the walk of a diff between two snapshots is kept, on the namenode that made it, from the
 * page that did not end it to the next, which slices it where the previous one stopped instead of
 * walking the subtree again. So a page after the first reads only what its checks read (one
 * transaction), whatever the tree's size. Not the truth, a cache of it: a diff between two
 * snapshots is fixed by their ids (a snapshot's rows never change, ids are never reused, and what a
 * snapshot reads stays while it exists), each page checks the call again in its own transaction
 * first, and a page that finds no kept walk (another namenode answered the page before, or the walk
 * was dropped) walks the subtree again as before. A diff with the current tree is not kept. At most
 * {@link #CAPACITY} walks, each for at most {@link #KEPT_MINUTES} minutes after its last page, and
 * at most a configured number of entries in all: a walk bigger than that is not kept (its pages
 * walk again, as before the cursor), so the heap the cursor takes is bounded whatever the diffs
 * are.
 */
public final class SnapshotDiffWalks {
  static final int CAPACITY = 8;
  static final long KEPT_MINUTES = 10;
  private final int maxEntries;

  /** What fixes a diff: its directory, the ids of its ends and its direction. */
  private record Key(long scopeId, long earlier, long later, boolean fromEarlier) {}

  private record Kept(SnapshotDiff walk, int entries, long since) {}

  private final Map<Key, Kept> kept = new LinkedHashMap<>(16, 0.75f, true);

  /** Walks of at most {@code maxEntries} entries in all ({@link SnapshotDiff#entries()}). */
  public SnapshotDiffWalks(int maxEntries) {
    this.maxEntries = maxEntries;
  }

  /**
   * The page of {@code scope}'s listing that goes on from {@code startPath} and {@code index}: from
   * the walk kept by the page before it, else from a new walk, which is kept if more pages follow.
   */
  public SnapshotDiffReportListing page(
      TransactionRunner runner,
      SnapshotDiffScope.Scope scope,
      byte[] startPath,
      int index,
      int limit)
      throws IOException {
    boolean fixed =
        !scope.empty()
            && scope.earlier() != SnapshotDiffScope.CURRENT
            && scope.later() != SnapshotDiffScope.CURRENT;
    Key key = new Key(scope.scopeId(), scope.earlier(), scope.later(), scope.fromEarlier());
    boolean resumes = startPath != null && (startPath.length > 0 || index >= 0);
    SnapshotDiff walk = fixed && resumes ? take(key) : null;
    if (walk == null) {
      walk = SnapshotDiff.compute(runner, scope);
    }
    SnapshotDiffReportListing page = walk.listing(startPath, index, limit);
    boolean more = page.getLastPath().length > 0 || page.getLastIndex() >= 0;
    int entries = fixed && more ? walk.entries() : 0;
    if (fixed && more && entries <= maxEntries) {
      keep(key, walk, entries);
    } else {
      drop(key);
    }
    return page;
  }

  private synchronized SnapshotDiff take(Key key) {
    Kept k = kept.get(key);
    return k == null ? null : k.walk();
  }

  private synchronized void keep(Key key, SnapshotDiff walk, int entries) {
    long now = System.nanoTime();
    kept.remove(key);
    kept.put(key, new Kept(walk, entries, now));
    int held = 0;
    for (Kept k : kept.values()) {
      held += k.entries();
    }
    // Least recently paged first: the expired, then any beyond the capacity or the entries' bound.
    Iterator<Kept> it = kept.values().iterator();
    while (it.hasNext()) {
      Kept k = it.next();
      if (k.walk() != walk
          && (kept.size() > CAPACITY
              || held > maxEntries
              || now - k.since() > TimeUnit.MINUTES.toNanos(KEPT_MINUTES))) {
        held -= k.entries();
        it.remove();
      }
    }
  }

  private synchronized void drop(Key key) {
    kept.remove(key);
  }
}
