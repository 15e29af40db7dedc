package io.hops.common;

/**
 * Every configuration key of hops and its default, in one place. Keys are read from Hadoop-style
 * {@code conf/hdfs-site.xml}; docs/configuration.md lists them for operators.
 */
public final class HopsConfig {
  private HopsConfig() {}

  /** The metadata database engine: {@code embedded}, {@code mysql} or {@code ndb}. */
  public static final String METADATA_ENGINE = "hops.metadata.engine";

  public static final String METADATA_ENGINE_DEFAULT = "embedded";

  /**
   * Where the embedded engine keeps its store: a directory, or {@code mem:NAME} for an in-memory
   * store that lives as long as the process (tests).
   */
  public static final String EMBEDDED_DIR = "hops.metadata.embedded.dir";

  public static final String EMBEDDED_DIR_DEFAULT = "./data/metadata";

  /**
   * Whether a commit on the embedded engine returns only after its write-ahead log entry is on disk
   * (fsync; concurrent commits share one). {@code false} is the faster, weaker mode: a commit
   * survives the death of the process but not a power loss or an operating-system crash.
   */
  public static final String EMBEDDED_FSYNC_ON_COMMIT = "hops.metadata.embedded.fsync-on-commit";

  public static final boolean EMBEDDED_FSYNC_ON_COMMIT_DEFAULT = true;

  /**
   * The heap the embedded engine's row cache may take, in bytes (0: none): decoded rows kept for
   * point reads, written through by every commit in this process (the only process that may open
   * the store), so never stale for a locked read. Each entry is weighed by its key, its row's
   * fields and strings and its map node (an inode row with a 38-character name, about 330 bytes);
   * past the bound the cache starts over. Unset: a tenth of the heap ({@link
   * #embeddedCacheBytesDefault}).
   */
  public static final String EMBEDDED_ROW_CACHE_BYTES = "hops.metadata.embedded.row-cache.bytes";

  /**
   * The heap the embedded engine's partition cache may take, in bytes, both generations together
   * (0: none): whole partitions of up to 1,024 rows (a directory's children, a file's blocks) for
   * partition scans and the point reads in them, the names of larger partitions written into, and
   * summaries of partitions, each followed by every commit that writes it. Past half the bound a
   * new generation starts, and the partitions still in use move into it from the one before. Unset:
   * three twentieths of the heap ({@link #embeddedCacheBytesDefault}).
   */
  public static final String EMBEDDED_PARTITION_CACHE_BYTES =
      "hops.metadata.embedded.partition-cache.bytes";

  /**
   * An extra cap on the row cache's entries, from before the caches were bounded in bytes; 0 turns
   * both caches off, as it did. Set alone (without {@link #EMBEDDED_PARTITION_CACHE_BYTES}), it
   * also caps the partition cache at 600 bytes a row, what it meant for it before. Unset: no cap.
   */
  public static final String EMBEDDED_ROW_CACHE_ENTRIES =
      "hops.metadata.embedded.row-cache.entries";

  /**
   * The heap a partition cache's row took under {@link #EMBEDDED_ROW_CACHE_ENTRIES}: two of 300.
   */
  public static final long PARTITION_CACHE_BYTES_PER_ENTRY = 600;

  /**
   * The default bound of an embedded cache: {@code twentieths} of this JVM's heap (the row cache 2,
   * the partition cache 3: together a quarter, as the row count they replace), at least 4 MB. HDFS
   * keeps all its metadata in its heap; here the heap keeps what is in use.
   */
  public static long embeddedCacheBytesDefault(int twentieths) {
    return Math.max(4L << 20, Runtime.getRuntime().maxMemory() / 20 * twentieths);
  }

  /**
   * Whether the embedded engine's commits that do not wait for the disk (those of RPC handlers,
   * which answer once a group sync covers them, and all commits with fsync off) enter RocksDB one
   * at a time. RocksDB groups concurrent writers under a leader that appends for all, and the
   * others wait for it by spinning, yielding and sleeping; with many handlers on few cores those
   * waits cost more than the grouping saves, since such a write takes microseconds. {@code false}
   * lets RocksDB group them, which may pay off on many cores.
   */
  public static final String EMBEDDED_SERIAL_WRITES = "hops.metadata.embedded.serial-writes";

  public static final boolean EMBEDDED_SERIAL_WRITES_DEFAULT = true;

