package io.hops.namenode.config;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;

/**
 * The namenode's own configuration keys; HDFS keys ({@code dfs.*}) keep their Hadoop names and
 * defaults from {@link org.apache.hadoop.hdfs.DFSConfigKeys}. Documented in docs/configuration.md.
 */
public final class NamenodeConfig {
  private NamenodeConfig() {}

  /** The RPC port clients and datanodes connect to; 0 picks a free one. */
  public static final String RPC_PORT = "hops.namenode.rpc.port";

  public static final int RPC_PORT_DEFAULT = 8020;

  /** Entries in the inode hint cache before it starts over (a cap besides its bytes). */
  public static final String HINT_CACHE_SIZE = "hops.namenode.hint-cache.size";

  public static final int HINT_CACHE_SIZE_DEFAULT = 1 << 20;

  /**
   * The heap the inode hint cache may take, in bytes, before it starts over (hints and the chains
   * of directories). Unset: {@link #hintCacheBytesDefault}.
   */
  public static final String HINT_CACHE_BYTES = "hops.namenode.hint-cache.bytes";

  /** A twentieth of this JVM's heap, at least 8 MB (about 100,000 hints a 20 MB). */
  public static long hintCacheBytesDefault() {
    return Math.max(8L << 20, Runtime.getRuntime().maxMemory() / 20);
  }

  /**
   * The heap this namenode's cache of user and group names (both directions of the name-to-id
   * mapping) may take, in bytes, before it starts over; a name not cached costs one read.
   */
  public static final String USER_GROUP_NAMES_BYTES = "hops.namenode.user-group-names.bytes";

  public static final long USER_GROUP_NAMES_BYTES_DEFAULT = 8L << 20;

  /**
   * The heap the cache of long names (user, group and client names too long to be keys, kept in
   * {@code long_names}) may take, in bytes; the least recently used go first.
   */
  public static final String LONG_NAMES_BYTES = "hops.namenode.long-names.bytes";

  public static final long LONG_NAMES_BYTES_DEFAULT = 4L << 20;

  /**
   * The heap the replica receipts this namenode keeps for blocks whose reports another namenode
   * owns may take, in bytes (docs/architecture.md, "Wire compatibility"); the oldest go first.
   */
  public static final String RECENT_RECEIPTS_BYTES = "hops.namenode.recent-receipts.bytes";

  public static final long RECENT_RECEIPTS_BYTES_DEFAULT = 32L << 20;

  /**
   * How many of a full block report's transactions run at once (the handler's thread and helpers);
   * {@code 1}: one after the other on the handler. Unset: {@link #fullReportApplyThreadsDefault}.
   */
  public static final String FULL_REPORT_APPLY_THREADS = "hops.namenode.full-report.apply-threads";

  /** As many as the cores, at most 4 (beyond that a report's transactions wait for the store). */
  public static int fullReportApplyThreadsDefault() {
    return Math.min(4, Runtime.getRuntime().availableProcessors());
  }

  /**
   * Attempts of a transaction that keeps failing transiently before the error reaches the client.
   */
  public static final String TX_MAX_ATTEMPTS = "hops.namenode.tx.max-attempts";

  /** First backoff between attempts; doubles each time, with jitter. */
  public static final String TX_BACKOFF_BASE_MS = "hops.namenode.tx.backoff-base.ms";

  public static final String TX_BACKOFF_MAX_MS = "hops.namenode.tx.backoff-max.ms";

  /**
   * How long an operation keeps retrying transient failures before the client gets Hadoop's
   * RetriableException: below the client's RPC timeout, so the client retries or fails over.
   */
  public static final String TX_DEADLINE_MS = "hops.namenode.tx.deadline.ms";

  public static final long TX_DEADLINE_MS_DEFAULT = 20_000;

  /**
   * Whether an RPC handler that commits goes on to the next call while the database makes the
   * commit durable, the response being sent once it is (HDFS's async edit logging); false: the
   * handler waits for the disk. The client is answered after the commit is durable either way.
   */
  public static final String DEFERRED_RESPONSE = "hops.namenode.rpc.deferred-response";

  public static final boolean DEFERRED_RESPONSE_DEFAULT = true;

  /** Most inodes a delete or content summary handles in one transaction. */
  public static final String MAX_SUBTREE_INODES = "hops.namenode.subtree.max-inodes-in-one-tx";

  public static final int MAX_SUBTREE_INODES_DEFAULT = 1000;

  /**
   * Most rows one transaction reads and writes (docs/architecture.md, "Transactions bounded in
   * rows"): a delete takes files until their rows would pass it, a file of more blocks is released
   * in several transactions, a concat that would pass it is refused. The default leaves room under
   * NDB's default {@code MaxNoOfConcurrentOperations} (32,768), which counts a row read with a lock
   * and then written twice.
   */
  public static final String TRANSACTION_MAX_ROWS = "hops.namenode.transaction.max-rows";

