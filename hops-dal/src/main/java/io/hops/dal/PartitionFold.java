package io.hops.dal;

import java.util.List;

/**
 * A summary of one partition's rows, made by {@link Transaction#foldPartition}: a directory's files
 * counted and their lengths added up, its subdirectories listed, without handing out every row. A
 * pure function of the rows, with no state of its own: an engine may keep what it returned for a
 * partition (by partition and fold, the fold compared by identity, so a fold is a constant) until a
 * commit writes that partition, and hand it to any transaction; so a summary is never changed after
 * it is returned.
 */
public interface PartitionFold<R extends Record, A> {
  /** The summary of a partition's rows, given in primary-key order. */
  A fold(List<R> rows);

  /**
   * About how many rows' worth of memory {@code summary} holds, for the capacity of a cache that
   * keeps it.
   */
  default int weight(A summary) {
    return 1;
  }
}
