package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeRow;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.HopsHostLists;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.net.NetUtils;

/**
 * The include list's hosts that no registered datanode matches, which HDFS's {@code
 * getDatanodeListForReport} lists as dead datanodes it never heard from: no uuid, the entry's
 * address and host name, the entry's port or {@code dfs.datanode.address}'s, the other ports from
 * {@code dfs.datanode.http.address}, {@code ...https.address} and {@code ...ipc.address}, last
 * contact never, DECOMMISSIONED if the exclude list names it. Every namenode lists the same: the
 * lists are the stored ones, and an entry no datanode this namenode knows matches is checked
 * against the {@code datanodes} table (one scan, only then) before it is listed.
 */
public final class UnregisteredIncludes {
  private final Storage storage;
  private final int xferPort;
  private final int infoPort;
  private final int infoSecurePort;
  private final int ipcPort;

  UnregisteredIncludes(Storage storage, Configuration conf) {
    this.storage = storage;
    this.xferPort =
        port(
            conf,
            DFSConfigKeys.DFS_DATANODE_ADDRESS_KEY,
            DFSConfigKeys.DFS_DATANODE_ADDRESS_DEFAULT);
    this.infoPort =
        port(
            conf,
            DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_KEY,
            DFSConfigKeys.DFS_DATANODE_HTTP_ADDRESS_DEFAULT);
    this.infoSecurePort =
        port(
            conf,
            DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_KEY,
            DFSConfigKeys.DFS_DATANODE_HTTPS_ADDRESS_DEFAULT);
    this.ipcPort =
        port(
            conf,
            DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_KEY,
            DFSConfigKeys.DFS_DATANODE_IPC_ADDRESS_DEFAULT);
  }

  private static int port(Configuration conf, String key, String defaultAddress) {
    return NetUtils.createSocketAddr(conf.getTrimmed(key, defaultAddress)).getPort();
  }

  /** The dead entries for the include list's hosts that no registered datanode matches. */
  public List<DatanodeInfo> list(DatanodeManager dm) throws StorageException {
    HostConfigManager lists = dm.admin().lists();
    if (!lists.getIncludes().iterator().hasNext()) {
      return List.of();
    }
    List<InetSocketAddress> found = new ArrayList<>();
    for (DatanodeState n : dm.all()) {
      found.add(n.id().getResolvedAddress());
    }
    List<InetSocketAddress> unmatched = HopsHostLists.unmatchedIncludes(lists, found);
    if (unmatched.isEmpty()) {
      return List.of();
    }
    // Registered with another namenode, never heard from here: the database knows it.
    try (Transaction tx = storage.begin()) {
      for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.READ_COMMITTED)) {
        found.add(DatanodeRegistrations.toId(row).getResolvedAddress());
      }
    }
    List<DatanodeInfo> out = new ArrayList<>();
    for (InetSocketAddress a : HopsHostLists.unmatchedIncludes(lists, found)) {
      DatanodeID id =
          new DatanodeID(
              a.getAddress().getHostAddress(),
              a.getHostName(),
              "",
              a.getPort() == 0 ? xferPort : a.getPort(),
              infoPort,
              infoSecurePort,
              ipcPort);
      DatanodeInfo.DatanodeInfoBuilder b =
          new DatanodeInfo.DatanodeInfoBuilder().setNodeID(id).setLastUpdate(0);
      if (lists.isExcluded(id)) {
        b.setAdminState(AdminStates.DECOMMISSIONED);
      }
      out.add(b.build());
    }
    return out;
  }
}
