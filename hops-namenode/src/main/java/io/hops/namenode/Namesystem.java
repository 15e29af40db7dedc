package io.hops.namenode;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.Limits;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.ops.XAttrSettings;
import io.hops.namenode.ops.snapshot.RefuseSnapshottedBelow;
import io.hops.namenode.resolve.InodeHintCache;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.subtree.SubtreeMarks;
import io.hops.namenode.subtree.SubtreeOperations;
import io.hops.namenode.tx.Operation;
import io.hops.namenode.tx.RetryCache;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.function.Supplier;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * What every operation of one namenode shares: the transaction runner, the settings, users and
 * groups, inode ids and the conversion of rows to the statuses clients see. It holds no namespace
 * state: everything authoritative is in the database.
 */
public final class Namesystem {
  private final Storage storage;
  private final TransactionRunner runner;
  private final UsersAndGroups users;
  private final IdPool inodeIds;
  private final Configuration conf;
  private final Limits limits;
  private final io.hops.namenode.ops.snapshot.SnapshotSettings snapshots;
  private final XAttrSettings xattrs;
  private final String fsOwner;
  private final String supergroup;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final LeaseManager leases;
  private final FileStatuses statuses;
  private final SubtreeOperations subtrees;
  private final io.hops.namenode.faults.Faults faults = new io.hops.namenode.faults.Faults();
  private final io.hops.namenode.blocks.SmallFileStore smallFiles;
  private final io.hops.namenode.security.BlockTokens blockTokens;
  private final io.hops.namenode.security.DelegationTokens delegationTokens;
  private final io.hops.namenode.ops.snapshot.VersionReclaimer snapshotReclaims;

  public Namesystem(Storage storage, Configuration conf) throws IOException {
    this.storage = storage;
    this.conf = conf;
    this.limits = Limits.of(conf);
    this.snapshots = io.hops.namenode.ops.snapshot.SnapshotSettings.of(conf);
    this.xattrs = XAttrSettings.of(conf);
    this.runner =
        new TransactionRunner(
            storage,
            new InodeHintCache(
                conf.getLong(
                    NamenodeConfig.HINT_CACHE_BYTES, NamenodeConfig.hintCacheBytesDefault()),
                conf.getInt(
                    NamenodeConfig.HINT_CACHE_SIZE, NamenodeConfig.HINT_CACHE_SIZE_DEFAULT)),
            conf.getInt(NamenodeConfig.TX_MAX_ATTEMPTS, 20),
            conf.getLong(NamenodeConfig.TX_BACKOFF_BASE_MS, 2),
            conf.getLong(NamenodeConfig.TX_BACKOFF_MAX_MS, 500),
            conf.getLong(NamenodeConfig.TX_DEADLINE_MS, NamenodeConfig.TX_DEADLINE_MS_DEFAULT));
    runner.snapshotsEnabled(snapshots.enabled());
    runner.boundRows(
        conf.getInt(
            NamenodeConfig.TRANSACTION_MAX_ROWS, NamenodeConfig.TRANSACTION_MAX_ROWS_DEFAULT));
    runner.deferResponses(
        conf.getBoolean(
            NamenodeConfig.DEFERRED_RESPONSE, NamenodeConfig.DEFERRED_RESPONSE_DEFAULT));
    this.users =
        new UsersAndGroups(
            storage,
            conf.getLong(
                NamenodeConfig.USER_GROUP_NAMES_BYTES,
                NamenodeConfig.USER_GROUP_NAMES_BYTES_DEFAULT),
            conf.getLong(NamenodeConfig.LONG_NAMES_BYTES, NamenodeConfig.LONG_NAMES_BYTES_DEFAULT));
    this.inodeIds = new IdPool(storage, "inode_id", 1000);
    this.statuses = new FileStatuses(users, snapshots.enabled());
    this.fsOwner = UserGroupInformation.getCurrentUser().getShortUserName();
    this.supergroup =
        conf.get(
            DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_KEY,
            DFSConfigKeys.DFS_PERMISSIONS_SUPERUSERGROUP_DEFAULT);
    this.checkers =
        new PermissionCheckers(
            users,
            fsOwner,
            supergroup,
            conf.getBoolean(
                DFSConfigKeys.DFS_PERMISSIONS_ENABLED_KEY,
                DFSConfigKeys.DFS_PERMISSIONS_ENABLED_DEFAULT));
    this.blocks = new BlockManager(storage, conf);
    this.blockTokens =
        new io.hops.namenode.security.BlockTokens(storage, conf, blocks.ids().blockPoolId());
    this.delegationTokens =
        new io.hops.namenode.security.DelegationTokens(storage, conf, blocks.ids().blockPoolId());
    runner.useRetryCache(
        new RetryCache(
            conf.getLong(
                DFSConfigKeys.DFS_NAMENODE_RETRY_CACHE_EXPIRYTIME_MILLIS_KEY,
                DFSConfigKeys.DFS_NAMENODE_RETRY_CACHE_EXPIRYTIME_MILLIS_DEFAULT)),
        blocks::now);
    this.leases = new LeaseManager(conf, blocks, runner);
    this.smallFiles = new io.hops.namenode.blocks.SmallFileStore(conf);
    long subtreeDelay = conf.getLong(NamenodeConfig.SUBTREE_FAULT_BATCH_DELAY_MS, 0);
    if (subtreeDelay > 0) {
      faults.arm(
          io.hops.namenode.faults.Faults.Point.SUBTREE_STEP,
          io.hops.namenode.faults.Faults.delay(java.time.Duration.ofMillis(subtreeDelay)));
    }
    this.subtrees =
        new SubtreeOperations(
            runner,
            new SubtreeMarks(storage, runner, blocks::election, faults),
            faults,
            limits,
            blocks.clock(),
            snapshots,
            (path, mark, markOwner) -> {
              if (snapshots.enabled()) {
                runner.run(() -> new RefuseSnapshottedBelow(snapshots, path, mark, markOwner));
              }
            },
            conf);
    runner.useStaleMarks(subtrees.marks());
    this.snapshotReclaims = new io.hops.namenode.ops.snapshot.VersionReclaimer(runner);
  }

