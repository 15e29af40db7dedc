package io.hops.dal.embedded;

import io.hops.dal.PartitionFold;

/** A fold's claim of a partition it is summarizing. */
final class FoldClaim {
  final Generation generation;
  final KeyBytes partition;
  final PartitionFold<?, ?> fold;

  FoldClaim(Generation generation, KeyBytes partition, PartitionFold<?, ?> fold) {
    this.generation = generation;
    this.partition = partition;
    this.fold = fold;
  }
}
