package io.hops.namenode.rpc;

import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ECBlockGroupStats;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator;
import org.apache.hadoop.hdfs.protocol.ReplicatedBlockStats;
import org.apache.hadoop.hdfs.protocol.RollingUpgradeInfo;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorageReport;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;

/**
 * The {@code ClientProtocol} calls about the service rather than the namespace, the layer of {@link
 * ClientRpc} below its file system calls: server defaults and HA state, operators' calls (dfsadmin,
 * datanode reports, safe mode), open and corrupt files, and delegation tokens, each handed to the
 * class of its area.
 */
public abstract class ClientServiceRpc extends ClientSnapshotRpc {
  private final BlockTokens blockTokens;
  private final Configuration conf;
  private final ClientAdmin admin;
  private final ClientFileReports fileReports;
  private final ClientDelegationTokens delegationTokens;

  protected ClientServiceRpc(
      ClientProtocolAreas areas,
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockTokens blockTokens,
      Configuration conf) {
    super(areas.snapshots(), runner, checkers, blockTokens, conf);
    this.blockTokens = blockTokens;
    this.conf = conf;
    this.admin = areas.admin();
    this.fileReports = areas.fileReports();
    this.delegationTokens = areas.delegationTokens();
  }

  /** The cluster's safe mode as this namenode sees it; the RPC server gates writes with it. */
  public SafeMode safeMode() {
    return admin.safeMode();
  }

  @Override
  public void msync() {
    // Every namenode reads the database directly: there is nothing to catch up on.
  }

  @Override
  public HAServiceProtocol.HAServiceState getHAServiceState() {
    return HAServiceProtocol.HAServiceState.ACTIVE;
  }

  @Override
  public FsServerDefaults getServerDefaults() throws IOException {
    return ServerDefaults.of(conf, blockTokens.encryptsDataTransfer());
  }

  // ---- operators: dfsadmin, datanode reports, safe mode ----

  @Override
  public boolean setSafeMode(HdfsConstants.SafeModeAction action, boolean isChecked)
      throws IOException {
    return admin.setSafeMode(action, isChecked);
  }

  @Override
  public long[] getStats() throws IOException {
    return admin.getStats();
  }

  @Override
  public ReplicatedBlockStats getReplicatedBlockStats() throws IOException {
    return admin.getReplicatedBlockStats();
  }

  @Override
  public ECBlockGroupStats getECBlockGroupStats() {
    return admin.getECBlockGroupStats();
  }

  @Override
  public DatanodeInfo[] getDatanodeReport(HdfsConstants.DatanodeReportType type)
      throws IOException {
    return admin.getDatanodeReport(type);
  }

  @Override
  public DatanodeStorageReport[] getDatanodeStorageReport(HdfsConstants.DatanodeReportType type)
      throws IOException {
    return admin.getDatanodeStorageReport(type);
  }

  @Override
  public DatanodeInfo[] getSlowDatanodeReport() {
    return admin.getSlowDatanodeReport();
  }

  @Override
  public void refreshNodes() throws IOException {
    admin.refreshNodes();
  }

  @Override
  public void setBalancerBandwidth(long bandwidth) throws IOException {
    admin.setBalancerBandwidth(bandwidth);
  }

  @Override
  public void metaSave(String filename) throws IOException {
    admin.metaSave(filename);
  }

  @Override
  public RollingUpgradeInfo rollingUpgrade(HdfsConstants.RollingUpgradeAction action)
      throws IOException {
    return admin.rollingUpgrade(action);
  }

  // ---- open files and corrupt files ----

  @Override
  public BatchedEntries<OpenFileEntry> listOpenFiles(long prevId) throws IOException {
    return fileReports.listOpenFiles(
        prevId,
        EnumSet.of(OpenFilesIterator.OpenFilesType.ALL_OPEN_FILES),
        OpenFilesIterator.FILTER_PATH_DEFAULT);
  }

  @Override
  public BatchedEntries<OpenFileEntry> listOpenFiles(
      long prevId, EnumSet<OpenFilesIterator.OpenFilesType> types, String path) throws IOException {
    return fileReports.listOpenFiles(prevId, types, path);
  }

  @Override
  public CorruptFileBlocks listCorruptFileBlocks(String path, String cookie) throws IOException {
    return fileReports.listCorruptFileBlocks(path, cookie);
  }

  // ---- delegation tokens ----

  @Override
  public Token<DelegationTokenIdentifier> getDelegationToken(Text renewer) throws IOException {
    return delegationTokens.getDelegationToken(renewer);
  }

  @Override
  public long renewDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    return delegationTokens.renewDelegationToken(token);
  }

  @Override
  public void cancelDelegationToken(Token<DelegationTokenIdentifier> token) throws IOException {
    delegationTokens.cancelDelegationToken(token);
  }
}
