package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.StorageRow;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * What one namenode knows of the datanodes. Their registrations and storages are persisted ({@code
 * datanodes}, {@code storages}), so any namenode can name the holder of a replica; their capacity,
 * usage and liveness are soft state, kept per namenode from the heartbeats that every datanode
 * sends every namenode (as in HDFS). A datanode persisted but not yet heard from counts as live
 * until the expiry interval has passed since this namenode started, so a restarted namenode serves
 * replica locations at once; it is given to no writer until it heartbeats ({@link #heardFromLive}).
 */
public final class DatanodeManager {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeManager.class);

  private final Storage storage;
  private final NetworkLocations locations;
  private final long expiryMillis;
  private final Map<String, DatanodeState> nodes = new ConcurrentHashMap<>();
  private final DatanodeAdmin admin;
  private final StorageRefs storageRefs;
  private final FailedStorages failedStorages;
  private final UnregisteredIncludes unregisteredIncludes;
  private final RackHistory rackHistory = new RackHistory();
  private volatile Consumer<DatanodeState> beforeFullReport = n -> {};
  private volatile Runnable afterFullReport = () -> {};

  public DatanodeManager(Storage storage, Configuration conf) throws StorageException {
    this.storage = storage;
    this.storageRefs = new StorageRefs(storage);
    this.locations = new NetworkLocations(conf);
    long recheck =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_HEARTBEAT_RECHECK_INTERVAL_DEFAULT,
            java.util.concurrent.TimeUnit.MILLISECONDS);
    long heartbeat =
        conf.getTimeDuration(
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_KEY,
            DFSConfigKeys.DFS_HEARTBEAT_INTERVAL_DEFAULT,
            java.util.concurrent.TimeUnit.SECONDS);
    this.expiryMillis = 2 * recheck + 10 * 1000 * heartbeat; // as HDFS's DatanodeManager
    this.admin = new DatanodeAdmin(storage, nodes, this::isLive, conf);
    this.failedStorages = new FailedStorages(storage, this);
    this.unregisteredIncludes = new UnregisteredIncludes(storage, conf);
    loadPersisted();
    admin.refresh(true);
  }

  /** The datanodes and storages in the store: known (not yet heard from) from the start. */
  private void loadPersisted() throws StorageException {
    long now = Time.monotonicNow();
    try (Transaction tx = storage.begin()) {
      for (DatanodeRow row : tx.scanAll(DatanodeRow.TABLE, LockMode.READ_COMMITTED)) {
        DatanodeState n = new DatanodeState(DatanodeRegistrations.toId(row), now);
        n.location = locationOf(row);
        n.adminState = DatanodeAdmin.stateOf(row);
        nodes.put(row.datanodeUuid(), n);
      }
      for (StorageRow row : tx.scanAll(StorageRow.TABLE, LockMode.READ_COMMITTED)) {
        storageRefs.remember(StorageRefs.toRef(row));
        failedStorages.loaded(row);
      }
    }
  }

  /** The storages whose datanodes said they failed (see {@link FailedStorages}). */
  public FailedStorages failedStorages() {
    return failedStorages;
  }

  /** The admin states and hosts lists (decommission and maintenance). */
  public DatanodeAdmin admin() {
    return admin;
  }

  /** The include list's hosts no registered datanode matches, as dead entries for reports. */
  public UnregisteredIncludes unregisteredIncludes() {
    return unregisteredIncludes;
  }

  public long expiryMillis() {
    return expiryMillis;
  }

  /**
   * Registers (or re-registers) a datanode: resolves its network location and persists both, so
   * that every namenode places replicas by the same racks; its storages come with heartbeats.
   */
  public void register(DatanodeID reg) throws StorageException {
    store(reg, locations.of(reg));
  }

  /**
   * A datanode heard from before this namenode knew it registered: it registered with another
   * namenode (or with this one before a restart), whose resolved location it keeps (one read of its
   * row). False, and nothing stored, if no namenode has its registration: it never registered.
   */
  private boolean adopt(DatanodeID reg) throws StorageException {
    DatanodeRow stored = DatanodeRegistrations.find(storage, reg.getDatanodeUuid());
    if (stored == null) {
      return false;
    }
    store(reg, locationOf(stored));
    return true;
  }

  private void store(DatanodeID reg, String location) throws StorageException {
    DatanodeRegistrations.Stored stored =
        DatanodeRegistrations.store(storage, admin, rackHistory, reg, location);
    AdminStates state = stored.state();
    DatanodeState n =
        nodes.computeIfAbsent(
            reg.getDatanodeUuid(), u -> new DatanodeState(reg, Time.monotonicNow()));
    n.id = new DatanodeID(reg);
    n.location = location;
    n.setAdminState(state);
    n.setUpgradeDomain(admin.lists().getUpgradeDomain(n.id));
    n.checkStorages = true;
    touch(n);
    LOG.info(
        "registered datanode {} ({}) at {}", reg.getXferAddr(), reg.getDatanodeUuid(), location);
    rackHistory.committed(stored.racks(), reg);
  }

  /** Whether the cluster has ever been on two racks, and the re-check that made due. */
  public RackHistory rackHistory() {
    return rackHistory;
  }

  /**
   * A heartbeat: refreshes the datanode's soft state and gives each storage its id. A datanode this
   * namenode has never seen is taken as registered if its registration is persisted (by whichever
   * namenode it registered with); null, and nothing changed, if it is not: the datanode never
   * registered (HDFS answers it with a {@code RegisterCommand}).
   */
  public DatanodeState heartbeat(
      DatanodeID reg,
      StorageReport[] reports,
      int xceiverCount,
      int xmitsInProgress,
      int volumeFailures,
      VolumeFailureSummary summary)
      throws StorageException {
    DatanodeState n = nodes.get(reg.getDatanodeUuid());
    if (n == null || !n.heardFrom) {
      if (!adopt(reg)) {
        return null;
      }
      n = nodes.get(reg.getDatanodeUuid());
    }
    boolean check = failedStorages.newFailure(n, volumeFailures, summary);
    n.volumeFailures = volumeFailures;
    n.volumeFailureSummary = summary;
    for (StorageReport r : reports) {
      StorageStat s = storageStat(n, r.getStorage());
      s.capacity = r.getCapacity();
      s.dfsUsed = r.getDfsUsed();
      s.remaining = r.getRemaining();
      s.blockPoolUsed = r.getBlockPoolUsed();
      s.failed = r.isFailed();
    }
    failedStorages.reported(n, reports, check);
    n.xceivers = xceiverCount;
    n.xmitsInProgress = xmitsInProgress;
    touch(n);
    return n;
  }

  private void touch(DatanodeState n) {
    n.lastHeartbeat = Time.monotonicNow();
    n.lastHeartbeatWallclock = Time.now();
    n.heardFrom = true;
    n.version.incrementAndGet();
    if (n.dead) {
      LOG.info("datanode {} is back", n.id.getXferAddr());
      n.dead = false;
    }
  }

  /** The stat of a reported storage, giving it an id the first time any namenode sees it. */
  public StorageStat storageStat(DatanodeState n, DatanodeStorage reported)
      throws StorageException {
    StorageStat s = n.storages.get(reported.getStorageID());
    if (s == null) {
      StorageRef ref = storageRef(reported.getStorageID(), n.uuid(), reported.getStorageType());
      s = n.storages.computeIfAbsent(reported.getStorageID(), u -> new StorageStat(ref));
    }
    return s;
  }

  /** A full block report of {@code n} is about to be applied here. */
  public void fullReportArrived(DatanodeState n) {
    beforeFullReport.accept(n);
  }

  /**
   * Fault injection for tests: runs as this namenode starts applying a full block report, before it
   * reads what the report's storages have recorded.
   */
  public void beforeFullReportForTesting(Consumer<DatanodeState> hook) {
    beforeFullReport = hook == null ? n -> {} : hook;
  }

  /** Counts a full block report of {@code n} applied here, and tells {@link #afterFullReport}. */
  public void fullReportApplied(DatanodeState n) {
    n.countFullReport();
    afterFullReport.run();
  }

  /**
   * What runs after each full block report this namenode applies: startup safe mode judges the
   * cluster again at once rather than at its next period.
   */
  public void afterFullReport(Runnable listener) {
    afterFullReport = listener == null ? () -> {} : listener;
  }

  /** The id of a storage uuid, made and persisted on first sight. */
  public StorageRef storageRef(String storageUuid, String datanodeUuid, StorageType type)
      throws StorageException {
    return storageRefs.storageRef(storageUuid, datanodeUuid, type);
  }

  /** The storage with this id, or null if the store has none. */
  public StorageRef storage(int id) throws StorageException {
    return storageRefs.storage(id);
  }

  /** The storage ref of an id already known to this namenode (no database access), or null. */
  public StorageRef cachedStorage(int id) {
    return storageRefs.cachedStorage(id);
  }

  public DatanodeState node(String uuid) {
    return nodes.get(uuid);
  }

  public Collection<DatanodeState> all() {
    return nodes.values();
  }

  /** The datanodes that have heartbeated recently enough (or may yet: see the class comment). */
  public List<DatanodeState> live() {
    List<DatanodeState> out = new ArrayList<>();
    for (DatanodeState n : nodes.values()) {
      if (isLive(n)) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * The live datanodes this namenode has heard from since it started: the only ones it gives a
   * writer as targets (a datanode known from the store may be gone, or back at another address).
   */
  public List<DatanodeState> heardFromLive() {
    List<DatanodeState> out = new ArrayList<>();
    for (DatanodeState n : nodes.values()) {
      if (n.heardFrom && isLive(n)) {
        out.add(n);
      }
    }
    return out;
  }

  /**
   * How many datanodes known from the store this namenode has not heard from since it started,
   * while they may still be on their way (within the expiry interval of its start).
   */
  public int notYetHeardFrom() {
    int n = 0;
    for (DatanodeState node : nodes.values()) {
      if (!node.heardFrom && isLive(node)) {
        n++;
      }
    }
    return n;
  }

  public boolean isLive(DatanodeState n) {
    return !n.dead && Time.monotonicNow() - n.lastHeartbeat <= expiryMillis;
  }

  /** Whether the storage's datanode is live here. */
  public boolean isLive(StorageRef ref) {
    DatanodeState n = ref == null ? null : nodes.get(ref.datanodeUuid());
    return n != null && isLive(n);
  }

  /** Nodes whose heartbeats expired and that are not yet declared dead; declares them. */
  public List<DatanodeState> takeNewlyDead() {
    List<DatanodeState> out = new ArrayList<>();
    for (DatanodeState n : nodes.values()) {
      if (!n.dead && Time.monotonicNow() - n.lastHeartbeat > expiryMillis) {
        n.dead = true;
        out.add(n);
        LOG.info(
            "datanode {} ({}) is dead: no heartbeat for over {} ms",
            n.id.getXferAddr(),
            n.uuid(),
            expiryMillis);
      }
    }
    return out;
  }

  /**
   * The storages a datanode has, as persisted by any namenode, plus those this namenode heard of:
   * one index scan. A datanode not heard from since this namenode started has only the former.
   */
  public List<StorageRef> storagesOf(String datanodeUuid) throws StorageException {
    List<StorageRef> out = new ArrayList<>();
    try (Transaction tx = storage.begin()) {
      for (StorageRow row :
          tx.findByIndex(
              StorageRow.TABLE, "datanode_uuid", datanodeUuid, LockMode.READ_COMMITTED)) {
        StorageRef ref = StorageRefs.toRef(row);
        storageRefs.remember(ref);
        out.add(ref);
      }
    }
    DatanodeState n = nodes.get(datanodeUuid);
    if (n != null) {
      for (StorageStat s : n.storages()) {
        if (!out.contains(s.ref)) {
          out.add(s.ref);
        }
      }
    }
    return out;
  }

  /**
   * How many replicas the datanode's storages hold (HDFS numBlocks, the "Num of Blocks" of {@code
   * dfsadmin -report}): the keys of one index scan of {@code replicas.storage_id} per storage.
   */
  public int replicaCount(String datanodeUuid) throws StorageException {
    List<StorageRef> refs = storagesOf(datanodeUuid);
    int count = 0;
    try (Transaction tx = storage.begin()) {
      for (StorageRef ref : refs) {
        count += tx.findKeysByIndex(ReplicaRow.TABLE, "storage_id", ref.id()).size();
      }
    }
    return count;
  }

  /** The storage of a storage uuid if any namenode gave it an id, else null (never makes one). */
  public StorageRef findStorage(String storageUuid) throws StorageException {
    return storageRefs.findStorage(storageUuid);
  }

  /** The heartbeat figures of a storage, or null if its datanode has not reported it here. */
  public StorageStat stat(StorageRef ref) {
    DatanodeState n = ref == null ? null : nodes.get(ref.datanodeUuid());
    return n == null ? null : n.storages.get(ref.storageUuid());
  }

  /**
   * A datanode's commands for its next heartbeat: those decided under {@code leadingEpoch}, the
   * epoch this namenode leads now ({@link BlockManager#leadingEpoch}; negative: it leads none, and
   * every queued command is dropped). A command a deposed leader decided is never sent, not even
   * once that namenode leads again under a later epoch: the tables it was made from may have
   * changed meanwhile, and the new term derives its commands from them again.
   */
  public List<DatanodeCommand> commandsFor(DatanodeState n, int max, long leadingEpoch) {
    return n.drainCommands(max, leadingEpoch);
  }

  /**
   * The datanode on the machine {@code host} (an address or a host name), if any is live here; one
   * at random of several sharing it (HDFS Host2NodesMap.getDatanodeByHost).
   */
  public DatanodeState onHost(String host) {
    List<DatanodeState> on = new ArrayList<>();
    for (DatanodeState n : nodes.values()) {
      if (isLive(n) && BlockPlacement.isOn(n, host)) {
        on.add(n);
      }
    }
    return on.isEmpty()
        ? null
        : on.get(java.util.concurrent.ThreadLocalRandom.current().nextInt(on.size()));
  }

  /** The network location of a reader's host: its datanode's, else the mapping's (null if none). */
  public String locationOfHost(String host) {
    DatanodeState n = onHost(host);
    return n != null ? n.location : locations.ofReader(host);
  }

  /** How many racks the live datanodes are on (HDFS NetworkTopology.getNumOfNonEmptyRacks). */
  public int racks() {
    Set<String> racks = new HashSet<>();
    for (DatanodeState n : live()) {
      racks.add(n.location);
    }
    return racks.size();
  }

  private static String locationOf(DatanodeRow row) {
    return DatanodeRegistrations.locationOf(row);
  }
}
