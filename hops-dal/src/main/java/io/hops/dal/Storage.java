package io.hops.dal;

/**
 * A connection to the metadata database through one driver. Thread-safe: each thread runs its own
 * transactions.
 */
public interface Storage extends AutoCloseable {

  /** The engine's name: {@code embedded}, {@code mysql} or {@code ndb}. */
  String engine();

  /** Begins a transaction with no partition hint. */
  default Transaction begin() throws StorageException {
    return begin(null);
  }

  /**
   * Begins a transaction. {@code partitionHint} names the partition that holds most of what it will
   * read, so engines that can (NDB) start the transaction coordinator there; others ignore it.
   */
  Transaction begin(Object partitionHint) throws StorageException;

  /**
   * Takes {@code count} ids from the named counter in one short transaction of its own. Ranges
   * never overlap, whatever the concurrency; the first id of a new counter is 1.
   */
  IdRange allocateIds(String counter, int count) throws StorageException;

  /**
   * The database's clock, in milliseconds since the epoch: the one clock every namenode of a
   * cluster agrees on (docs/architecture.md, Many namenodes). An engine in the namenode's own
   * process answers with the process's clock, which all its users share.
   */
  default long databaseTimeMillis() throws StorageException {
    return System.currentTimeMillis();
  }

  /**
   * Whether {@link #databaseTimeMillis()} reads one clock whatever connection asks: true for one
   * server (MariaDB, MySQL) and for an engine in the namenode's process; false for NDB, where each
   * namenode reads the clock of its own SQL node's host (docs/architecture.md, "Cluster clock").
   */
  default boolean oneClock() {
    return true;
  }

  /**
   * A storage over the same database with {@code connections} connections of its own, for work that
   * must never wait behind the shared pool (the leader election: docs/architecture.md); the caller
   * closes it. An engine without a pool has nothing to wait for and answers {@code this}, which the
   * caller must not close.
   */
  default Storage withOwnConnections(String name, int connections) throws StorageException {
    return this;
  }

  /**
   * A bulk load into this storage ({@link BulkLoad}), or empty for an engine that has none: its
   * rows go into the store's files without transactions.
   */
  default java.util.Optional<BulkLoad> bulkLoad() throws StorageException {
    return java.util.Optional.empty();
  }

  /** Creating, upgrading and inspecting the schema. */
  SchemaAdmin schema();

  /** Every access of every transaction since this storage was opened. */
  AccessCounts accessCounts();

  /**
   * The connection pool's use now, for the metrics (e.g. {@code active}, {@code idle}, {@code
   * total}, {@code waiting}); empty for an engine without a pool.
   */
  default java.util.Map<String, Long> poolUsage() {
    return java.util.Map.of();
  }

  /**
   * Counters of the engine's own work, for the metrics (e.g. {@code LogSyncs}, {@code
   * LogSyncedCommits}: the embedded engine's group syncs of its write-ahead log and the commits
   * they covered); empty for an engine that has none.
   */
  default java.util.Map<String, Long> engineCounters() {
    return java.util.Map.of();
  }

  /**
   * The engine's own levels, by name (its caches' heap and entries, the shape of its store); empty
   * for an engine that keeps none.
   */
  default java.util.Map<String, Long> engineGauges() {
    return java.util.Map.of();
  }

  /**
   * A stage that completes once every transaction committed on this storage before the call is
   * durable (see {@link Transaction#commitDeferred}): for a caller about to act outside the
   * database on what it read, e.g. tell a datanode to delete the blocks of a deleted file. Already
   * complete for an engine whose commits return durable.
   */
  default java.util.concurrent.CompletionStage<Void> durable() throws StorageException {
    return Durability.DURABLE;
  }

  @Override
  void close();
}
