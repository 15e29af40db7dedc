package io.hops.namenode.blocks;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeHostRow;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.VariableRow;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeAdminProperties;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.blockmanagement.CombinedHostFileManager;
import org.apache.hadoop.hdfs.server.blockmanagement.HopsHostLists;
import org.apache.hadoop.hdfs.server.blockmanagement.HostConfigManager;
import org.apache.hadoop.hdfs.server.blockmanagement.HostFileManager;
import org.apache.hadoop.hdfs.util.CombinedHostsFileReader;
import org.apache.hadoop.util.HostsFileReader;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The datanodes' admin states (decommission and maintenance) and the hosts lists they come from, in
 * the database so that every namenode agrees: {@code dfsadmin -refreshNodes}, sent to any namenode,
 * reads that namenode's {@code dfs.hosts} and {@code dfs.hosts.exclude} files (HDFS's {@code
 * HostFileManager} format), or its JSON {@code dfs.hosts} when {@code
 * dfs.namenode.hosts.provider.classname} is {@code CombinedHostFileManager}, stores their entries
 * ({@code datanode_hosts}) and the admin state each datanode gets from them ({@code
 * datanodes.admin_state}, HDFS's {@code refreshDatanodes}), and counts up the generation in the
 * {@code variables} row {@value #GENERATION_ROW}; the leader's admin monitor writes the states it
 * reaches the same way. A datanode's maintenance expiry is its JSON entry's, so every namenode
 * reads the same one from the stored lists. What a namenode holds of both is a hint, read again
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

  private static final ObjectMapper JSON =
      new ObjectMapper().setSerializationInclusion(JsonInclude.Include.NON_NULL);

  /** The widest entry {@code datanode_hosts} keeps. */
  private static final int MAX_ENTRY_BYTES = 255;

  private final Storage storage;
  private final Map<String, DatanodeState> nodes;
  private final Predicate<DatanodeState> live;
  private final int minMaintenanceReplication;
  private volatile HostConfigManager lists = HopsHostLists.of(List.of(), List.of());
  private volatile long generation = -1;
  private volatile long readAt;

  DatanodeAdmin(
      Storage storage,
      Map<String, DatanodeState> nodes,
      Predicate<DatanodeState> live,
      Configuration conf) {
    this.storage = storage;
    this.nodes = nodes;
    this.live = live;
    this.minMaintenanceReplication = minMaintenanceReplication(conf);
  }

  /** {@code dfs.namenode.maintenance.replication.min}, checked as HDFS's BlockManager does. */
  private static int minMaintenanceReplication(Configuration conf) {
    int min =
        conf.getInt(
            DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY,
            DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_DEFAULT);
    int replication =
        conf.getInt(DFSConfigKeys.DFS_REPLICATION_KEY, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    if (min < 0) {
      throw new IllegalArgumentException(
          "Unexpected configuration parameters: "
              + DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY
              + " = "
              + min
              + " < 0");
    }
    if (min > replication) {
      throw new IllegalArgumentException(
          "Unexpected configuration parameters: "
              + DFSConfigKeys.DFS_NAMENODE_MAINTENANCE_REPLICATION_MIN_KEY
              + " = "
              + min
              + " > "
              + DFSConfigKeys.DFS_REPLICATION_KEY
              + " = "
              + replication);
    }
    return min;
  }

  /**
   * The live replicas a block keeps on in-service datanodes while others hold it in maintenance
   * (HDFS getMinMaintenanceStorageNum): {@code dfs.namenode.maintenance.replication.min}, at most
   * the file's replication.
   */
  public int minMaintenanceReplicas(int replication) {
    return Math.min(minMaintenanceReplication, replication);
  }

  /** The admin state stored in a row (the ordinal of Hadoop's {@link AdminStates}). */
  public static AdminStates stateOf(DatanodeRow row) {
    int i = row.adminState();
    AdminStates[] all = AdminStates.values();
    return i >= 0 && i < all.length ? all[i] : AdminStates.NORMAL;
  }

  /** Whether the datanode may talk to the namenodes: in the include list, or there is none. */
  public boolean isIncluded(DatanodeID id) {
    return lists.isIncluded(id);
  }

  /** The hosts lists as this namenode last read them from the database. */
  HostConfigManager lists() {
    return lists;
  }

  /** Whether the datanode is in the exclude list (to be decommissioned). */
  public boolean isExcluded(DatanodeID id) {
    return lists.isExcluded(id);
  }

  /**
   * When the datanode's maintenance ends (wall-clock milliseconds): its IN_MAINTENANCE entry's
   * {@code maintenanceExpireTimeInMS} in the JSON hosts file, 0 if it has none.
   */
  public long maintenanceExpiry(DatanodeID id) {
    return lists.getMaintenanceExpirationTimeInMS(id);
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
    List<DatanodeAdminProperties> combined = new ArrayList<>();
    for (DatanodeHostRow h : tx.scanAll(DatanodeHostRow.TABLE, LockMode.READ_COMMITTED)) {
      switch (h.hostsList()) {
        case DatanodeHostRow.INCLUDE -> include.add(h.entry());
        case DatanodeHostRow.EXCLUDE -> exclude.add(h.entry());
        default -> combined.add(parse(h.entry()));
      }
    }
    lists =
        combined.isEmpty() ? HopsHostLists.of(include, exclude) : HopsHostLists.combined(combined);
    for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.READ_COMMITTED)) {
      DatanodeState n = nodes.get(row.datanodeUuid());
      if (n != null) {
        n.setAdminState(stateOf(row));
      }
    }
    for (DatanodeState n : nodes.values()) {
      n.setUpgradeDomain(lists.getUpgradeDomain(n.id()));
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

  private static DatanodeAdminProperties parse(String json) throws StorageException {
    try {
      return JSON.readValue(json, DatanodeAdminProperties.class);
    } catch (IOException e) {
      throw new StorageException("a stored hosts file entry is not JSON: " + json, e);
    }
  }

  /**
   * The admin state a datanode registering now gets: the stored one, decommissioning if it is
   * excluded and not already, or entering maintenance if its maintenance has not expired (HDFS's
   * {@code startAdminOperationIfNecessary}).
   */
  AdminStates atRegistration(DatanodeID id, DatanodeRow stored) {
    AdminStates s = stored == null ? AdminStates.NORMAL : stateOf(stored);
    if (isExcluded(id)) {
      return isDecommission(s) ? s : AdminStates.DECOMMISSION_INPROGRESS;
    }
    if (DatanodeInfo.maintenanceNotExpired(maintenanceExpiry(id))) {
      return startMaintenance(s, true);
    }
    return s;
  }

  /**
   * The state HDFS's {@code refreshDatanodes} gives a datanode of state {@code now} from the lists
   * {@code next}: unchanged if it is not included (it is refused at its next call); maintenance if
   * its entry's has not expired; decommission if excluded; otherwise back in service.
   */
  private AdminStates refreshed(
      AdminStates now, DatanodeID id, HostConfigManager next, boolean isLive) {
    if (!next.isIncluded(id)) {
      return now;
    }
    if (DatanodeInfo.maintenanceNotExpired(next.getMaintenanceExpirationTimeInMS(id))) {
      return startMaintenance(now, isLive);
    }
    if (next.isExcluded(id)) {
      return isDecommission(now) ? now : AdminStates.DECOMMISSION_INPROGRESS;
    }
    return AdminStates.NORMAL;
  }

  /**
   * HDFS's {@code startMaintenance}: a datanode already in maintenance stays as it is; a dead one,
   * a decommissioned one or any with {@code dfs.namenode.maintenance.replication.min} 0 is in
   * maintenance at once; any other enters it (the leader's monitor moves it on).
   */
  private AdminStates startMaintenance(AdminStates now, boolean isLive) {
    if (isMaintenance(now)) {
      return now;
    }
    if (!isLive || now == AdminStates.DECOMMISSIONED || minMaintenanceReplication == 0) {
      return AdminStates.IN_MAINTENANCE;
    }
    return AdminStates.ENTERING_MAINTENANCE;
  }

  static boolean isDecommission(AdminStates s) {
    return s == AdminStates.DECOMMISSION_INPROGRESS || s == AdminStates.DECOMMISSIONED;
  }

  static boolean isMaintenance(AdminStates s) {
    return s == AdminStates.ENTERING_MAINTENANCE || s == AdminStates.IN_MAINTENANCE;
  }

  /** The entries of the hosts files this namenode's configuration names, by list. */
  private static Map<Byte, Set<String>> readHostsFiles(Configuration conf) throws IOException {
    Map<Byte, Set<String>> out = new HashMap<>();
    out.put(DatanodeHostRow.INCLUDE, new HashSet<>());
    out.put(DatanodeHostRow.EXCLUDE, new HashSet<>());
    out.put(DatanodeHostRow.COMBINED, new HashSet<>());
    String includeFile = conf.getTrimmed(DFSConfigKeys.DFS_HOSTS, "");
    Class<?> provider =
        conf.getClass(
            DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY, HostFileManager.class);
    if (provider == CombinedHostFileManager.class) {
      int timeout =
          conf.getInt(DFSConfigKeys.DFS_HOSTS_TIMEOUT, DFSConfigKeys.DFS_HOSTS_TIMEOUT_DEFAULT);
      DatanodeAdminProperties[] all =
          timeout != DFSConfigKeys.DFS_HOSTS_TIMEOUT_DEFAULT
              ? CombinedHostsFileReader.readFileWithTimeout(includeFile, timeout)
              : CombinedHostsFileReader.readFile(includeFile);
      for (DatanodeAdminProperties p : all) {
        String json = JSON.writeValueAsString(p);
        if (json.getBytes(StandardCharsets.UTF_8).length > MAX_ENTRY_BYTES) {
          throw new IOException(
              "an entry of " + includeFile + " is over " + MAX_ENTRY_BYTES + " bytes: " + json);
        }
        out.get(DatanodeHostRow.COMBINED).add(json);
      }
      return out;
    }
    if (provider != HostFileManager.class) {
      throw new UnsupportedOperationException(
          "refreshNodes: "
              + DFSConfigKeys.DFS_NAMENODE_HOSTS_PROVIDER_CLASSNAME_KEY
              + " = "
              + provider.getName()
              + " is not served (HostFileManager and CombinedHostFileManager are)");
    }
    String excludeFile = conf.getTrimmed(DFSConfigKeys.DFS_HOSTS_EXCLUDE, "");
    if (!includeFile.isEmpty()) {
      HostsFileReader.readFileToSet("included", includeFile, out.get(DatanodeHostRow.INCLUDE));
    }
    if (!excludeFile.isEmpty()) {
      HostsFileReader.readFileToSet("excluded", excludeFile, out.get(DatanodeHostRow.EXCLUDE));
    }
    return out;
  }

  private static HostConfigManager listsOf(Map<Byte, Set<String>> entries) throws IOException {
    Set<String> combined = entries.get(DatanodeHostRow.COMBINED);
    if (combined.isEmpty()) {
      return HopsHostLists.of(
          entries.get(DatanodeHostRow.INCLUDE), entries.get(DatanodeHostRow.EXCLUDE));
    }
    List<DatanodeAdminProperties> all = new ArrayList<>();
    for (String json : combined) {
      all.add(parse(json));
    }
    return HopsHostLists.combined(all);
  }

  /**
   * {@code refreshNodes}: reads the hosts files this namenode's configuration names, stores their
   * entries and the admin state each registered datanode gets from them (HDFS's {@code
   * refreshDatanodes}: maintenance while its entry's has not expired, excluded starts
   * decommissioning, neither is back in service; a datanode not in a non-empty include list keeps
   * its state and is refused at its next call), one transaction.
   */
  public void refreshNodes(Configuration conf) throws IOException {
    Map<Byte, Set<String>> files = readHostsFiles(conf);
    HostConfigManager next = listsOf(files);
    for (int attempt = 0; ; attempt++) {
      Map<Byte, Set<String>> entries = new HashMap<>();
      files.forEach((list, set) -> entries.put(list, new HashSet<>(set)));
      try (Transaction tx = storage.begin()) {
        int changed = 0;
        for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.EXCLUSIVE)) {
          AdminStates now = stateOf(row);
          DatanodeID id = DatanodeRegistrations.toId(row);
          DatanodeState n = nodes.get(row.datanodeUuid());
          AdminStates wanted = refreshed(now, id, next, n != null && live.test(n));
          if (wanted != now) {
            tx.update(DatanodeRow.TABLE, withState(row, wanted));
            changed++;
            LOG.info(
                "datanode {} ({}): {} -> {}", id.getXferAddr(), row.datanodeUuid(), now, wanted);
          }
        }
        for (DatanodeHostRow h : tx.scanAll(DatanodeHostRow.TABLE, LockMode.EXCLUSIVE)) {
          Set<String> list = entries.get(h.hostsList());
          if (list == null || !list.remove(h.entry())) {
            tx.delete(DatanodeHostRow.TABLE, h);
          }
        }
        for (Map.Entry<Byte, Set<String>> list : entries.entrySet()) {
          for (String e : list.getValue()) {
            tx.insert(DatanodeHostRow.TABLE, new DatanodeHostRow(list.getKey(), e));
          }
        }
        bump(tx);
        tx.commit();
        LOG.info(
            "refreshNodes: hosts lists from '{}' and '{}', {} datanodes changed state",
            conf.getTrimmed(DFSConfigKeys.DFS_HOSTS, ""),
            conf.getTrimmed(DFSConfigKeys.DFS_HOSTS_EXCLUDE, ""),
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
    return move(uuid, Set.of(AdminStates.DECOMMISSION_INPROGRESS), AdminStates.DECOMMISSIONED);
  }

  /**
   * The leader's admin monitor found every block of a datanode entering maintenance with enough
   * live replicas elsewhere: it is IN_MAINTENANCE, unless its state changed meanwhile.
   */
  public boolean markInMaintenance(String uuid) throws StorageException {
    return move(uuid, Set.of(AdminStates.ENTERING_MAINTENANCE), AdminStates.IN_MAINTENANCE);
  }

  /**
   * The leader's admin monitor found a datanode's maintenance expired: it is back in service
   * (HDFS's {@code stopMaintenance}), unless its state changed meanwhile.
   */
  public boolean endMaintenance(String uuid) throws StorageException {
    return move(
        uuid,
        Set.of(AdminStates.ENTERING_MAINTENANCE, AdminStates.IN_MAINTENANCE),
        AdminStates.NORMAL);
  }

  /** Sets a datanode's state to {@code to} if it is one of {@code from}; whether it changed. */
  private boolean move(String uuid, Set<AdminStates> from, AdminStates to) throws StorageException {
    boolean changed = false;
    try (Transaction tx = storage.begin()) {
      DatanodeRow row = tx.find(DatanodeRow.TABLE, DatanodeRow.TABLE.key(uuid), LockMode.EXCLUSIVE);
      if (row != null && from.contains(stateOf(row))) {
        tx.update(DatanodeRow.TABLE, withState(row, to));
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
