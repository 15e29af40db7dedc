package io.hops.dal.embedded;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One generation of the {@link PartitionCache}: partition prefix → its {@link KeptRows}, a scan's
 * claim, or {@code OVERSIZED}.
 */
final class Generation {
  final Map<KeyBytes, Object> partitions = new ConcurrentHashMap<>();

  /** The heap the entries of all its maps take, estimated ({@link HeapEstimate}). */
  final AtomicLong bytes = new AtomicLong();

  /**
   * The partitions in which a write missed a row that neither cache held. Hints about cost only,
   * never about rows; counted in {@link #bytes}.
   */
  final Map<KeyBytes, PartitionCache.WriteMiss> writeMisses = new ConcurrentHashMap<>();

  /**
   * Partition prefix → a {@link io.hops.dal.PartitionFold}'s summary of its rows ({@code
   * KeptFolds.Folded}), or a fold's claim. Counted in {@link #bytes} by the summaries' weights.
   */
  final Map<KeyBytes, Object> folds = new ConcurrentHashMap<>();

  /**
   * Partition prefix → its {@link KeptNames}, a write's {@link NamesClaim}, or {@code OVERSIZED}
   * (more than {@link PartitionCache#MAX_NAMES}). Counted in {@link #bytes} by {@link
   * KeptNames#bytes}.
   */
  final Map<KeyBytes, Object> names = new ConcurrentHashMap<>();

  /** The partition's rows, or null if not kept. */
  KeptRows get(KeyBytes partition) {
    return partitions.get(partition) instanceof KeptRows rows ? rows : null;
  }
}