  public static final int TRANSACTION_MAX_ROWS_DEFAULT = 10_000;

  /**
   * The inodes one transaction of a subtree operation handles: {@link #MAX_SUBTREE_INODES}, and no
   * more than a quarter of {@link #TRANSACTION_MAX_ROWS}, so that a batch's inode rows leave room
   * for its files' blocks.
   */
  public static int inodesInOneTx(Configuration conf) {
    int rows = conf.getInt(TRANSACTION_MAX_ROWS, TRANSACTION_MAX_ROWS_DEFAULT);
    return Math.max(
        1, Math.min(conf.getInt(MAX_SUBTREE_INODES, MAX_SUBTREE_INODES_DEFAULT), rows / 4));
  }

  /**
   * Fault injection, for tests of namenodes in separate processes only: every transaction of a
   * subtree operation's quiesce and delete waits this long first, so that a test can kill the
   * namenode in the middle of one. 0 (the default) in every real deployment.
   */
  public static final String SUBTREE_FAULT_BATCH_DELAY_MS =
      "hops.namenode.subtree.fault.batch-delay.ms";

  /** Threads of one namenode that delete the batches of subtree deletes in parallel. */
  public static final String SUBTREE_THREADS = "hops.namenode.subtree.threads";

  public static final int SUBTREE_THREADS_DEFAULT = 4;

  /**
   * Whether a delete over the one-transaction bound answers once its subtree is unlinked from the
   * namespace, its rows then freed in the background (true, the default), or only after every row
   * is gone (false). Either way, no path reaches the subtree once the delete has returned.
   */
  public static final String SUBTREE_DELETE_IN_BACKGROUND =
      "hops.namenode.subtree.delete-in-background";

  public static final boolean SUBTREE_DELETE_IN_BACKGROUND_DEFAULT = true;

  /**
   * Whether the snapshot calls are served (docs/architecture.md, "Snapshots"): allowSnapshot,
   * createSnapshot and the rest, with HDFS's semantics. Off, every snapshot call is answered as by
   * an HDFS namenode where no directory is snapshottable. On by default, as HDFS always serves
   * them; a namespace without a snapshottable directory costs the same either way.
   */
  public static final String SNAPSHOTS_ENABLED = "hops.namenode.snapshots.enabled";

  public static final boolean SNAPSHOTS_ENABLED_DEFAULT = true;

  /**
   * The most entries (changed directories and their created, deleted and renamed children) that the
   * walks a namenode keeps between the pages of {@code getSnapshotDiffReportListing} hold in all
   * (docs/architecture.md, "Diff reports"): a bigger walk is not kept, and its pages walk the
   * subtree again. Bounds the heap the cursor takes (a few hundred bytes an entry).
   */
  public static final String SNAPSHOT_DIFF_CURSOR_ENTRIES =
      "hops.namenode.snapshot.diff-cursor.max-entries";

  public static final int SNAPSHOT_DIFF_CURSOR_ENTRIES_DEFAULT = 250_000;

  /**
   * Longest a datanode's network location may take to resolve (a topology script run) before the
   * default rack is used, with a warning: a hung script never holds a registration (HDFS waits).
   */
  public static final String TOPOLOGY_RESOLVE_TIMEOUT_MS =
      "hops.namenode.topology.resolve-timeout.ms";

  public static final long TOPOLOGY_RESOLVE_TIMEOUT_MS_DEFAULT = 10_000;

  /**
   * Whether a caching topology mapping ({@code ScriptBasedMapping}, {@code TableMapping}) is asked
   * for a datanode's host name instead of its address (HDFS asks for the address): for datanodes
   * that share one address, as {@code hops cluster --racks} runs them.
   */
  public static final String TOPOLOGY_RESOLVE_HOSTNAMES =
      "hops.namenode.topology.resolve-hostnames";

  public static final boolean TOPOLOGY_RESOLVE_HOSTNAMES_DEFAULT = false;

  /** How often the leader's housekeeping runs (re-replication, invalidation, dead datanodes). */
  public static final String HOUSEKEEPING_INTERVAL_MS = "hops.namenode.housekeeping.interval.ms";

  public static final long HOUSEKEEPING_INTERVAL_MS_DEFAULT = 3000;

  /**
   * Most rows a housekeeping queue (invalidations, pending re-replications) reads in one round: a
   * round reads one page after the previous round's cursor, so a backlog of any size costs a round
   * no more than a page, and the whole queue is visited once every (backlog / page) rounds.
   */
  public static final String HOUSEKEEPING_PAGE_ROWS = "hops.namenode.housekeeping.page.rows";

