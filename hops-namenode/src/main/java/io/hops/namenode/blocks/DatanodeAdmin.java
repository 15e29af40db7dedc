package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeHostRow;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.VariableRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.HopsHostLists;
import org.apache.hadoop.hdfs.server.blockmanagement.HostFileManager;
import org.apache.hadoop.util.HostsFileReader;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The datanodes' admin states (decommission) and the hosts lists they come from, in the database so
 * that every namenode agrees: {@code dfsadmin -refreshNodes}, sent to any namenode, reads that
 * namenode's {@code dfs.hosts} and {@code dfs.hosts.exclude} files (HDFS's {@code HostFileManager}
 * format), stores their entries ({@code datanode_hosts}) and the admin state each datanode gets
 * from them ({@code datanodes.admin_state}, HDFS's {@code refreshDatanodes}), and counts up the
 * generation in the {@code variables} row {@value #GENERATION_ROW}; the leader's admin monitor
 * writes the states it reaches the same way. What a namenode holds of both is a hint, read again
 * when the generation moved: at most once a second at heartbeats, and at once where exactness
 * matters (a registration, the leader's monitor).
 *
 * <p>Every transaction here locks the {@code datanodes} rows before the generation row, as a
 * registration does.
 */
public final class DatanodeAdmin {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeAdmin.class);

  /** Counts every change of the hosts lists or of an admin state. */
  static final String GENERATION_ROW = "datanode_admin";

  private static final long REFRESH_MILLIS = 1000;

  private final Storage storage;
  private final Map<String, DatanodeManager.Node> nodes;
  private volatile HostFileManager lists = HopsHostLists.of(List.of(), List.of());
  private volatile long generation = -1;
  private volatile long readAt;

  DatanodeAdmin(Storage storage, Map<String, DatanodeManager.Node> nodes) {
    this.storage = storage;
    this.nodes = nodes;
  }

  /** The admin state stored in a row (the ordinal of Hadoop's {@link AdminStates}). */
  static AdminStates stateOf(DatanodeRow row) {
    int i = row.adminState();
    AdminStates[] all = AdminStates.values();
    return i >= 0 && i < all.length ? all[i] : AdminStates.NORMAL;
  }

  /** Whether the datanode may talk to the namenodes: in the include list, or there is none. */
  public boolean isIncluded(DatanodeID id) {
    return lists.isIncluded(id);
  }

  /** Whether the datanode is in the exclude list (to be decommissioned). */
  public boolean isExcluded(DatanodeID id) {
    return lists.isExcluded(id);
  }

  /**
   * Reads the lists and states again if another namenode (or this one) changed them: {@code now},
   * or when this namenode last looked over a second ago. A store that cannot be read leaves the
   * hints as they were (logged), unless {@code now}.
   */
  public void refresh(boolean now) throws StorageException {
    long t = Time.monotonicNow();
    if (!now && t - readAt < REFRESH_MILLIS) {
      return;
    }
    try (Transaction tx = storage.begin()) {
      long g = generationOf(tx, LockMode.READ_COMMITTED);
      if (g != generation) {
        load(tx);
        generation = g;
      }
      tx.commit();
      readAt = t;
    } catch (StorageException e) {
      if (now) {
        throw e;
      }
      LOG.warn("cannot read the datanodes' admin states now: {}", e.toString());
    }
  }

  private void load(Transaction tx) throws StorageException {
    List<String> include = new ArrayList<>();
    List<String> exclude = new ArrayList<>();
    for (DatanodeHostRow h : tx.scanAll(DatanodeHostRow.TABLE, LockMode.READ_COMMITTED)) {
      (h.hostsList() == DatanodeHostRow.INCLUDE ? include : exclude).add(h.entry());
    }
    lists = HopsHostLists.of(include, exclude);
    for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.READ_COMMITTED)) {
      DatanodeManager.Node n = nodes.get(row.datanodeUuid());
      if (n != null) {
        n.setAdminState(stateOf(row));
      }
    }
  }

  private static long generationOf(Transaction tx, LockMode mode) throws StorageException {
    VariableRow row = tx.find(VariableRow.TABLE, VariableRow.TABLE.key(GENERATION_ROW), mode);
    return row == null ? 0 : row.longValue();
  }

  /** Counts the generation up, in the caller's transaction (after its datanodes rows). */
  static void bump(Transaction tx) throws StorageException {
    VariableRow old =
        tx.find(VariableRow.TABLE, VariableRow.TABLE.key(GENERATION_ROW), LockMode.EXCLUSIVE);
    VariableRow next = new VariableRow(GENERATION_ROW, old == null ? 1 : old.longValue() + 1, null);
    if (old == null) {
      tx.insert(VariableRow.TABLE, next);
    } else {
      tx.update(VariableRow.TABLE, next);
    }
  }

  /**
   * The admin state a datanode registering now gets: the stored one, or decommissioning if it is
   * excluded and not already (HDFS's {@code startAdminOperationIfNecessary}).
   */
  AdminStates atRegistration(DatanodeID id, DatanodeRow stored) {
    AdminStates s = stored == null ? AdminStates.NORMAL : stateOf(stored);
    if (isExcluded(id) && !isDecommission(s)) {
      return AdminStates.DECOMMISSION_INPROGRESS;
    }
    return s;
  }

  static boolean isDecommission(AdminStates s) {
    return s == AdminStates.DECOMMISSION_INPROGRESS || s == AdminStates.DECOMMISSIONED;
  }

  /**
   * {@code refreshNodes}: reads the hosts files this namenode's configuration names, stores their
   * entries and the admin state each registered datanode gets from them (HDFS's {@code
   * refreshDatanodes}: excluded starts decommissioning, no longer excluded stops it; a datanode not
   * in a non-empty include list keeps its state and is refused at its next call), one transaction.
   */
  public void refreshNodes(Configuration conf) throws IOException {
    Set<String> include = new HashSet<>();
    Set<String> exclude = new HashSet<>();
    String includeFile = conf.getTrimmed(DFSConfigKeys.DFS_HOSTS, "");
    String excludeFile = conf.getTrimmed(DFSConfigKeys.DFS_HOSTS_EXCLUDE, "");
    if (!includeFile.isEmpty()) {
      HostsFileReader.readFileToSet("included", includeFile, include);
    }
    if (!excludeFile.isEmpty()) {
      HostsFileReader.readFileToSet("excluded", excludeFile, exclude);
    }
    HostFileManager next = HopsHostLists.of(include, exclude);
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        int changed = 0;
        for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.EXCLUSIVE)) {
          AdminStates now = stateOf(row);
          AdminStates wanted = now;
          DatanodeID id = DatanodeManager.toId(row);
          if (next.isIncluded(id)) {
            if (next.isExcluded(id)) {
              wanted = isDecommission(now) ? now : AdminStates.DECOMMISSION_INPROGRESS;
            } else if (isDecommission(now)) {
              wanted = AdminStates.NORMAL;
            }
          }
          if (wanted != now) {
            tx.update(DatanodeRow.TABLE, withState(row, wanted));
            changed++;
            LOG.info(
                "datanode {} ({}): {} -> {}", id.getXferAddr(), row.datanodeUuid(), now, wanted);
          }
        }
        for (DatanodeHostRow h : tx.scanAll(DatanodeHostRow.TABLE, LockMode.EXCLUSIVE)) {
          Set<String> list = h.hostsList() == DatanodeHostRow.INCLUDE ? include : exclude;
          if (!list.remove(h.entry())) {
            tx.delete(DatanodeHostRow.TABLE, h);
          }
        }
        for (String e : include) {
          tx.insert(DatanodeHostRow.TABLE, new DatanodeHostRow(DatanodeHostRow.INCLUDE, e));
        }
        for (String e : exclude) {
          tx.insert(DatanodeHostRow.TABLE, new DatanodeHostRow(DatanodeHostRow.EXCLUDE, e));
        }
        bump(tx);
        tx.commit();
        LOG.info(
            "refreshNodes: hosts lists from '{}' and '{}', {} datanodes changed state",
            includeFile,
            excludeFile,
            changed);
        break;
      } catch (DuplicateKeyException e) {
        if (attempt > 0) {
          throw e; // another refreshNodes inserted the same entries first: read them again once
        }
      }
    }
    refresh(true);
  }

  /**
   * The leader's admin monitor found every block of a decommissioning datanode replicated
   * elsewhere: it is DECOMMISSIONED, unless its state changed meanwhile (a refreshNodes). Returns
   * whether it changed.
   */
  public boolean markDecommissioned(String uuid) throws StorageException {
    boolean changed = false;
    try (Transaction tx = storage.begin()) {
      DatanodeRow row = tx.find(DatanodeRow.TABLE, DatanodeRow.TABLE.key(uuid), LockMode.EXCLUSIVE);
      if (row != null && stateOf(row) == AdminStates.DECOMMISSION_INPROGRESS) {
        tx.update(DatanodeRow.TABLE, withState(row, AdminStates.DECOMMISSIONED));
        bump(tx);
        changed = true;
      }
      tx.commit();
    }
    refresh(true);
    return changed;
  }

  static DatanodeRow withState(DatanodeRow r, AdminStates s) {
    return new DatanodeRow(
        r.datanodeUuid(),
        r.hostname(),
        r.ipAddress(),
        r.xferPort(),
        r.infoPort(),
        r.infoSecurePort(),
        r.ipcPort(),
        r.networkLocation(),
        (byte) s.ordinal(),
        r.registeredAt());
  }
}
