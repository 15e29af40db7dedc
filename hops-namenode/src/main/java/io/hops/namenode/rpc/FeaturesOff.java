package io.hops.namenode.rpc;

import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.CheckPath;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.AddErasureCodingPolicyResponse;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveEntry;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolEntry;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ECTopologyVerifierResult;
import org.apache.hadoop.hdfs.protocol.EncryptionZone;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.NoECPolicySetException;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotException;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;
import org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.server.common.ECTopologyVerifier;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;
import org.apache.hadoop.io.erasurecode.CodecRegistry;

/**
 * The {@code ClientProtocol} calls of HDFS features hops does not have, answered as an HDFS 3.5.0
 * namenode answers where the feature is off or empty, so that clients take their normal path:
 *
 * <ul>
 *   <li>encryption zones: no key provider, so no zone anywhere and none can be made;
 *   <li>erasure coding: the built-in policies all disabled ({@code
 *       dfs.namenode.ec.system.default.policy} empty), every file replicated, no policy can be
 *       enabled or added;
 *   <li>snapshots: no directory is snapshottable, and none can be made so;
 *   <li>centralized cache: no pools and no directives, and none can be added;
 *   <li>edit log, fsimage and upgrades: the database is the namespace, so there is nothing to roll,
 *       save, finalize or tail.
 * </ul>
 *
 * Paths are still resolved and checked first, so a missing path or a denied access is reported as
 * HDFS reports it. docs/architecture.md lists these answers.
 */
@SuppressWarnings("deprecation")
public abstract class FeaturesOff extends UnsupportedClientProtocol {
  private final Namesystem ns;

  protected FeaturesOff(Namesystem ns) {
    this.ns = ns;
  }

