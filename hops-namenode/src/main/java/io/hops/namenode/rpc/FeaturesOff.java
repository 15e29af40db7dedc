package io.hops.namenode.rpc;

import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.EnumSet;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.CacheFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
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
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReport;
import org.apache.hadoop.hdfs.protocol.SnapshotDiffReportListing;
import org.apache.hadoop.hdfs.protocol.SnapshotStatus;
import org.apache.hadoop.hdfs.protocol.SnapshottableDirectoryStatus;
import org.apache.hadoop.hdfs.protocol.ZoneReencryptionStatus;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;

/**
 * The {@code ClientProtocol} calls of HDFS features hops does not have, answered as an HDFS 3.5.0
 * namenode answers where the feature is off or empty, so that clients take their normal path. Each
 * feature is its own class:
 *
 * <ul>
 *   <li>{@link EncryptionZonesOff}: no key provider, so no zone anywhere and none can be made;
 *   <li>{@link ErasureCodingOff}: the built-in policies all disabled, every file replicated;
 *   <li>{@link SnapshotsOff}: no directory is snapshottable, and none can be made so;
 *   <li>{@link CacheManagementOff}: no pools and no directives, and none can be added;
 *   <li>{@link EditLogOff}: the database is the namespace, so there is nothing to roll, save,
 *       finalize or tail;
 *   <li>symlinks, here: off, as in HDFS 3.
 * </ul>
 *
 * Paths are still resolved and checked first, so a missing path or a denied access is reported as
 * HDFS reports it. docs/architecture.md lists these answers.
 */
@SuppressWarnings("deprecation")
public abstract class FeaturesOff extends UnsupportedClientProtocol {
  private final EncryptionZonesOff encryption;
  private final ErasureCodingOff erasureCoding;
  private final SnapshotsOff snapshots;
  private final CacheManagementOff cache;
  private final EditLogOff editLog;

  /**
   * @param runner runs the path checks
   * @param checkers the caller's permission checker for those checks and the operators' calls
   * @param blockTokens the data encryption key's source
   * @param conf the configuration, for the erasure coding policy a site sets
   */
  protected FeaturesOff(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockTokens blockTokens,
      Configuration conf) {
    this.encryption = new EncryptionZonesOff(runner, checkers, blockTokens);
    this.erasureCoding = new ErasureCodingOff(runner, checkers, conf);
    this.snapshots = new SnapshotsOff(runner, checkers);
    this.cache = new CacheManagementOff(runner, checkers);
    this.editLog = new EditLogOff(runner, checkers);
  }

  // ---- encryption zones ----

  @Override
  public EncryptionZone getEZForPath(String src) throws IOException {
    return encryption.getEZForPath(src);
  }

  @Override
  public Path getEnclosingRoot(String src) throws IOException {
    return encryption.getEnclosingRoot(src);
  }

  @Override
  public BatchedEntries<EncryptionZone> listEncryptionZones(long prevId) throws IOException {
    return encryption.listEncryptionZones(prevId);
  }

  @Override
  public void createEncryptionZone(String src, String keyName) throws IOException {
    encryption.createEncryptionZone(src, keyName);
  }

  @Override
  public void reencryptEncryptionZone(String zone, HdfsConstants.ReencryptAction action)
      throws IOException {
    encryption.reencryptEncryptionZone(zone, action);
  }

  @Override
  public BatchedEntries<ZoneReencryptionStatus> listReencryptionStatus(long prevId)
      throws IOException {
    return encryption.listReencryptionStatus(prevId);
  }

  @Override
  public DataEncryptionKey getDataEncryptionKey() throws IOException {
    return encryption.getDataEncryptionKey();
  }

  // ---- erasure coding ----

  @Override
  public ErasureCodingPolicyInfo[] getErasureCodingPolicies() {
    return erasureCoding.getErasureCodingPolicies();
  }

  @Override
  public Map<String, String> getErasureCodingCodecs() {
    return erasureCoding.getErasureCodingCodecs();
  }

  @Override
  public ErasureCodingPolicy getErasureCodingPolicy(String src) throws IOException {
    return erasureCoding.getErasureCodingPolicy(src);
  }

  @Override
  public void setErasureCodingPolicy(String src, String ecPolicyName) throws IOException {
    erasureCoding.setErasureCodingPolicy(src, ecPolicyName);
  }

  @Override
  public void unsetErasureCodingPolicy(String src) throws IOException {
    erasureCoding.unsetErasureCodingPolicy(src);
  }

  @Override
  public AddErasureCodingPolicyResponse[] addErasureCodingPolicies(ErasureCodingPolicy[] policies)
      throws IOException {
    return erasureCoding.addErasureCodingPolicies(policies);
  }

