package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.RecentReceipts;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.AddBlock;
import io.hops.namenode.ops.Complete;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.GetBlockLocations;
import io.hops.namenode.ops.GetFileInfo;
import io.hops.namenode.ops.GetListing;
import io.hops.namenode.ops.GetPreferredBlockSize;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.ops.IsFileClosed;
import io.hops.namenode.ops.Mkdirs;
import io.hops.namenode.ops.RecoverLease;
import io.hops.namenode.ops.RenewLease;
import io.hops.namenode.ops.SetOwner;
import io.hops.namenode.ops.SetPermission;
import io.hops.namenode.ops.SetReplication;
import io.hops.namenode.ops.SetTimes;
import io.hops.namenode.security.Caller;
import io.hops.namenode.security.LongNames;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.UserGroupInformation.AuthenticationMethod;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.DataChecksum;

/**
 * The {@code ClientProtocol} methods hops implements, each one an operation run as a transaction.
 * Features hops does not have are answered by {@link FeaturesOff} as HDFS answers with them off;
 * what remains is refused by {@link UnsupportedClientProtocol}, naming the method.
 */
public class ClientRpc extends FeaturesOff {
  private final Namesystem ns;

  private final io.hops.namenode.ops.AccessTimes accessTimes;

  /** Who moves database files to datanodes before a stock append or a concat; null: nobody. */
  private volatile io.hops.namenode.smallfiles.DatabaseFileMover databaseFileMover;

  public ClientRpc(Namesystem ns) {
    super(ns);
    this.ns = ns;
    this.accessTimes = new io.hops.namenode.ops.AccessTimes(ns);
  }