  /**
   * How long, in microseconds, the embedded engine's group sync may wait before a sync of the
   * write-ahead log for transactions that are still running and hold an exclusive row lock (so may
   * commit soon) to commit too, so that one sync covers them all. A commit while no other writer
   * runs is synced at once, unless the syncs are under load ({@link
   * #EMBEDDED_GROUP_COMMIT_WAIT_MICROS}). {@code 0} syncs whenever a commit waits (every group as
   * small as it comes), with no wait under load either. Like PostgreSQL's {@code commit_delay} with
   * {@code commit_siblings} and MySQL's {@code binlog_group_commit_sync_delay}.
   */
  public static final String EMBEDDED_GROUP_COMMIT_DELAY_MICROS =
      "hops.metadata.embedded.group-commit-delay-us";

  public static final long EMBEDDED_GROUP_COMMIT_DELAY_MICROS_DEFAULT = 300;

  /**
   * How long, in microseconds, the embedded engine's group sync first waits under load (its recent
   * syncs covered more than two commits each) for commits on their way, before it looks for running
   * writers: calls still crossing the network or queued for a handler hold no lock yet. Bounded by
   * {@link #EMBEDDED_GROUP_COMMIT_DELAY_MICROS}. One or two clients are never kept waiting by it.
   * {@code 0}: no such wait.
   */
  public static final String EMBEDDED_GROUP_COMMIT_WAIT_MICROS =
      "hops.metadata.embedded.group-commit-wait-us";

  public static final long EMBEDDED_GROUP_COMMIT_WAIT_MICROS_DEFAULT = 150;

  /**
   * Prefix of the embedded engine's per-table capacities: {@code
   * hops.metadata.embedded.max-bytes.TABLE=N} refuses a commit that would grow the encoded rows of
   * table {@code TABLE} past N bytes with the DAL's "table is full" error, as a MEMORY table at
   * {@code max_heap_table_size} or an NDB table out of data memory does. Unset: no limit. Used for
   * the small-file tiers ({@code inmemory_file_data}, ...), whose full table sends a file to
   * datanodes (HOPS-155).
   */
  public static final String EMBEDDED_TABLE_MAX_BYTES_PREFIX = "hops.metadata.embedded.max-bytes.";

  /** JDBC URL of a MySQL, MariaDB or NDB SQL node database, e.g. {@code jdbc:mariadb://h/hops}. */
  public static final String JDBC_URL = "hops.metadata.jdbc.url";

  public static final String JDBC_USER = "hops.metadata.jdbc.user";
  public static final String JDBC_PASSWORD = "hops.metadata.jdbc.password";

  /** Database connections per namenode. */
  public static final String POOL_SIZE = "hops.metadata.pool.size";

  public static final int POOL_SIZE_DEFAULT = 32;

  /**
   * How long a transaction waits for a row lock before it fails with a retryable error. MySQL and
   * NDB round it up to whole seconds.
   */
  public static final String LOCK_WAIT_TIMEOUT_MS = "hops.metadata.lock-wait-timeout.ms";

  public static final long LOCK_WAIT_TIMEOUT_MS_DEFAULT = 10_000;

  /**
   * How long a server database keeps a transaction whose client has gone quiet (paused by SIGSTOP
   * or a long GC, or cut off by the network) before it rolls it back and drops its session, so that
   * its row locks go (docs/architecture.md, "Fencing a paused leader"). MariaDB's {@code
   * idle_transaction_timeout}, in whole seconds (rounded up; 0 turns it off); MySQL has no such
   * bound and NDB applies its data nodes' {@code TransactionInactiveTimeout} instead. Below the
   * leader's lease, so that a takeover's wait for a paused leader's lock fits in one round.
   */
  public static final String IDLE_TRANSACTION_TIMEOUT_MS =
      "hops.metadata.idle-transaction-timeout.ms";

  public static final long IDLE_TRANSACTION_TIMEOUT_MS_DEFAULT = 1_000;

  /**
   * How long a server database may take to hand out a connection (or to be reached) before the
   * attempt fails with a retryable error: short, so a namenode whose database is unreachable
   * answers within its operations' deadline instead of hanging.
   */
  public static final String CONNECTION_TIMEOUT_MS = "hops.metadata.connection-timeout.ms";

  public static final long CONNECTION_TIMEOUT_MS_DEFAULT = 3_000;