  @Override
  public void removeErasureCodingPolicy(String ecPolicyName) throws IOException {
    erasureCoding.removeErasureCodingPolicy(ecPolicyName);
  }

  @Override
  public void enableErasureCodingPolicy(String ecPolicyName) throws IOException {
    erasureCoding.enableErasureCodingPolicy(ecPolicyName);
  }

  @Override
  public void disableErasureCodingPolicy(String ecPolicyName) throws IOException {
    erasureCoding.disableErasureCodingPolicy(ecPolicyName);
  }

  @Override
  public ECTopologyVerifierResult getECTopologyResultForPolicies(String[] policyNames)
      throws IOException {
    return erasureCoding.getECTopologyResultForPolicies(
        policyNames, () -> getDatanodeReport(HdfsConstants.DatanodeReportType.LIVE).length);
  }

  // ---- snapshots ----

  @Override
  public SnapshottableDirectoryStatus[] getSnapshottableDirListing() throws IOException {
    return snapshots.getSnapshottableDirListing();
  }

  @Override
  public void allowSnapshot(String snapshotRoot) throws IOException {
    snapshots.allowSnapshot(snapshotRoot);
  }

  @Override
  public void disallowSnapshot(String snapshotRoot) throws IOException {
    snapshots.disallowSnapshot(snapshotRoot);
  }

  @Override
  public String createSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    return snapshots.notSnapshottableDirectory("createSnapshot", snapshotRoot);
  }

  @Override
  public void deleteSnapshot(String snapshotRoot, String snapshotName) throws IOException {
    snapshots.notSnapshottableDirectory("deleteSnapshot", snapshotRoot);
  }

  @Override
  public void renameSnapshot(String snapshotRoot, String oldName, String newName)
      throws IOException {
    snapshots.notSnapshottableDirectory("renameSnapshot", snapshotRoot);
  }

  @Override
  public SnapshotStatus[] getSnapshotListing(String snapshotRoot) throws IOException {
    return snapshots.getSnapshotListing(snapshotRoot);
  }

  @Override
  public SnapshotDiffReport getSnapshotDiffReport(String snapshotRoot, String from, String to)
      throws IOException {
    return snapshots.getSnapshotDiffReport(snapshotRoot);
  }

  @Override
  public SnapshotDiffReportListing getSnapshotDiffReportListing(
      String snapshotRoot, String from, String to, byte[] startPath, int index) throws IOException {
    return snapshots.getSnapshotDiffReportListing(snapshotRoot);
  }

  // ---- centralized cache management ----

  @Override
  public BatchedEntries<CacheDirectiveEntry> listCacheDirectives(
      long prevId, CacheDirectiveInfo filter) {
    return cache.listCacheDirectives();
  }

  @Override
  public BatchedEntries<CachePoolEntry> listCachePools(String prevKey) {
    return cache.listCachePools();
  }

  @Override
  public void addCachePool(CachePoolInfo info) throws IOException {
    cache.addCachePool(info);
  }

  @Override
  public void modifyCachePool(CachePoolInfo info) throws IOException {
    cache.modifyCachePool(info);
  }

  @Override
  public void removeCachePool(String cachePoolName) throws IOException {
    cache.removeCachePool(cachePoolName);
  }

  @Override
  public long addCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags)
      throws IOException {
    return cache.addCacheDirective(directive);
  }

  @Override
  public void modifyCacheDirective(CacheDirectiveInfo directive, EnumSet<CacheFlag> flags)
      throws IOException {
    throw CacheManagementOff.noDirective(directive.getId());
  }

  @Override
  public void removeCacheDirective(long id) throws IOException {
    throw CacheManagementOff.noDirective(id);
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

  // ---- edit log, fsimage and upgrades ----

  @Override
  public long rollEdits() throws IOException {
    return editLog.rollEdits();
  }

  @Override
  public long getCurrentEditLogTxid() throws IOException {
    return editLog.getCurrentEditLogTxid();
  }

  @Override
  public EventBatchList getEditsFromTxid(long txid) throws IOException {
    return editLog.getEditsFromTxid();
  }

  @Override
  public boolean saveNamespace(long timeWindow, long txGap) throws IOException {
    return editLog.saveNamespace(
        () -> setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_GET, false));
  }

  @Override
  public void finalizeUpgrade() throws IOException {
    editLog.finalizeUpgrade();
  }

  @Override
  public boolean upgradeStatus() {
    return true;
  }

  @Override
  public boolean restoreFailedStorage(String arg) throws IOException {
    return editLog.restoreFailedStorage(arg);
  }
}