  /** Creates the root directory if the namespace has none (idempotent, safe to race). */
  public void ensureRoot() throws StorageException {
    try (Transaction tx = storage.begin()) {
      if (tx.find(InodeRow.TABLE, Inodes.rootKey(), LockMode.READ_COMMITTED) != null) {
        return;
      }
    }
    // Ids below the first range are never handed out: the root takes 1.
    inodeIds.reserveUpTo(Inodes.ROOT_ID);
    MutableInode root = new MutableInode();
    root.parentId = Inodes.NO_PARENT;
    root.name = "";
    root.id = Inodes.ROOT_ID;
    root.isDir = true;
    root.permission = (short) 0755;
    root.userId = users.userId(fsOwner);
    root.groupId = users.groupId(supergroup);
    root.modificationTime = blocks.now();
    root.accessTime = 0; // as in HDFS: a directory's access time moves only by setTimes
    try (Transaction tx = storage.begin()) {
      tx.insert(InodeRow.TABLE, root.toRow());
      tx.commit();
    } catch (io.hops.dal.DuplicateKeyException e) {
      // Another namenode created it first.
    }
  }

  /** Block access tokens: the keys shared through the database, signing and checking. */
  public io.hops.namenode.security.BlockTokens blockTokens() {
    return blockTokens;
  }

  /** Delegation tokens: master keys and tokens shared through the database. */
  public io.hops.namenode.security.DelegationTokens delegationTokens() {
    return delegationTokens;
  }

  /** Runs an operation as a transaction, retrying transient failures. */
  public <T> T run(Supplier<? extends Operation<T>> op) throws IOException {
    return runner.run(op);
  }

  /**
   * Runs leader-only work (housekeeping) as a transaction fenced by the election: it commits only
   * if this namenode still leads at the epoch the database names (docs/architecture.md, "Wire
   * compatibility").
   */
  public <T> T runAsLeader(Supplier<? extends Operation<T>> op) throws IOException {
    return runner.run(op, blocks.leaderFence());
  }

  /**
   * Runs a call HDFS marks {@code @AtMostOnce}: a retry of the same RPC, on any namenode, answers
   * the first outcome from the retry cache instead of running again.
   */
  public <T> T runAtMostOnce(RetryCache.Codec<T> codec, Supplier<? extends Operation<T>> op)
      throws IOException {
    return runner.runAtMostOnce(op, codec);
  }

  /** The permission checker of the current RPC's caller. */
  public PermissionChecker checker() throws IOException {
    return checkers.ofCaller();
  }

  /**
   * A permission checker of this namenode's own user, the superuser: for work the namenode does on
   * its own behalf (housekeeping, the audit log's status reads, moving a database file to datanodes
   * once the caller's rights were checked).
   */
  public PermissionChecker superuserChecker() throws IOException {
    return checkers.ofSuperuser();
  }

  /** The permission checkers of the caller and of this namenode's superuser. */
  public PermissionCheckers checkers() {
    return checkers;
  }

  /** Inode ids, unique across namenodes, drawn a range at a time. */
  public IdPool inodeIds() {
    return inodeIds;
  }

  /** The status a client sees of an inode; {@code localName} is empty for getFileInfo. */
  public HdfsFileStatus status(InodeRow inode, byte[] localName) throws StorageException {
    return statuses.status(inode, localName);
  }

  /** The statuses clients see of inodes. */
  public FileStatuses statuses() {
    return statuses;
  }

  /** Write leases; their expiry releases files through the lease recovery hook. */
  public LeaseManager leases() {
    return leases;
  }

  /**
   * Directory operations at any size: the subtree protocol (docs/architecture.md, "Subtree
   * operations").
   */
  public SubtreeOperations subtrees() {
    return subtrees;
  }

  /** Where tests inject faults into this namenode; nothing happens at them unless one is armed. */
  public io.hops.namenode.faults.Faults faults() {
    return faults;
  }

  /** Blocks, datanodes and replica locations. */
  public BlockManager blocks() {
    return blocks;
  }

  /** Small files kept in the database: tiers and thresholds. */
  public io.hops.namenode.blocks.SmallFileStore smallFiles() {
    return smallFiles;
  }

  public Configuration conf() {
    return conf;
  }

  /** The namespace limits, as configured at start. */
  public Limits limits() {
    return limits;
  }

  /** Whether snapshot calls are served, and their limits, as configured at start. */
  /** This namenode's reclaims of snapshot versions, run after the calls that start them answer. */
  public io.hops.namenode.ops.snapshot.VersionReclaimer snapshotReclaims() {
    return snapshotReclaims;
  }

  public io.hops.namenode.ops.snapshot.SnapshotSettings snapshots() {
    return snapshots;
  }

  /** Whether extended attributes and ACLs are served, and their limits, as configured at start. */
  public XAttrSettings xattrs() {
    return xattrs;
  }

  public UsersAndGroups users() {
    return users;
  }

  public TransactionRunner runner() {
    return runner;
  }

  public Storage storage() {
    return storage;
  }

  public String fsOwner() {
    return fsOwner;
  }

  public String supergroup() {
    return supergroup;
  }
}