  public static final int HOUSEKEEPING_PAGE_ROWS_DEFAULT = 5000;

  /**
   * How often a namenode reads the generations of the security refreshes ({@code dfsadmin
   * -refreshServiceAcl}, {@code -refreshSuperUserGroupsConfiguration}, {@code
   * -refreshUserToGroupsMappings}): a refresh asked of another namenode applies here within this.
   */
  public static final String SECURITY_REFRESH_POLL_MS = "hops.namenode.security.refresh-poll.ms";

  public static final long SECURITY_REFRESH_POLL_MS_DEFAULT = 3000;

  /**
   * The block key roll interval in milliseconds, when set (&gt; 0): overrides HDFS's {@code
   * dfs.block.access.key.update.interval}, which counts minutes (tests roll keys in seconds).
   */
  public static final String BLOCK_KEY_UPDATE_INTERVAL_MS =
      "hops.namenode.block-keys.update-interval.ms";

  /**
   * The block token lifetime in milliseconds, when set (&gt; 0): overrides HDFS's {@code
   * dfs.block.access.token.lifetime}, which counts minutes.
   */
  public static final String BLOCK_TOKEN_LIFETIME_MS = "hops.namenode.block-keys.token-lifetime.ms";

  /**
   * How long a namenode trusts a delegation token it read from the database before reading it again
   * (ms): a token cancelled on another namenode is refused here within this time. As
   * hadoop-common's {@code sql-dt-secret-manager.token.loading.cache.expiration}. Renewals and
   * cancellations always read the database.
   */
  public static final String DELEGATION_TOKEN_CACHE_MS = "hops.namenode.delegation-token.cache.ms";

  public static final long DELEGATION_TOKEN_CACHE_MS_DEFAULT = 10_000;

  /**
   * Where the cluster clock takes its time (docs/architecture.md, "Cluster clock"): {@code
   * database} (the database's clock: one server), {@code leader} (the time the leader publishes:
   * NDB, whose SQL nodes keep one clock each) or {@code auto}, which picks by engine.
   */
  public static final String CLUSTER_CLOCK = "hops.namenode.cluster-clock";

  /**
   * How often the leader removes expired delegation tokens (ms); HDFS's namenode scans every hour
   * and has no key for it.
   */
  public static final String DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS =
      "hops.namenode.delegation-token.remover-scan-interval.ms";

  public static final long DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS_DEFAULT = 3_600_000;

  /** The namenode's HTTP port (web UI, {@code /fsck}); 0 picks a free one, -1 disables it. */
  public static final String HTTP_PORT = "hops.namenode.http.port";

  public static final int HTTP_PORT_DEFAULT = 9870;

  /**
   * The namenode's HTTPS port, used when {@code dfs.http.policy} is {@code HTTPS_ONLY} or {@code
   * HTTP_AND_HTTPS}; 0 picks a free one. It binds the HTTP server's host.
   */
  public static final String HTTPS_PORT = "hops.namenode.https.port";

  public static final int HTTPS_PORT_DEFAULT = 9871;

  /** The lease soft limit (HDFS fixes it at 60 s); tests shorten it. */
  public static final String LEASE_SOFT_LIMIT_MS = "hops.namenode.lease.soft-limit.ms";

  /**
   * How long a block recovery may take before the leader starts it again with a new recovery id and
   * the next primary; default 30 heartbeat intervals, as HDFS.
   */
  public static final String BLOCK_RECOVERY_TIMEOUT_MS = "hops.namenode.block-recovery.timeout.ms";

  /**
   * How often the leader counts inodes and blocks for the {@code FilesTotal} and {@code
   * BlocksTotal} metrics (one scan of each table).
   */
  public static final String CENSUS_INTERVAL_MS = "hops.namenode.metrics.census.interval.ms";

  public static final long CENSUS_INTERVAL_MS_DEFAULT = 60_000;

  /**
   * How long the cluster-wide values behind the metrics ({@code /jmx}, {@code /prom}) are reused
   * before they are read again from the database, so that scrapes stay cheap.
   */
  public static final String METRICS_SNAPSHOT_MS = "hops.namenode.metrics.snapshot.ms";

  public static final long METRICS_SNAPSHOT_MS_DEFAULT = 1000;

  /**
   * How often a namenode reads one row in a thread of its own to know that its database answers
   * ({@code DatabaseLastRoundTripAgeMs} in {@code /jmx} and {@code /prom}, the web UI's overview).
   */
  public static final String DB_PROBE_PERIOD_MS = "hops.namenode.db-probe.period.ms";