  /**
   * How long one statement waits for a server database's answer before its connection is given up
   * (the JDBC driver's socket timeout) and the transaction fails with a retryable error: a database
   * that stops answering (frozen, partitioned without a reset) cannot hold a caller longer. A
   * namenode that is not given it uses its operations' deadline ({@code
   * hops.namenode.tx.deadline.ms}), and bounds each transaction's round trips by what is left of
   * that deadline. Longer than the lock-wait timeout, so that a lock wait ends first.
   */
  public static final String ROUND_TRIP_TIMEOUT_MS = "hops.metadata.round-trip-timeout.ms";

  public static final long ROUND_TRIP_TIMEOUT_MS_DEFAULT = 20_000;

  /**
   * How often each namenode advances its leader-election counter (docs/architecture.md, "Leader
   * election"). A namenode whose rounds run slow raises it, up to {@link #ELECTION_MAX_PERIOD_MS};
   * every namenode follows.
   */
  public static final String ELECTION_PERIOD_MS = "hops.leader-election.period.ms";

  public static final long ELECTION_PERIOD_MS_DEFAULT = 1000;

  /**
   * Periods without an advance of its counter after which a namenode counts as dead; a leader's
   * lease is a little shorter than that many periods, so it stops acting before anyone replaces it.
   */
  public static final String ELECTION_MISSED_HEARTBEATS = "hops.leader-election.missed-heartbeats";

  public static final int ELECTION_MISSED_HEARTBEATS_DEFAULT = 2;

  /** The most a namenode whose rounds run slow raises the election period to. */
  public static final String ELECTION_MAX_PERIOD_MS = "hops.leader-election.max-period.ms";

  public static final long ELECTION_MAX_PERIOD_MS_DEFAULT = 10_000;

  // ---- small files in the database (docs/architecture.md, "Small files in the database") ----

  /**
   * Largest file kept in the database; a larger one, or one that grows past it, lives on datanodes.
   * At most 8 KB rows times the pieces the large tier allows.
   */
  public static final String SMALL_FILE_MAX_SIZE = "hops.smallfiles.max-size";

  public static final int SMALL_FILE_MAX_SIZE_DEFAULT = 64 * 1024;

  /** Largest file kept in the in-memory tier ({@code inmemory_file_data}). */
  public static final String SMALL_FILE_INMEMORY_MAX_SIZE = "hops.smallfiles.inmemory.max-size";

  public static final int SMALL_FILE_INMEMORY_MAX_SIZE_DEFAULT = 1024;

  /** Largest file kept in {@code ondisk_small_file_data}. */
  public static final String SMALL_FILE_ONDISK_SMALL_MAX_SIZE =
      "hops.smallfiles.ondisk.small.max-size";

  public static final int SMALL_FILE_ONDISK_SMALL_MAX_SIZE_DEFAULT = 2048;

  /** Largest file kept in {@code ondisk_medium_file_data}. */
  public static final String SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE =
      "hops.smallfiles.ondisk.medium.max-size";

  public static final int SMALL_FILE_ONDISK_MEDIUM_MAX_SIZE_DEFAULT = 4096;

  /** Size of one row of {@code ondisk_large_file_data}: larger files are cut in pieces of this. */
  public static final String SMALL_FILE_ONDISK_LARGE_ROW_SIZE =
      "hops.smallfiles.ondisk.large.row-size";

  public static final int SMALL_FILE_ONDISK_LARGE_ROW_SIZE_DEFAULT = 8192;

  /**
   * Whether directories without a storage policy on their path keep small files in the database as
   * if they had the {@code DB} policy. Off by default: plain HDFS behaviour.
   */
  public static final String SMALL_FILE_DB_BY_DEFAULT = "hops.smallfiles.db-by-default";

  public static final boolean SMALL_FILE_DB_BY_DEFAULT_DEFAULT = false;

  /**
   * Port of the namenode's read-only data-transfer endpoint that serves database-stored files to
   * stock clients ({@code OP_READ_BLOCK}); 0 picks a free port, -1 turns it off.
   */
  public static final String SMALL_FILE_XFER_PORT = "hops.smallfiles.xfer.port";

  public static final int SMALL_FILE_XFER_PORT_DEFAULT = 0;

  /**
   * How old (milliseconds, cluster clock) the record of a move of a database file to datanodes must
   * be before the leader takes it for the leftover of a namenode that died midway and deletes its
   * hidden {@code .hops-move-*} file. A move takes milliseconds; this only has to outlast the
   * slowest one.
   */
  public static final String SMALL_FILE_MOVE_LEFTOVER_AGE_MS =
      "hops.smallfiles.move.leftover-age.ms";

  public static final long SMALL_FILE_MOVE_LEFTOVER_AGE_MS_DEFAULT = 10 * 60_000L;
}