  /** Set once the namenode's address is known (the mover writes through a client of it). */
  public void setDatabaseFileMover(io.hops.namenode.smallfiles.DatabaseFileMover mover) {
    this.databaseFileMover = mover;
  }

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new Mkdirs(ns, pc, src, masked, createParent));
  }

  @Override
  public HdfsFileStatus getFileInfo(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetFileInfo(ns, pc, src, "getFileInfo"));
  }

  @Override
  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    // hops has no symlinks yet, so the link's own status is the file's.
    var pc = ns.checker();
    return ns.run(() -> new GetFileInfo(ns, pc, src, "getFileLinkInfo"));
  }

  @Override
  public void msync() {
    // Every namenode reads the database directly: there is nothing to catch up on.
  }

  @Override
  public HAServiceProtocol.HAServiceState getHAServiceState() {
    return HAServiceProtocol.HAServiceState.ACTIVE;
  }

  // ---- files: create, complete, leases, block locations ----

  /** The lease manager, made on first use (it only reads settings; racing makers are harmless). */
  private LeaseManager leases() {
    return ns.leases();
  }

  /**
   * The key a client's lease is held under: its name, or for a name too long to be a key a digest,
   * whose text is stored first so that listings can show it ({@link LongNames}).
   */
  private String holder(String clientName) throws IOException {
    return ns.users().longNames().remember(clientName);
  }

  @Override
  public HdfsFileStatus create(
      String src,
      FsPermission masked,
      String clientName,
      EnumSetWritable<CreateFlag> flag,
      boolean createParent,
      short replication,
      long blockSize,
      CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName,
      String storagePolicy)
      throws IOException {
    var pc = ns.checker();
    var flags = flag.get();
    var leases = leases();
    String holder = holder(clientName);
    return ns.runAtMostOnce(
        RetryCodecs.CREATE,
        () ->
            new Create(
                ns,
                pc,
                leases,
                src,
                masked,
                holder,
                flags,
                createParent,
                replication,
                blockSize,
                ecPolicyName,
                storagePolicy));
  }

  @Override
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId)
      throws IOException {
    var pc = ns.checker();
    AtomicReference<Complete> op = new AtomicReference<>();
    Supplier<Complete> complete =
        () -> {
          op.set(new Complete(ns.blocks(), pc, src, LongNames.key(clientName), last, fileId));
          return op.get();
        };
    boolean done = ns.run(complete);
    if (!done && applyReceipts(op.get().waitingFor())) {
      done = ns.run(complete);
    }
    return done;
  }

  @Override
  public LocatedBlock addBlock(
      String src,
      String clientName,
      ExtendedBlock previous,
      DatanodeInfo[] excludeNodes,
      long fileId,
      String[] favoredNodes,
      EnumSet<AddBlockFlag> addBlockFlags)
      throws IOException {
    String writer = ns.checker().caller().clientMachine();
    AtomicReference<AddBlock> op = new AtomicReference<>();
    Supplier<AddBlock> addBlock =
        () -> {
          op.set(
              new AddBlock(
                  ns,
                  writer,
                  src,
                  fileId,
                  LongNames.key(clientName),
                  previous,
                  excludeNodes,
                  favoredNodes));
          return op.get();
        };
    LocatedBlock added;
    try {
      added = ns.run(addBlock);
    } catch (NotReplicatedYetException e) {
      if (!applyReceipts(List.of(op.get().waitingFor()))) {
        throw e;
      }
      added = ns.run(addBlock);
    }
    return signed(added, AccessMode.WRITE);
  }

  /**
   * {@code b} with a block token for the caller when block tokens are on, signed after the
   * transaction (HDFS's BlockManager.setBlockToken): an answer from the retry cache gets a fresh
   * token too.
   */
  private LocatedBlock signed(LocatedBlock b, AccessMode mode) throws IOException {
    if (ns.blockTokens().enabled()) {
      ns.blockTokens().sign(b, mode, Caller.current().user());
    }
    return b;
  }

  private LocatedBlocks signedForRead(LocatedBlocks blocks) throws IOException {
    if (ns.blockTokens().enabled()) {
      ns.blockTokens().signForRead(blocks, Caller.current().user());
    }
    return blocks;
  }

  /**
   * Applies the replicas of {@code blockIds} that datanodes reported here while another namenode
   * owned their reports (see {@link RecentReceipts}): a writer waiting for them need not wait for a
   * dead owner to be replaced. Whether there were any.
   */
  private boolean applyReceipts(List<Long> blockIds) throws IOException {
    boolean applied = false;
    for (long blockId : blockIds) {
      applied |= applyReceipts(blockId);
    }
    return applied;
  }

  private boolean applyReceipts(long blockId) throws IOException {
    List<RecentReceipts.Receipt> receipts = ns.blocks().receipts().take(blockId);
    DatanodeManager dm = ns.blocks().datanodes();
    boolean applied = false;
    for (RecentReceipts.Receipt r : receipts) {
      DatanodeManager.Node node = dm.node(r.datanodeUuid());
      if (node == null) {
        continue;
      }
      StorageRef storage = dm.storageStat(node, r.storage()).ref;
      ns.run(
          () -> new ReplicaChange(ns.blocks(), storage, blockId, r.genStamp(), r.numBytes(), true));
      applied = true;
    }
    return applied;
  }

  @Override
  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    var pc = ns.checker();
    if (!accessTimes.enabled()) {
      return signedForRead(
          ns.run(
              () -> new GetBlockLocations(ns.blocks(), ns.smallFiles(), pc, src, offset, length)));
    }
    var attempt = new java.util.concurrent.atomic.AtomicReference<GetBlockLocations>();
    LocatedBlocks located =
        ns.run(
            () -> {
              attempt.set(
                  new GetBlockLocations(ns.blocks(), ns.smallFiles(), pc, src, offset, length));
              return attempt.get();
            });
    // The access time is written after the answer, in the background (AccessTimes).
    accessTimes.read(attempt.get().file(), ns.blocks().now(), this::inSafeModeOrUnknown);
    return signedForRead(located);
  }

  /**
   * A file was read by another call than {@code getBlockLocations} (hops-client's one-call read of
   * a database file): its access time is kept the same way, in the background.
   */
  public void fileRead(io.hops.dal.rows.InodeRow file) {
    if (file != null && accessTimes.enabled()) {
      accessTimes.read(file, ns.blocks().now(), this::inSafeModeOrUnknown);
    }
  }

  /** Safe mode for background writes: when it cannot be read, as if on (write nothing). */
  private boolean inSafeModeOrUnknown() {
    try {
      return safeMode().isOn();
    } catch (IOException e) {
      return true;
    }
  }

  @Override
  public boolean isFileClosed(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new IsFileClosed(pc, src));
  }

  @Override
  public long getPreferredBlockSize(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetPreferredBlockSize(pc, src));
  }

  @Override
  public void renewLease(String clientName, List<String> namespaces) throws IOException {
    if (namespaces != null && !namespaces.isEmpty()) {
      throw new IOException("namespaces(" + namespaces + ") should be null or empty");
    }
    ns.run(() -> new RenewLease(LongNames.key(clientName), ns.blocks().now()));
  }

  @Override
  public boolean recoverLease(String src, String clientName) throws IOException {
    var pc = ns.checker();
    var leases = leases();
    return ns.run(() -> new RecoverLease(pc, leases, src, LongNames.key(clientName)));
  }

  /**
   * What HDFS's FSNamesystem reports from its settings, except that hops has no key provider and no
   * snapshots. The default storage policy is HOT, as in HDFS.
   */
  @Override
  public FsServerDefaults getServerDefaults() throws IOException {
    var conf = ns.conf();
    String checksum =
        conf.get(DFSConfigKeys.DFS_CHECKSUM_TYPE_KEY, DFSConfigKeys.DFS_CHECKSUM_TYPE_DEFAULT);
    DataChecksum.Type checksumType;
    try {
      checksumType = DataChecksum.Type.valueOf(checksum);
    } catch (IllegalArgumentException e) {
      throw new IOException(
          "Invalid checksum type in " + DFSConfigKeys.DFS_CHECKSUM_TYPE_KEY + ": " + checksum, e);
    }
    return new FsServerDefaults(
        conf.getLongBytes(DFSConfigKeys.DFS_BLOCK_SIZE_KEY, DFSConfigKeys.DFS_BLOCK_SIZE_DEFAULT),
        conf.getInt(
            DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_KEY, DFSConfigKeys.DFS_BYTES_PER_CHECKSUM_DEFAULT),
        conf.getInt(
            HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_KEY,
            HdfsClientConfigKeys.DFS_CLIENT_WRITE_PACKET_SIZE_DEFAULT),
        (short)
            conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT),
        conf.getInt(
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_KEY,
            CommonConfigurationKeysPublic.IO_FILE_BUFFER_SIZE_DEFAULT),
        ns.blockTokens().encryptsDataTransfer(),
        conf.getLong(
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_KEY,
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_DEFAULT),
        checksumType,
        "",
        HdfsConstants.HOT_STORAGE_POLICY_ID,
        false);
  }

  // ---- tree: delete, rename, content summary ----

  @Override
  public boolean delete(String src, boolean recursive) throws IOException {
    // HDFS resolves the path without checking its name first (FSDirDeleteOp.delete), so a relative
    // or empty one fails in INode.checkAbsolutePath, with an AssertionError.
    if (!src.startsWith("/")) {
      throw new AssertionError("Absolute path required, but got '" + src + "'");
    }
    var pc = ns.checker();
    return ns.subtrees().delete(pc, src, recursive, RetryCodecs.BOOLEAN);
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    var pc = ns.checker();
    return ns.subtrees().rename(pc, src, dst, true, null, RetryCodecs.BOOLEAN);
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    var pc = ns.checker();
    ns.subtrees().rename(pc, src, dst, false, options, RetryCodecs.BOOLEAN);
  }

  @Override
  public ContentSummary getContentSummary(String path) throws IOException {
    var pc = ns.checker();
    return ns.subtrees().contentSummary(pc, path);
  }

  @Override
  public org.apache.hadoop.fs.QuotaUsage getQuotaUsage(String path) throws IOException {
    var pc = ns.checker();
    return ns.subtrees().quotaUsage(pc, path);
  }

  @Override
  public void setQuota(
      String path, long nsQuota, long dsQuota, org.apache.hadoop.fs.StorageType type)
      throws IOException {
    NamenodeRpc.checkSuperuser(ns, io.hops.namenode.ops.SetQuota.command(nsQuota, dsQuota));
    io.hops.namenode.ops.SetQuota.checkArguments(nsQuota, dsQuota, type);
    var pc = ns.checker();
    ns.subtrees().setQuota(pc, path, nsQuota, dsQuota);
  }

  // ---- attributes and listing ----

  @Override
  public DirectoryListing getListing(String src, byte[] startAfter, boolean needLocation)
      throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetListing(ns, pc, src, startAfter, needLocation));
  }

  @Override
  public void setPermission(String src, FsPermission permission) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetPermission(pc, src, permission));
  }

  @Override
  public void setOwner(String src, String username, String groupname) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetOwner(pc, ns.users(), src, username, groupname));
  }

  @Override
  public void setTimes(String src, long mtime, long atime) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new SetTimes(pc, src, mtime, atime));
  }

  @Override
  public boolean setReplication(String src, short replication) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new SetReplication(ns, pc, src, replication));
  }

  // ---- extended attributes, ACLs and access checks (stored in the xattrs table) ----

  @Override
  public void setXAttr(
      String src, org.apache.hadoop.fs.XAttr xAttr, EnumSet<org.apache.hadoop.fs.XAttrSetFlag> flag)
      throws IOException {
    var pc = ns.checker();
    ns.runAtMostOnce(
        RetryCodecs.VOID, () -> new io.hops.namenode.ops.SetXAttr(ns, pc, src, xAttr, flag));
  }

  @Override
  public List<org.apache.hadoop.fs.XAttr> getXAttrs(
      String src, List<org.apache.hadoop.fs.XAttr> xAttrs) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.GetXAttrs(ns, pc, src, xAttrs, false));
  }

  @Override
  public List<org.apache.hadoop.fs.XAttr> listXAttrs(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.GetXAttrs(ns, pc, src, null, true));
  }

  @Override
  public void removeXAttr(String src, org.apache.hadoop.fs.XAttr xAttr) throws IOException {
    var pc = ns.checker();
    ns.runAtMostOnce(
        RetryCodecs.VOID, () -> new io.hops.namenode.ops.RemoveXAttr(ns, pc, src, xAttr));
  }

  @Override
  public void modifyAclEntries(String src, List<org.apache.hadoop.fs.permission.AclEntry> spec)
      throws IOException {
    changeAcl(src, io.hops.namenode.ops.ChangeAcl.Kind.MODIFY, spec);
  }

  @Override
  public void removeAclEntries(String src, List<org.apache.hadoop.fs.permission.AclEntry> spec)
      throws IOException {
    changeAcl(src, io.hops.namenode.ops.ChangeAcl.Kind.REMOVE_ENTRIES, spec);
  }

  @Override
  public void removeDefaultAcl(String src) throws IOException {
    changeAcl(src, io.hops.namenode.ops.ChangeAcl.Kind.REMOVE_DEFAULT, null);
  }

  @Override
  public void removeAcl(String src) throws IOException {
    changeAcl(src, io.hops.namenode.ops.ChangeAcl.Kind.REMOVE, null);
  }

  @Override
  public void setAcl(String src, List<org.apache.hadoop.fs.permission.AclEntry> spec)
      throws IOException {
    changeAcl(src, io.hops.namenode.ops.ChangeAcl.Kind.SET, spec);
  }

  private void changeAcl(
      String src,
      io.hops.namenode.ops.ChangeAcl.Kind kind,
      List<org.apache.hadoop.fs.permission.AclEntry> spec)
      throws IOException {
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.ChangeAcl(ns, pc, src, kind, spec));
  }

  @Override
  public org.apache.hadoop.fs.permission.AclStatus getAclStatus(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.GetAclStatus(ns, pc, src));
  }

  @Override
  public void checkAccess(String src, org.apache.hadoop.fs.permission.FsAction mode)
      throws IOException {
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.CheckAccess(pc, src, mode));
  }

  // ---- operators: dfsadmin, datanode reports, safe mode ----

  private volatile SafeMode safeMode;

  /** The cluster's safe mode as this namenode sees it; the RPC server gates writes with it. */
  public SafeMode safeMode() {
    SafeMode m = safeMode;
    if (m == null) {
      synchronized (this) {
        if (safeMode == null) {
          safeMode =
              new SafeMode(
                  ns,
                  ns.conf().getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1"));
        }
        m = safeMode;
      }
    }
    return m;
  }

  @Override
  public long[] getStats() throws IOException {
    return GetStats.stats(ns);
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats getReplicatedBlockStats()
      throws IOException {
    return GetStats.replicated(ns);
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.ECBlockGroupStats getECBlockGroupStats() {
    return GetStats.erasureCoded();
  }

  @Override
  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type)
      throws IOException {
    NamenodeRpc.checkSuperuser(ns, "datanodeReport");
    return DatanodeReports.nodes(ns.blocks().datanodes(), type);
  }

  @Override
  public org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport[] getDatanodeStorageReport(
      HdfsConstants.DatanodeReportType type) throws IOException {
    NamenodeRpc.checkSuperuser(ns, "getDatanodeStorageReport");
    return DatanodeReports.storages(ns.blocks().datanodes(), type);
  }

  /** hops tracks no slow peers or disks (HDFS's answer with that tracking off). */
  @Override
  public DatanodeInfo[] getSlowDatanodeReport() {
    return new DatanodeInfo[0];
  }

  /**
   * Safe mode for the whole cluster ({@link SafeMode}): manual, or startup safe mode while the
   * namenodes start; leave and forceExit end both, at once.
   */
  @Override
  public boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked)
      throws IOException {
    if (action == HdfsConstants.SafeModeAction.SAFEMODE_GET) {
      return safeMode().get();
    }
    NamenodeRpc.checkSuperuser(ns, action.toString().toLowerCase(java.util.Locale.ROOT));
    return switch (action) {
      case SAFEMODE_ENTER -> safeMode().set(true);
      case SAFEMODE_LEAVE, SAFEMODE_FORCE_EXIT -> safeMode().set(false);
      default -> safeMode().get();
    };
  }

  /** No rolling upgrade is ever in progress: a schema upgrade happens as a namenode starts. */
  @Override
  public org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo rollingUpgrade(
      HdfsConstants.RollingUpgradeAction action) throws IOException {
    NamenodeRpc.checkSuperuser(ns, "queryRollingUpgrade");
    if (action == HdfsConstants.RollingUpgradeAction.QUERY) {
      return null;
    }
    throw new UnsupportedOperationException(
        "ClientProtocol.rollingUpgrade "
            + action
            + " is not supported by hops: the metadata schema is upgraded when a namenode starts");
  }

  // ---- open files, corrupt files, located and batched listings ----

  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.OpenFileEntry>
      listOpenFiles(long prevId) throws IOException {
    return listOpenFiles(
        prevId,
        EnumSet.of(org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES),
        org.apache.hadoop.hdfs.protocol.OpenFilesIterator.FILTER_PATH_DEFAULT);
  }

  /**
   * The files being written, from the lease tables; with {@code BLOCKING_DECOMMISSION} alone, those
   * holding up a datanode being decommissioned or entering maintenance ({@link
   * io.hops.namenode.ops.ListOpenFiles#blockingDecommission}).
   */
  @Override
  public org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries<
          org.apache.hadoop.hdfs.protocol.OpenFileEntry>
      listOpenFiles(
          long prevId,
          EnumSet<org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType> types,
          String path)
          throws IOException {
    NamenodeRpc.checkSuperuser(ns, "listOpenFiles");
    String normalized = new org.apache.hadoop.fs.Path(path).toString();
    if (!types.contains(
        org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES)) {
      if (!types.contains(
          org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType.BLOCKING_DECOMMISSION)) {
        throw new IllegalArgumentException("Unknown OpenFileType: " + types);
      }
    }
    boolean blocking =
        !types.contains(
            org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES);
    int limit =
        ns.conf()
            .getInt(
                DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES,
                DFSConfigKeys.DFS_NAMENODE_LIST_OPENFILES_NUM_RESPONSES_DEFAULT);
    int defaultReplication =
        ns.conf().getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    var page =
        ns.run(
            () ->
                blocking
                    ? io.hops.namenode.ops.ListOpenFiles.blockingDecommission(
                        normalized, prevId, limit, ns.blocks(), defaultReplication)
                    : new io.hops.namenode.ops.ListOpenFiles(normalized, prevId, limit));
    List<org.apache.hadoop.hdfs.protocol.OpenFileEntry> named = new ArrayList<>(page.size());
    for (int i = 0; i < page.size(); i++) {
      var e = page.get(i);
      named.add(
          LongNames.isDigest(e.getClientName())
              ? new org.apache.hadoop.hdfs.protocol.OpenFileEntry(
                  e.getId(),
                  e.getFilePath(),
                  ns.users().longNames().name(e.getClientName()),
                  e.getClientMachine())
              : e);
    }
    return new org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries<>(
        named, page.hasMore());
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.CorruptFileBlocks listCorruptFileBlocks(
      String path, String cookie) throws IOException {
    NamenodeRpc.checkSuperuser(ns, "listCorruptFileBlocks");
    var missing = GetStats.missingBlocks(ns);
    int limit =
        ns.conf()
            .getInt(
                DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED_KEY,
                DFSConfigKeys.DFS_DEFAULT_MAX_CORRUPT_FILES_RETURNED);
    return ns.run(
        () -> new io.hops.namenode.ops.ListCorruptFileBlocks(missing, path, cookie, limit));
  }

  /**
   * {@code dfsadmin -refreshNodes}: this namenode's hosts files, stored with the admin states they
   * give for every namenode to apply ({@link io.hops.namenode.blocks.DatanodeAdmin}).
   */
  @Override
  public void refreshNodes() throws IOException {
    NamenodeRpc.checkSuperuser(ns, "refreshNodes");
    ns.blocks().datanodes().admin().refreshNodes(ns.conf());
  }

  /**
   * {@code dfsadmin -setBalancerBandwidth}: stored for every namenode, and passed to each datanode
   * by the leader's next heartbeat answer ({@link io.hops.namenode.blocks.BalancerBandwidth}).
   */
  @Override
  public void setBalancerBandwidth(long bandwidth) throws IOException {
    if (bandwidth > HdfsServerConstants.MAX_BANDWIDTH_PER_DATANODE) {
      throw new IllegalArgumentException(
          "Bandwidth should not exceed maximum limit "
              + HdfsServerConstants.MAX_BANDWIDTH_PER_DATANODE
              + " bytes per second");
    }
    NamenodeRpc.checkSuperuser(ns, "setBalancerBandwidth");
    io.hops.namenode.blocks.BalancerBandwidth.set(ns.storage(), bandwidth);
  }

  /**
   * {@code dfsadmin -metasave FILE}: HDFS's dump of the block state, read from the database ({@link
   * io.hops.namenode.ops.MetaSave}), written to {@code FILE} in {@code hadoop.log.dir} of this
   * namenode as HDFS writes it.
   */
  @Override
  public void metaSave(String filename) throws IOException {
    NamenodeRpc.checkSuperuser(ns, "metaSave");
    java.io.File file = new java.io.File(System.getProperty("hadoop.log.dir"), filename);
    try (java.io.PrintWriter out =
        new java.io.PrintWriter(
            new java.io.BufferedWriter(
                new java.io.OutputStreamWriter(
                    java.nio.file.Files.newOutputStream(file.toPath()),
                    java.nio.charset.StandardCharsets.UTF_8)))) {
      io.hops.namenode.ops.MetaSave.write(ns, out);
    }
  }

  /** A file's status with its block locations; a directory's plain status; null if missing. */
  @Override
  public org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus getLocatedFileInfo(
      String src, boolean needBlockToken) throws IOException {
    HdfsFileStatus stat = getFileInfo(src);
    if (stat == null || stat.isDirectory()) {
      return (org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus) stat;
    }
    var pc = ns.checker();
    DirectoryListing one =
        ns.run(() -> new GetListing(ns, pc, src, HdfsFileStatus.EMPTY_NAME, true));
    if (one == null
        || one.getPartialListing().length != 1
        || one.getPartialListing()[0].isDirectory()) {
      return null; // replaced by a directory meanwhile: as if looked up a moment later
    }
    var located =
        (org.apache.hadoop.hdfs.protocol.HdfsLocatedFileStatus) one.getPartialListing()[0];
    if (needBlockToken) {
      signedForRead(located.getLocatedBlocks());
    }
    return located;
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BatchedDirectoryListing getBatchedListing(
      String[] srcs, byte[] startAfter, boolean needLocation) throws IOException {
    var pc = ns.checker();
    return io.hops.namenode.ops.BatchedListing.list(ns, pc, srcs, startAfter, needLocation);
  }

  // ---- replication and bad blocks ----

  @Override
  public void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    io.hops.namenode.blocks.BadBlockReports.report(ns, blocks);
  }

  // ---- write path: append, pipeline, fsync, concat, truncate ----

  @Override
  public org.apache.hadoop.hdfs.protocol.LastBlockWithStatus append(
      String src, String clientName, EnumSetWritable<CreateFlag> flag) throws IOException {
    var pc = ns.checker();
    var flags = flag == null ? null : flag.get();
    var leases = ns.leases();
    String holder = holder(clientName);
    var appended =
        afterMovingFromDatabase(
            pc,
            () ->
                ns.runAtMostOnce(
                    RetryCodecs.APPEND,
                    () -> new io.hops.namenode.ops.Append(ns, pc, leases, src, holder, flags)));
    if (appended != null) {
      signed(appended.getLastBlock(), AccessMode.WRITE);
    }
    return appended;
  }

  @Override
  public void fsync(String src, long fileId, String clientName, long lastBlockLength)
      throws IOException {
    var pc = ns.checker();
    String holder = LongNames.key(clientName);
    ns.run(() -> new io.hops.namenode.ops.Fsync(pc, src, fileId, holder, lastBlockLength));
  }

  @Override
  public void abandonBlock(ExtendedBlock b, long fileId, String src, String holder)
      throws IOException {
    var pc = ns.checker();
    String key = LongNames.key(holder);
    ns.run(() -> new io.hops.namenode.ops.AbandonBlock(pc, ns.blocks(), b, fileId, src, key));
  }

  @Override
  public LocatedBlock getAdditionalDatanode(
      String src,
      long fileId,
      ExtendedBlock blk,
      DatanodeInfo[] existings,
      String[] existingStorageIDs,
      DatanodeInfo[] excludes,
      int numAdditionalNodes,
      String clientName)
      throws IOException {
    var pc = ns.checker();
    return signed(
        ns.run(
            () ->
                new io.hops.namenode.ops.GetAdditionalDatanode(
                    pc,
                    ns.blocks(),
                    src,
                    fileId,
                    blk,
                    existings,
                    existingStorageIDs,
                    excludes,
                    numAdditionalNodes,
                    LongNames.key(clientName))),
        AccessMode.COPY);
  }

  @Override
  public LocatedBlock updateBlockForPipeline(ExtendedBlock block, String clientName)
      throws IOException {
    return signed(
        ns.run(
            () ->
                new io.hops.namenode.ops.UpdateBlockForPipeline(
                    ns.blocks(), block, LongNames.key(clientName))),
        AccessMode.WRITE);
  }

  @Override
  public void updatePipeline(
      String clientName,
      ExtendedBlock oldBlock,
      ExtendedBlock newBlock,
      org.apache.hadoop.hdfs.protocol.DatanodeID[] newNodes,
      String[] newStorageIDs)
      throws IOException {
    // @AtMostOnce in HDFS: a resend of an update that committed would find the block already at
    // the new generation stamp and fail the writer's pipeline recovery.
    ns.runAtMostOnce(
        RetryCodecs.VOID,
        () ->
            new io.hops.namenode.ops.UpdatePipeline(
                ns.blocks(),
                LongNames.key(clientName),
                oldBlock,
                newBlock,
                newNodes,
                newStorageIDs));
  }

  @Override
  public void concat(String trg, String[] srcs) throws IOException {
    var pc = ns.checker();
    afterMovingFromDatabase(
        pc,
        () ->
            ns.runAtMostOnce(
                RetryCodecs.VOID,
                () -> new io.hops.namenode.ops.Concat(ns.blocks(), pc, trg, srcs)));
  }

  /** One run of an operation that may meet a database file. */
  @FunctionalInterface
  private interface BlockOperation<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code op}; each time it meets a file stored in the database, moves that file to datanodes
   * (docs/architecture.md, "Small files in the database": it stays there, as a file an append grew
   * past the maximum does) and runs it again. Files on datanodes cost nothing more. The operation
   * checked the caller's rights on the file before it met it (WRITE on an append's or concat's
   * target, READ on a concat's source).
   */
  private <T> T afterMovingFromDatabase(
      io.hops.namenode.security.PermissionChecker pc, BlockOperation<T> op) throws IOException {
    var mover = databaseFileMover;
    java.util.Set<String> moved = new java.util.HashSet<>();
    while (true) {
      try {
        return op.run();
      } catch (io.hops.namenode.ops.StoredInDatabaseException e) {
        if (mover == null || !moved.add(e.path())) {
          throw e;
        }
        // Moved meanwhile by another caller, or not: the next run sees which.
        mover.moveIfInDatabase(pc, e.path(), org.apache.hadoop.fs.permission.FsAction.READ);
      }
    }
  }

  @Override
  public boolean truncate(String src, long newLength, String clientName) throws IOException {
    var pc = ns.checker();
    var leases = ns.leases();
    String holder = holder(clientName);
    return ns.run(
        () ->
            new io.hops.namenode.ops.Truncate(ns.blocks(), pc, leases, src, newLength, holder)
                .withSmallFiles(ns.smallFiles()));
  }

  // ---- storage policies (HDFS's suite plus DB: small files in the database) ----

  @Override
  public void setStoragePolicy(String src, String policyName) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.SetStoragePolicy(ns, pc, src, policyName));
  }

  @Override
  public void unsetStoragePolicy(String src) throws IOException {
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.SetStoragePolicy(ns, pc, src, null));
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BlockStoragePolicy getStoragePolicy(String path)
      throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.GetStoragePolicy(pc, path));
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.BlockStoragePolicy[] getStoragePolicies() {
    return io.hops.namenode.blocks.StoragePolicies.all();
  }

  /** hops has no storage policy satisfier: HDFS's answer when the satisfier is off. */
  @Override
  public void satisfyStoragePolicy(String path) throws IOException {
    io.hops.namenode.ops.SetStoragePolicy.checkEnabled(ns, "satisfy storage policy");
    throw new org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException(
        "Cannot request to satisfy storage policy when storage policy satisfier feature has been"
            + " disabled by admin. Seek for an admin help to enable it or use Mover tool.");
  }

  // ---- delegation tokens: HDFS's, with keys and tokens in the database ----

  /**
   * A new {@code HDFS_DELEGATION_TOKEN} for the caller, as HDFS's FSNamesystem issues it: null with
   * simple authentication (no secret manager running), refused to a caller that is itself
   * authenticated by a token. The client sets the token's service (the namenode's address, or the
   * logical nameservice).
   */
  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    if (!allowedDelegationTokenOp()) {
      throw new IOException(
          "Delegation Token can be issued only with kerberos or web authentication");
    }
    return ns.delegationTokens().issue(remoteUser(), renewer);
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    if (!allowedDelegationTokenOp()) {
      throw new IOException(
          "Delegation Token can be renewed only with kerberos or web authentication");
    }
    return ns.delegationTokens().renewToken(token, remoteUser().getShortUserName());
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    ns.delegationTokens().cancelToken(token, remoteUser().getUserName());
  }

  private static UserGroupInformation remoteUser() throws IOException {
    UserGroupInformation ugi = Server.getRemoteUser();
    return ugi != null ? ugi : UserGroupInformation.getCurrentUser();
  }

  /** HDFS's FSNamesystem.isAllowedDelegationTokenOp: with Kerberos, not to a token's holder. */
  private static boolean allowedDelegationTokenOp() throws IOException {
    UserGroupInformation ugi = remoteUser();
    AuthenticationMethod method = ugi.getAuthenticationMethod();
    if (method == AuthenticationMethod.PROXY) {
      method = ugi.getRealUser().getAuthenticationMethod();
    }
    return !UserGroupInformation.isSecurityEnabled()
        || method == AuthenticationMethod.KERBEROS
        || method == AuthenticationMethod.KERBEROS_SSL
        || method == AuthenticationMethod.CERTIFICATE;
  }

  // ---- snapshots (docs/architecture.md, "Snapshots"): FeaturesOff's answers unless enabled ----

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    if (!ns.snapshots().enabled()) {
      super.allowSnapshot(snapshotRoot);
      return;
    }
    NamenodeRpc.checkSuperuser(ns, "allowSnapshot");
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.snapshot.AllowSnapshot(pc, snapshotRoot));
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    if (!ns.snapshots().enabled()) {
      super.disallowSnapshot(snapshotRoot);
      return;
    }
    NamenodeRpc.checkSuperuser(ns, "disallowSnapshot");
    var pc = ns.checker();
    ns.run(() -> new io.hops.namenode.ops.snapshot.DisallowSnapshot(pc, snapshotRoot));
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    if (!ns.snapshots().enabled()) {
      return super.createSnapshot(snapshotRoot, snapshotName);
    }
    var pc = ns.checker();
    return ns.runAtMostOnce(
        RetryCodecs.STRING,
        () -> new io.hops.namenode.ops.snapshot.CreateSnapshot(ns, pc, snapshotRoot, snapshotName));
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    if (!ns.snapshots().enabled()) {
      super.deleteSnapshot(snapshotRoot, snapshotName);
      return;
    }
    var pc = ns.checker();
    ns.runAtMostOnce(
        RetryCodecs.VOID,
        () -> new io.hops.namenode.ops.snapshot.DeleteSnapshot(pc, snapshotRoot, snapshotName));
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String oldName, String newName)
      throws IOException {
    if (!ns.snapshots().enabled()) {
      super.renameSnapshot(snapshotRoot, oldName, newName);
      return;
    }
    var pc = ns.checker();
    ns.runAtMostOnce(
        RetryCodecs.VOID,
        () ->
            new io.hops.namenode.ops.snapshot.RenameSnapshot(
                ns, pc, snapshotRoot, oldName, newName));
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus[] getSnapshottableDirListing()
      throws IOException {
    if (!ns.snapshots().enabled()) {
      return super.getSnapshottableDirListing();
    }
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.snapshot.GetSnapshottableDirListing(ns, pc));
  }

  @Override
  public org.apache.hadoop.hdfs.protocol.SnapshotStatus[] getSnapshotListing(String snapshotRoot)
      throws IOException {
    if (!ns.snapshots().enabled()) {
      return super.getSnapshotListing(snapshotRoot);
    }
    var pc = ns.checker();
    return ns.run(() -> new io.hops.namenode.ops.snapshot.GetSnapshotListing(ns, pc, snapshotRoot));
  }
}
