package io.hops.dal.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One generation of the {@link PartitionCache}: partition prefix → its {@link KeptRows}, a scan's
 * claim, or {@code OVERSIZED}.
 */
final class Generation {
  final Map<KeyBytes, Object> partitions = new ConcurrentHashMap<>();
  final AtomicInteger rows = new AtomicInteger();

  /**
   * The partitions in which a write missed a row that neither cache held. Hints about cost only,
   * never about rows; counted in {@link #rows}.
   */
  final Map<KeyBytes, PartitionCache.WriteMiss> writeMisses = new ConcurrentHashMap<>();

  /**
   * Partition prefix → a {@link io.hops.dal.PartitionFold}'s summary of its rows ({@code
   * KeptFolds.Folded}), or a fold's claim. Counted in {@link #rows} by the summaries' weights.
   */
  final Map<KeyBytes, Object> folds = new ConcurrentHashMap<>();

  /**
   * Partition prefix → its {@link KeptNames}, a write's {@link NamesClaim}, or {@code OVERSIZED}
   * (more than {@link PartitionCache#MAX_NAMES}). Counted in {@link #rows} by {@link
   * KeptNames#weight}.
   */
  final Map<KeyBytes, Object> names = new ConcurrentHashMap<>();

  /** The partition's rows, or null if not kept. */
  KeptRows get(KeyBytes partition) {
    return partitions.get(partition) instanceof KeptRows rows ? rows : null;
  }
}