  private <T> T checkPath(String name, String path, FsAction access, CheckPath.Answer<T> answer)
      throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new CheckPath<>(pc, name, path, access, false, answer));
  }

  private <T> T checkOwner(String name, String path, CheckPath.Answer<T> answer)
      throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new CheckPath<>(pc, name, path, FsAction.NONE, true, answer));
  }

  private void superuser(String operation) throws IOException {
    NamenodeRpc.checkSuperuser(ns, operation);
  }

  private static <E> BatchedEntries<E> none() {
    return new BatchedListEntries<>(List.of(), false);
  }

  // ---- encryption zones: no key provider ----

  @Override
  public EncryptionZone getEZForPath(String src) throws IOException {
    return checkPath("getEZForPath", src, FsAction.READ, p -> null);
  }

  /** The root, as for every path outside an encryption zone (HDFS's answer without a mount). */
  @Override
  public org.apache.hadoop.fs.Path getEnclosingRoot(String src) throws IOException {
    getEZForPath(src);
    return new org.apache.hadoop.fs.Path("/");
  }

  @Override
  public BatchedEntries<EncryptionZone> listEncryptionZones(long prevId) throws IOException {
    superuser("listEncryptionZones");
    return none();
  }

  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    superuser("createEncryptionZone");
    throw new IOException(
        "Can't create an encryption zone for " + src + " since no key provider is available.");
  }

  @Override
  public void reencryptEncryptionZone(String zone, HdfsConstants.ReencryptAction action)
      throws IOException {
    superuser("reencryptEncryptionZone");
    throw new IOException("No key provider configured, re-encryption operation is rejected");
  }

  @Override
  public BatchedEntries<ZoneReencryptionStatus> listReencryptionStatus(long prevId)
      throws IOException {
    superuser("listReencryptionStatus");
    return none();
  }

  /**
   * Null, as HDFS answers, unless {@code dfs.encrypt.data.transfer} and block tokens are on: then a
   * key from the block keys in the database ({@link io.hops.namenode.security.BlockTokens}).
   */
  @Override
  public DataEncryptionKey getDataEncryptionKey() throws IOException {
    return ns.blockTokens().dataEncryptionKey();
  }

  // ---- erasure coding: every built-in policy disabled ----

  @Override
  public ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    List<ErasureCodingPolicyInfo> out = new ArrayList<>();
    for (ErasureCodingPolicy p : SystemErasureCodingPolicies.getPolicies()) {
      out.add(new ErasureCodingPolicyInfo(p));
    }
    // In name order, as HDFS's policy manager keeps them.
    out.sort(java.util.Comparator.comparing(i -> i.getPolicy().getName()));
    return out.toArray(new ErasureCodingPolicyInfo[0]);
  }

  @Override
  public Map<String, String> getErasureCodingCodecs() {
    return CodecRegistry.getInstance().getCodec2CoderCompactMap();
  }

  @Override
  public ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    if (src.equals("/.reserved")) {
      return null;
    }
    return checkPath(
        "getErasureCodingPolicy",
        src,
        FsAction.READ,
        p -> {
          if (!p.exists()) {
            throw new FileNotFoundException("Path not found: " + src);
          }
          return null;
        });
  }

  /**
   * {@value DFSConfigKeys#DFS_NAMENODE_EC_SYSTEM_DEFAULT_POLICY} when a site file or the caller
   * sets it, else empty (hops has no erasure coding): the {@code RS-6-3-1024k} of Hadoop's {@code
   * hdfs-default.xml}, which a configuration that loads the defaults holds, counts as not set.
   */
  private String systemDefaultPolicy() {
    String key = DFSConfigKeys.DFS_NAMENODE_EC_SYSTEM_DEFAULT_POLICY;
    return NamenodeConfig.isDefault(ns.conf(), key) ? "" : ns.conf().getTrimmed(key, "");
  }

  @Override
  public void setErasureCodingPolicy(String src, String ecPolicyName) throws IOException {
    String name = ecPolicyName != null ? ecPolicyName : systemDefaultPolicy();
    boolean replication =
        name.equalsIgnoreCase(SystemErasureCodingPolicies.getReplicationPolicy().getName());
    if (!replication) {
      throw new HadoopIllegalArgumentException(
          "Policy '"
              + name
              + "' does not match any enabled erasure coding policies: []. An erasure coding"
              + " policy can be enabled by enableErasureCodingPolicy API.");
    }
    // Replication is what every hops file has: setting it changes nothing.
    checkPath(
        "setErasureCodingPolicy",
        src,
        FsAction.WRITE,
        p -> {
          if (!p.exists()) {
            throw new FileNotFoundException("Path not found: " + src);
          }
          if (!p.target().isDir()) {
            throw new IOException("Attempt to set an erasure coding policy for a file " + src);
          }
          return null;
        });
  }

  @Override
  public void unsetErasureCodingPolicy(String src) throws IOException {
    checkPath(
        "unsetErasureCodingPolicy",
        src,
        FsAction.WRITE,
        p -> {
          if (!p.exists()) {
            throw new FileNotFoundException("Path not found: " + src);
          }
          if (!p.target().isDir()) {
            throw new IOException("Cannot unset an erasure coding policy on a file " + src);
          }
          throw new NoECPolicySetException("No erasure coding policy explicitly set on " + src);
        });
  }

  private static ErasureCodingPolicy builtIn(String name) {
    ErasureCodingPolicy p = SystemErasureCodingPolicies.getByName(name);
    if (p == null) {
      throw new HadoopIllegalArgumentException("The policy name " + name + " does not exist");
    }
    return p;
  }

  /** HDFS's answer where user-defined policies are off (dfs.namenode.ec.userpolicies.allowed). */
  @Override
  public AddErasureCodingPolicyResponse[] addErasureCodingPolicies(ErasureCodingPolicy[] policies)
      throws IOException {
    superuser("addErasureCodingPolicies");
    List<AddErasureCodingPolicyResponse> out = new ArrayList<>();
    for (ErasureCodingPolicy p : policies) {
      out.add(
          new AddErasureCodingPolicyResponse(
              p,
              new HadoopIllegalArgumentException(
                  "Addition of user defined erasure coding policy is disabled.")));
    }
    return out.toArray(new AddErasureCodingPolicyResponse[0]);
  }

  @Override
  public void removeErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("removeErasureCodingPolicy");
    builtIn(ecPolicyName);
    throw new HadoopIllegalArgumentException(
        "System erasure coding policy " + ecPolicyName + " cannot be removed");
  }

  /** An unknown name fails as in HDFS; a built-in one cannot be enabled: hops only replicates. */
  @Override
  public void enableErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("enableErasureCodingPolicy");
    builtIn(ecPolicyName);
    throw new UnsupportedActionException(
        "enableErasureCodingPolicy not supported: hops stores every file replicated, so no"
            + " erasure coding policy can be enabled");
  }

  /** Every policy is disabled already: HDFS then does nothing. */
  @Override
  public void disableErasureCodingPolicy(String ecPolicyName) throws IOException {
    superuser("disableErasureCodingPolicy");
    builtIn(ecPolicyName);
  }

  /** The verdict for no enabled policy, whatever the datanodes. */
  @Override
  public ECTopologyVerifierResult getECTopologyResultForPolicies(String[] policyNames)
      throws IOException {
    superuser("getECTopologyResultForPolicies");
    List<ErasureCodingPolicy> policies = new ArrayList<>();
    if (policyNames != null) {
      for (String name : policyNames) {
        ErasureCodingPolicy p = SystemErasureCodingPolicies.getByName(name);
        if (p == null) {
          throw new HadoopIllegalArgumentException(
              "The given erasure coding policy " + name + " does not exist.");
        }
        policies.add(p);
      }
    }
    int live = getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE).length;
    return ECTopologyVerifier.getECTopologyVerifierResult(live == 0 ? 0 : 1, live, policies);
  }

  // ---- snapshots: no directory is snapshottable ----

  private static SnapshotException notSnapshottable(String path) {
    return new SnapshotException(
        "Directory is not a snapshottable directory: " + path + " (hops has no snapshots)");
  }

  @Override
  public SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    return null;
  }

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    superuser("allowSnapshot");
    checkPath(
        "allowSnapshot",
        snapshotRoot,
        FsAction.NONE,
        p -> {
          CheckPath.directory(p);
          throw new SnapshotException(
              "hops has no snapshots: " + snapshotRoot + " cannot be made snapshottable");
        });
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    superuser("disallowSnapshot");
    checkPath("disallowSnapshot", snapshotRoot, FsAction.NONE, CheckPath::directory);
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    return checkOwner(
        "createSnapshot",
        snapshotRoot,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    checkOwner(
        "deleteSnapshot",
        snapshotRoot,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String oldName, String newName)
      throws IOException {
    checkOwner(
        "renameSnapshot",
        snapshotRoot,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  @Override
  public SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    return checkPath(
        "getSnapshotListing",
        snapshotRoot,
        FsAction.READ,
        p -> {
          CheckPath.directory(p);
          throw notSnapshottable(snapshotRoot);
        });
  }

  private <T> T noSnapshotRoot(String name, String path) throws IOException {
    return checkPath(
        name,
        path,
        FsAction.NONE,
        p -> {
          throw new SnapshotException(
              "The path "
                  + path
                  + " is neither snapshottable nor under a snapshot root! (hops has no snapshots)");
        });
  }

  @Override
  public SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String from, String to)
      throws IOException {
    return noSnapshotRoot("getSnapshotDiffReport", snapshotRoot);
  }

  @Override
  public SnapshotDiffReportListing getSnapshotDiffReportListing(
      String snapshotRoot, String from, String to, byte[] startPath, int index) throws IOException {
    return noSnapshotRoot("getSnapshotDiffReportListing", snapshotRoot);
  }

  // ---- centralized cache management: no pools ----

  @Override
  public BatchedEntries<CacheDirectiveEntry> listCacheDirectives(
      long prevId, CacheDirectiveInfo filter) {
    return none();
  }

  @Override
  public BatchedEntries<CachePoolEntry> listCachePools(String prevKey) {
    return none();
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    superuser("addCachePool");
    throw new UnsupportedActionException(
        "addCachePool: hops has no centralized cache management, so cache pool "
            + info.getPoolName()
            + " cannot be added");
  }

  @Override
  public void modifyCachePool(CachePoolInfo info) throws IOException {
    superuser("modifyCachePool");
    throw new org.apache.hadoop.fs.InvalidRequestException(
        "Cache pool " + info.getPoolName() + " does not exist.");
  }

  @Override
  public void removeCachePool(String cachePoolName) throws IOException {
    superuser("removeCachePool");
    throw new org.apache.hadoop.fs.InvalidRequestException(
        "Cannot remove non-existent cache pool " + cachePoolName);
  }

  @Override
  public long addCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags)
      throws IOException {
    if (directive.getPool() == null) {
      throw new org.apache.hadoop.fs.InvalidRequestException("No pool specified.");
    }
    throw new org.apache.hadoop.fs.InvalidRequestException("Unknown pool " + directive.getPool());
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags)
      throws IOException {
    throw noDirective(directive.getId());
  }

  @Override
  public void removeCacheDirective(long id) throws IOException {
    throw noDirective(id);
  }

  private static IOException noDirective(Long id) {
    if (id == null) {
      return new org.apache.hadoop.fs.InvalidRequestException("Must supply an ID.");
    }
    if (id < 0) {
      return new org.apache.hadoop.fs.InvalidRequestException("Invalid negative ID.");
    }
    return new org.apache.hadoop.fs.InvalidRequestException(
        "No directive with ID " + id + " found.");
  }

  // ---- symlinks: off, as in HDFS 3 (FileSystem.areSymlinksEnabled() is false) ----

  @Override
  public void createSymlink(
      String target, String link, FsPermission dirPerms, boolean createParent) {
    throw new UnsupportedOperationException("Symlinks not supported");
  }

  /** Nothing is a link: a missing path or a plain one, with HDFS's messages. */
  @Override
  public String getLinkTarget(String path) throws IOException {
    boolean exists = getFileLinkInfo(path) != null;
    if (!exists) {
      throw new FileNotFoundException("File does not exist: " + path);
    }
    throw new IOException("Path " + path + " is not a symbolic link");
  }

  // ---- edit log, fsimage and upgrades: the database is the namespace ----

  private static UnsupportedActionException noEditLog(String operation) {
    return new UnsupportedActionException(
        operation
            + " not supported: hops has no edit log, every change is committed to the metadata"
            + " database");
  }

  @Override
  public long rollEdits() throws IOException {
    superuser("rollEditLog");
    throw noEditLog("rollEdits");
  }

  @Override
  public long getCurrentEditLogTxid() throws IOException {
    superuser("getCurrentEditLogTxid");
    throw noEditLog("getCurrentEditLogTxid (inotify)");
  }

  @Override
  public org.apache.hadoop.hdfs.inotify.EventBatchList getEditsFromTxid(long txid)
      throws IOException {
    superuser("getEditsFromTxid");
    throw noEditLog("getEditsFromTxid (inotify)");
  }

  /** HDFS's refusal outside safe mode; in it, no image is written ("no extra checkpoint"). */
  @Override
  public boolean saveNamespace(long timeWindow, long txGap) throws IOException {
    superuser("saveNamespace");
    if (!setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_GET, false)) {
      throw new IOException("Safe mode should be turned ON in order to create namespace image.");
    }
    return false;
  }

  /** Schema upgrades finish as a namenode starts: nothing is ever left to finalize. */
  @Override
  public void finalizeUpgrade() throws IOException {
    superuser("finalizeUpgrade");
  }

  @Override
  public boolean upgradeStatus() {
    return true;
  }

  /** hops has no name directories to restore: the answer is always false. */
  @Override
  public boolean restoreFailedStorage(String arg) throws IOException {
    superuser(
        switch (arg) {
          case "check" -> "checkRestoreFailedStorage";
          case "true" -> "enableRestoreFailedStorage";
          default -> "disableRestoreFailedStorage";
        });
    return false;
  }
}
