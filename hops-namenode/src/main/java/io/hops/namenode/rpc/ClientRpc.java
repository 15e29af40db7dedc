package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.Complete;
import io.hops.namenode.ops.ContentSummaryOp;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.Delete;
import io.hops.namenode.ops.GetBlockLocations;
import io.hops.namenode.ops.GetFileInfo;
import io.hops.namenode.ops.GetListing;
import io.hops.namenode.ops.GetPreferredBlockSize;
import io.hops.namenode.ops.GetStats;
import io.hops.namenode.ops.IsFileClosed;
import io.hops.namenode.ops.Mkdirs;
import io.hops.namenode.ops.RecoverLease;
import io.hops.namenode.ops.Rename;
import io.hops.namenode.ops.RenewLease;
import io.hops.namenode.ops.SetOwner;
import io.hops.namenode.ops.SetPermission;
import io.hops.namenode.ops.SetReplication;
import io.hops.namenode.ops.SetTimes;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.util.DataChecksum;

/**
 * The {@code ClientProtocol} methods hops implements, each one an operation run as a transaction.
 * Everything else is refused by {@link UnsupportedClientProtocol}, naming the method.
 */
public class ClientRpc extends UnsupportedClientProtocol {
  private final Namesystem ns;

  public ClientRpc(Namesystem ns) {
    this.ns = ns;
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

  // ---- files: create, complete, leases, block locations (helper "files" adds below) ----

  private volatile LeaseManager leaseManager;

  /** The lease manager, made on first use (it only reads settings; racing makers are harmless). */
  private LeaseManager leases() {
    LeaseManager m = leaseManager;
    if (m == null) {
      m = new LeaseManager(ns);
      leaseManager = m;
    }
    return m;
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
    return ns.run(
            () ->
                new Create(
                    ns,
                    pc,
                    leases,
                    src,
                    masked,
                    clientName,
                    flags,
                    createParent,
                    replication,
                    blockSize,
                    ecPolicyName,
                    storagePolicy))
        .get();
  }

  @Override
  public boolean complete(String src, String clientName, ExtendedBlock last, long fileId)
      throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new Complete(pc, src, clientName, last, fileId));
  }

  @Override
  public LocatedBlocks getBlockLocations(String src, long offset, long length) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetBlockLocations(pc, src, offset, length));
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
    ns.run(() -> new RenewLease(clientName));
  }

  @Override
  public boolean recoverLease(String src, String clientName) throws IOException {
    var pc = ns.checker();
    var leases = leases();
    return ns.run(() -> new RecoverLease(pc, leases, src, clientName));
  }

  /**
   * What HDFS's FSNamesystem reports from its settings, except that hops has no data encryption, no
   * key provider and no snapshots. The default storage policy is HOT, as in HDFS.
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
        false,
        conf.getLong(
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_KEY,
            CommonConfigurationKeysPublic.FS_TRASH_INTERVAL_DEFAULT),
        checksumType,
        "",
        HdfsConstants.HOT_STORAGE_POLICY_ID,
        false);
  }

  // ---- tree: delete, rename, content summary (helper "tree" adds below) ----

  @Override
  public boolean delete(String src, boolean recursive) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new Delete(ns, pc, src, recursive));
  }

  @Override
  public boolean rename(String src, String dst) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> Rename.oldApi(ns, pc, src, dst));
  }

  @Override
  public void rename2(String src, String dst, Options.Rename... options) throws IOException {
    var pc = ns.checker();
    ns.run(() -> Rename.withOptions(ns, pc, src, dst, options));
  }

  @Override
  public ContentSummary getContentSummary(String path) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new ContentSummaryOp(ns, pc, path));
  }

  // ---- attributes and listing (helper "attrs" adds below) ----

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
    // The names get their ids in short transactions of their own, so setOwner reads only the path.
    int userId = username == null ? -1 : ns.users().userId(username);
    int groupId = groupname == null ? -1 : ns.users().groupId(groupname);
    ns.run(() -> new SetOwner(pc, src, username, userId, groupname, groupId));
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

  @Override
  public long[] getStats() {
    return GetStats.stats();
  }
}
