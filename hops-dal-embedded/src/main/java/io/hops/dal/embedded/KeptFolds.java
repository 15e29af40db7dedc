package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;

/**
 * The summaries the {@link PartitionCache} keeps of partitions of any size ({@link PartitionFold}:
 * a directory's files counted and their lengths added up), by the rules of its kept rows: a fold
 * claims the partition ({@link FoldClaim}) before it reads the rows, keeps what it made only if the
 * claim is still there, and every commit drops the summaries (and claims) of the partitions it
 * wrote. A content summary of a big directory then reads one summary, not thousands of rows, until
 * the directory changes.
 */
final class KeptFolds {
  /** What {@code fold} made of a partition's rows, and the heap it takes. */
  record Folded(PartitionFold<?, ?> fold, Object summary, long bytes) {}

  /**
   * The heap of one row's worth of a summary ({@link PartitionFold#weight}): an inode row with a
   * name of about 40 characters, as {@link HeapEstimate} weighs it, and its slot in a list.
   */
  static final long ROW_WORTH_BYTES = 320;

  private final PartitionCache cache;

  KeptFolds(PartitionCache cache) {
    this.cache = cache;
  }

  /**
   * The summary {@code fold} made of {@code partition}'s rows, kept since no commit wrote the
   * partition, in the current generation or, moved into it, in the one before; null if neither
   * keeps one. As kept rows, a summary follows commits: every commit that writes the partition
   * drops it, before the commit releases its locks.
   */
  Object folded(KeyBytes partition, PartitionFold<?, ?> fold) {
    PartitionCache.Generations gs = cache.generations();
    Object kept = gs.current().folds.get(partition);
    if (kept != null) {
      return kept instanceof Folded f && f.fold == fold ? f.summary : null;
    }
    if (!(gs.previous().folds.get(partition) instanceof Folded older) || older.fold != fold) {
      return null;
    }
    FoldClaim claim = claim(gs.current(), partition, fold);
    if (claim == null) {
      return older.summary; // still the latest: a commit would have dropped it
    }
    // Read again after the claim: a commit that applied before it dropped the older summary first.
    if (gs.previous().folds.get(partition) instanceof Folded moved && moved.fold == fold) {
      cache.beforeMove.run();
      if (gs.current().folds.replace(partition, claim, moved)) {
        cache.grew(gs.current(), moved.bytes);
      }
      return moved.summary;
    }
    gs.current().folds.remove(partition, claim);
    return null;
  }

  /**
   * Claims {@code partition} for a fold about to read its rows; null if the cache is off or the
   * partition has a summary or a claim already (the fold then keeps nothing).
   */
  FoldClaim claim(KeyBytes partition, PartitionFold<?, ?> fold) {
    return claim(cache.current(), partition, fold);
  }

  private FoldClaim claim(Generation g, KeyBytes partition, PartitionFold<?, ?> fold) {
    if (!cache.on()) {
      return null;
    }
    FoldClaim claim = new FoldClaim(g, partition, fold);
    return g.folds.putIfAbsent(partition, claim) == null ? claim : null;
  }

  /**
   * Keeps the summary the claiming fold made, unless a commit wrote the partition since the claim;
   * {@code summary} null: the fold failed.
   */
  void fill(FoldClaim claim, Object summary, int weight) {
    if (claim == null) {
      return;
    }
    cache.beforeFill.run();
    Generation g = claim.generation;
    if (summary == null) {
      g.folds.remove(claim.partition, claim);
      return;
    }
    long bytes = PartitionCache.entryBytes(claim.partition) + Math.max(1, weight) * ROW_WORTH_BYTES;
    if (g.folds.replace(claim.partition, claim, new Folded(claim.fold, summary, bytes))) {
      cache.grew(g, bytes);
    }
  }
}