  public static final long DB_PROBE_PERIOD_MS_DEFAULT = 1000;

  /**
   * The RPC handler count when {@code dfs.namenode.handler.count} is not set. Over the embedded
   * store a handler never waits for the disk or the network (reads are in the process, commits
   * answer through the group sync), so a handler per core keeps the processors busy, and more only
   * take turns at them: one per core, at least 2 (so that one slow call does not hold up the rest)
   * and at most HDFS's 10. On 2 cores with 16 clients, 2 handlers against 4 cost 6-16% less
   * namenode CPU per mkdirs, stat, create and delete, the same per rename (docs/benchmarks.md, stop
   * 49). Over MySQL/MariaDB or NDB a handler waits for each round trip, so it keeps HDFS's 10.
   */
  public static int defaultHandlerCount(String engine, int cores) {
    if (!engine.equals(io.hops.common.HopsConfig.METADATA_ENGINE_DEFAULT)) {
      return DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_DEFAULT;
    }
    return Math.max(2, Math.min(DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_DEFAULT, cores));
  }

  /**
   * {@code dfs.namenode.handler.count} when a site file or the caller sets it, else {@link
   * #defaultHandlerCount} on this machine. The 10 of Hadoop's {@code hdfs-default.xml}, which a
   * configuration that loads the defaults holds, counts as not set.
   */
  public static int handlerCount(Configuration conf, String engine) {
    if (isDefault(conf, DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_KEY)) {
      return defaultHandlerCount(engine, Runtime.getRuntime().availableProcessors());
    }
    return conf.getInt(DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_KEY, 0);
  }

  /**
   * Connections a namenode's threads other than its RPC handlers and subtree threads may hold at
   * once: the leader's housekeeping, the subtree reclaimer, the access-time writer and one web
   * request (WebHDFS, {@code /fsck}, the metrics). The election has connections of its own.
   */
  public static final int POOL_RESERVE = 4;

  /** The connections a namenode's threads may hold at once (see {@link #checkPoolServes}). */
  public static int connectionsNeeded(int handlers, int subtreeThreads) {
    return handlers + subtreeThreads + POOL_RESERVE;
  }

  /**
   * Refuses a configuration whose connection pool ({@code poolSize}; null: an engine without one)
   * cannot give every thread that takes a connection one at once: {@code handlers} + {@code
   * hops.namenode.subtree.threads} + {@link #POOL_RESERVE}. Fewer would make busy handlers wait for
   * connections that other busy handlers hold, up to the connection timeout, and fail.
   */
  public static void checkPoolServes(Configuration conf, int handlers, Long poolSize)
      throws java.io.IOException {
    int subtree = conf.getInt(SUBTREE_THREADS, SUBTREE_THREADS_DEFAULT);
    long needed = connectionsNeeded(handlers, subtree);
    if (poolSize != null && poolSize < needed) {
      throw new java.io.IOException(
          String.format(
              "%s = %d cannot serve the %d threads of this namenode that take database"
                  + " connections: %s (%d) + %s (%d) + %d (housekeeping, subtree reclaim,"
                  + " access times, web); raise %s to at least %d or lower the others"
                  + " (docs/configuration.md)",
              io.hops.common.HopsConfig.POOL_SIZE,
              poolSize,
              needed,
              DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_KEY,
              handlers,
              SUBTREE_THREADS,
              subtree,
              POOL_RESERVE,
              io.hops.common.HopsConfig.POOL_SIZE,
              needed));
    }
  }

  /**
   * Whether {@code key} has its Hadoop default: unset, or set only by a {@code *-default.xml} (no
   * site file of the operator's, and no caller, sets it).
   */
  public static boolean isDefault(Configuration conf, String key) {
    String[] sources = conf.getPropertySources(key);
    return sources == null || sources.length == 0 || sources[0].endsWith("-default.xml");
  }

  /**
   * The DAL's configuration from the {@code hops.metadata.*} keys: the store a namenode and the
   * commands that open it directly ({@code format}, {@code export}, {@code import}) use.
   */
  public static DalConfig dalConfig(Configuration conf) {
    Map<String, String> values = new HashMap<>(conf.getPropsWithPrefix("hops.metadata."));
    Map<String, String> keys = new HashMap<>();
    values.forEach((k, v) -> keys.put("hops.metadata." + k, v));
    // A statement may wait for the database as long as an operation retries, no longer.
    keys.putIfAbsent(
        HopsConfig.ROUND_TRIP_TIMEOUT_MS,
        Long.toString(conf.getLong(TX_DEADLINE_MS, TX_DEADLINE_MS_DEFAULT)));
    return DalConfig.of(keys);
  }
}
