package io.hops.dal.embedded;

/** A scan's claim of a partition it is reading. */
final class PartitionClaim {
  final Generation generation;
  final KeyBytes partition;

  PartitionClaim(Generation generation, KeyBytes partition) {
    this.generation = generation;
    this.partition = partition;
  }
}
