package io.hops.dal;

/**
 * The kinds of database access, named by their cost (docs/architecture.md, "Database cost per
 * operation"): a reviewer reads the cost of an operation from the kinds it uses.
 */
public enum AccessKind {
  /** Primary-key read of one row. */
  PK("PK"),
  /** Batched primary-key read: many rows, one round trip. */
  BATCH("B"),
  /** Partition-pruned index scan: equality on the partition column, one shard. */
  PPIS("PPIS"),
  /** Index scan over all shards. */
  IS("IS"),
  /** Full table scan. */
  FTS("FTS"),
  /** The batch of buffered inserts, updates and deletes flushed at commit. */
  WRITE_BATCH("W");

  private final String label;

  AccessKind(String label) {
    this.label = label;
  }

  /** The short label used in the design's cost table. */
  public String label() {
    return label;
  }
}
