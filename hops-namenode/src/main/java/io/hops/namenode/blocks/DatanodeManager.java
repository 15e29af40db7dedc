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
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeStorage;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.net.NetworkTopology;
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

  /** One storage of a datanode, as its last heartbeat reported it. */
  public static final class StorageStat {
    public final StorageRef ref;
    public volatile long capacity;
    public volatile long dfsUsed;
    public volatile long remaining;
    public volatile long blockPoolUsed;
    public volatile boolean failed;

    StorageStat(StorageRef ref) {
      this.ref = ref;
    }
  }

  /** One datanode: its id and the soft state of its heartbeats. */
  public static final class Node {
    private volatile DatanodeID id;

    /** Where it sits in the network, as resolved when it registered and stored in its row. */
    private volatile String location = NetworkTopology.DEFAULT_RACK;

    /** Its admin state as stored (a hint, see {@link DatanodeAdmin}). */
    private volatile AdminStates adminState = AdminStates.NORMAL;

    /**
     * Its upgrade domain from the JSON hosts file as stored, or null (see {@link DatanodeAdmin}).
     */
    private volatile String upgradeDomain;

    /** Monotonic time of the last heartbeat, or of this namenode's start if none yet. */
    private volatile long lastHeartbeat;

    private volatile long lastHeartbeatWallclock;
    private volatile boolean heardFrom;
    private volatile boolean dead;
    private final NodeReports reports = new NodeReports();
    private final NodeCommands commands = new NodeCommands();
    private volatile int xceivers;

    /** Its failed volumes as its last heartbeat here reported them (HDFS volFailures). */
    private volatile int volumeFailures;

    private volatile VolumeFailureSummary volumeFailureSummary;

    /**
     * Whether its next heartbeat is its first here since it registered: then, as when it reports a
     * new volume failure, a storage of it that the heartbeat leaves out has failed (HDFS
     * heartbeatedSinceRegistration).
     */
    private volatile boolean checkStorages = true;

    private final Map<String, StorageStat> storages = new ConcurrentHashMap<>();

    /** Bumped after every registration and heartbeat: what {@link #info} last built is stale. */
    private final java.util.concurrent.atomic.AtomicLong version =
        new java.util.concurrent.atomic.AtomicLong();

    private volatile CachedInfo info;

    /** What {@link #info} built, and at which {@link #version}. */
    private record CachedInfo(long version, DatanodeInfo info) {}

    Node(DatanodeID id, long lastHeartbeat) {
      this.id = id;
      this.lastHeartbeat = lastHeartbeat;
    }

    public DatanodeID id() {
      return id;
    }

    public String uuid() {
      return id.getDatanodeUuid();
    }

    /** Its network location: its rack, such as {@code /default-rack} or {@code /dc1/r7}. */
    public String location() {
      return location;
    }

    public AdminStates adminState() {
      return adminState;
    }

    /** Whether it takes new replicas and its replicas count (HDFS isInService): NORMAL. */
    public boolean isInService() {
      return adminState == AdminStates.NORMAL;
    }

    /** Whether it is being or has been decommissioned: its replicas do not count. */
    public boolean isDecommission() {
      return DatanodeAdmin.isDecommission(adminState);
    }

    /**
     * Whether it is entering or in maintenance: its replicas do not count as live, but as
     * maintenance replicas, kept while it is dead.
     */
    public boolean isMaintenance() {
      return DatanodeAdmin.isMaintenance(adminState);
    }

    /** Its upgrade domain as the JSON hosts file names it, or null when it names none. */
    public String upgradeDomain() {
      return upgradeDomain;
    }

    void setUpgradeDomain(String domain) {
      if (!java.util.Objects.equals(upgradeDomain, domain)) {
        upgradeDomain = domain;
        version.incrementAndGet();
      }
    }

    void setAdminState(AdminStates s) {
      if (adminState != s) {
        adminState = s;
        version.incrementAndGet();
      }
    }

    /**
     * Notes whether this namenode owns the datanode's reports now (at a heartbeat, or as it turns a
     * report away); true when it just became the owner (also on the first heartbeat this namenode
     * gets), so that it asks for a full report.
     */
    public boolean gainedReports(boolean ownsNow) {
      return reports.gainedReports(ownsNow);
    }

    public boolean ownsReports() {
      return reports.ownsReports();
    }

    /**
     * Notes the full report lease this namenode grants, and the replicas each storage had recorded
     * then: the report, made after the datanode gets the lease, may remove only those.
     */
    public void leaseGranted(long lease, Map<Integer, long[]> recorded) {
      reports.leaseGranted(lease, recorded);
    }

    /**
     * The sorted ids of the replicas a storage had recorded when this namenode granted {@code
     * lease}, once; null if this namenode did not grant it (a report forced without a lease, or a
     * lease granted before a restart or replaced since).
     */
    public long[] recordedAtLease(long lease, int storageId) {
      return reports.recordedAtLease(lease, storageId);
    }

    /**
     * Whether to ask the datanode for a full report for request {@code id} (0: none) now: a request
     * not asked for yet, or asked for at least {@code reaskMillis} ago (monotonic {@code now})
     * without its report applied. Notes the ask.
     */
    public boolean askForReport(long id, long now, long reaskMillis) {
      return reports.askForReport(id, now, reaskMillis);
    }

    /**
     * The full report request that a report made under {@code lease} answers: the one this namenode
     * had asked for when it granted the lease; 0 if none or another lease.
     */
    public long requestAnsweredBy(long lease) {
      return reports.requestAnsweredBy(lease);
    }

    /** Forgets the lease granted (its report was turned away): at most one is kept per datanode. */
    public void forgetLease() {
      reports.forgetLease();
    }

    /** Full block reports of this datanode that this namenode applied. */
    public int fullReportsApplied() {
      return reports.fullReportsApplied();
    }

    void countFullReport() {
      reports.countFullReport();
    }

    public boolean isDead() {
      return dead;
    }

    public boolean heardFrom() {
      return heardFrom;
    }

    public int xceivers() {
      return xceivers;
    }

    /** Whether this heartbeat is the first here since it registered; clears it. */
    boolean firstHeartbeatSinceRegistration() {
      boolean first = checkStorages;
      checkStorages = false;
      return first;
    }

    /** Forgets a storage it no longer reports: its figures count no more. */
    void dropStorage(String storageUuid) {
      if (storages.remove(storageUuid) != null) {
        version.incrementAndGet();
      }
    }

    /** How many of its volumes failed, as its last heartbeat said. */
    public int volumeFailures() {
      return volumeFailures;
    }

    /** Its failed volumes (locations, time of the last, capacity lost), or null if it sent none. */
    public VolumeFailureSummary volumeFailureSummary() {
      return volumeFailureSummary;
    }

    public Collection<StorageStat> storages() {
      return storages.values();
    }

    public long remaining() {
      return storages.values().stream().filter(s -> !s.failed).mapToLong(s -> s.remaining).sum();
    }

    public long capacity() {
      return storages.values().stream().mapToLong(s -> s.capacity).sum();
    }

    public long dfsUsed() {
      return storages.values().stream().mapToLong(s -> s.dfsUsed).sum();
    }

    public long blockPoolUsed() {
      return storages.values().stream().mapToLong(s -> s.blockPoolUsed).sum();
    }

    /** The storage with the most room, for a new replica. */
    public StorageStat bestStorage() {
      StorageStat best = null;
      for (StorageStat s : storages.values()) {
        if (!s.failed && (best == null || s.remaining > best.remaining)) {
          best = s;
        }
      }
      return best;
    }

    /**
     * Queues a command for the next heartbeat, decided by the leader of {@code epoch} (see {@link
     * BlockManager#leadingEpoch}); a negative epoch (decided by no leader) queues nothing.
     */
    public void addCommand(long epoch, DatanodeCommand c) {
      commands.add(epoch, c);
    }

    /**
     * Up to {@code max} commands decided under {@code epoch}, the one this namenode leads now; the
     * commands of any other epoch are dropped (all of them when it leads none: {@code epoch < 0}).
     */
    List<DatanodeCommand> drainCommands(int max, long epoch) {
      return commands.drain(max, epoch, uuid());
    }

    public int pendingCommands() {
      return commands.size();
    }

    /** Drops the queued commands (a datanode declared dead gets none of them). */
    public void clearCommands() {
      commands.clear();
    }

    /** Monotonic time of the last heartbeat (or of this namenode's start if none yet). */
    public long lastHeartbeat() {
      return lastHeartbeat;
    }

    /** What a client or an operator sees of this datanode. */
    /**
     * The datanode as clients see it, built once per heartbeat: every located block names its
     * replicas' datanodes, and a {@code DatanodeInfoWithStorage} copies the fields it is given.
     * Callers must not change it.
     */
    public DatanodeInfo info() {
      long v = version.get();
      CachedInfo cached = info;
      if (cached != null && cached.version() == v) {
        return cached.info();
      }
      DatanodeInfo built = build(); // read after the version: at least as new as it
      info = new CachedInfo(v, built);
      return built;
    }

    private DatanodeInfo build() {
      return new DatanodeInfo.DatanodeInfoBuilder()
          .setNodeID(id)
          .setCapacity(capacity())
          .setDfsUsed(dfsUsed())
          .setRemaining(remaining())
          .setBlockPoolUsed(blockPoolUsed())
          .setNonDfsUsed(Math.max(0, capacity() - dfsUsed() - remaining()))
          .setLastUpdate(lastHeartbeatWallclock)
          .setLastUpdateMonotonic(lastHeartbeat)
          .setXceiverCount(xceivers)
          .setNetworkLocation(location)
          .setAdminState(adminState)
          .setUpgradeDomain(upgradeDomain)
          .build();
    }
  }

  private final Storage storage;
  private final NetworkLocations locations;
  private final long expiryMillis;
  private final Map<String, Node> nodes = new ConcurrentHashMap<>();
  private final DatanodeAdmin admin;
  private final StorageRefs storageRefs;
  private final FailedStorages failedStorages;
  private final UnregisteredIncludes unregisteredIncludes;
  private final RackHistory rackHistory = new RackHistory();
  private volatile Consumer<Node> beforeFullReport = n -> {};

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
        Node n = new Node(DatanodeRegistrations.toId(row), now);
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
   * namenode, whose resolved location it keeps (one read of its row); resolved here only if none.
   */
  private void adopt(DatanodeID reg) throws StorageException {
    DatanodeRow stored = DatanodeRegistrations.find(storage, reg.getDatanodeUuid());
    store(reg, stored != null ? locationOf(stored) : locations.of(reg));
  }

  private void store(DatanodeID reg, String location) throws StorageException {
    DatanodeRegistrations.Stored stored =
        DatanodeRegistrations.store(storage, admin, rackHistory, reg, location);
    AdminStates state = stored.state();
    Node n = nodes.computeIfAbsent(reg.getDatanodeUuid(), u -> new Node(reg, Time.monotonicNow()));
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
   * namenode has never seen is taken as registered from the registration it sends (it is persisted
   * by whichever namenode it registered with).
   */
  public Node heartbeat(
      DatanodeID reg,
      StorageReport[] reports,
      int xceiverCount,
      int volumeFailures,
      VolumeFailureSummary summary)
      throws StorageException {
    Node n = nodes.get(reg.getDatanodeUuid());
    if (n == null || !n.heardFrom) {
      adopt(reg);
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
    touch(n);
    return n;
  }

  private void touch(Node n) {
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
  public StorageStat storageStat(Node n, DatanodeStorage reported) throws StorageException {
    StorageStat s = n.storages.get(reported.getStorageID());
    if (s == null) {
      StorageRef ref = storageRef(reported.getStorageID(), n.uuid(), reported.getStorageType());
      s = n.storages.computeIfAbsent(reported.getStorageID(), u -> new StorageStat(ref));
    }
    return s;
  }

  /** A full block report of {@code n} is about to be applied here. */
  public void fullReportArrived(Node n) {
    beforeFullReport.accept(n);
  }

  /**
   * Fault injection for tests: runs as this namenode starts applying a full block report, before it
   * reads what the report's storages have recorded.
   */
  public void beforeFullReportForTesting(Consumer<Node> hook) {
    beforeFullReport = hook == null ? n -> {} : hook;
  }

  /** Counts a full block report of {@code n} applied here. */
  public void fullReportApplied(Node n) {
    n.countFullReport();
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

  public Node node(String uuid) {
    return nodes.get(uuid);
  }

  public Collection<Node> all() {
    return nodes.values();
  }

  /** The datanodes that have heartbeated recently enough (or may yet: see the class comment). */
  public List<Node> live() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes.values()) {
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
  public List<Node> heardFromLive() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes.values()) {
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
    for (Node node : nodes.values()) {
      if (!node.heardFrom && isLive(node)) {
        n++;
      }
    }
    return n;
  }

  public boolean isLive(Node n) {
    return !n.dead && Time.monotonicNow() - n.lastHeartbeat <= expiryMillis;
  }

  /** Whether the storage's datanode is live here. */
  public boolean isLive(StorageRef ref) {
    Node n = ref == null ? null : nodes.get(ref.datanodeUuid());
    return n != null && isLive(n);
  }

  /** Nodes whose heartbeats expired and that are not yet declared dead; declares them. */
  public List<Node> takeNewlyDead() {
    List<Node> out = new ArrayList<>();
    for (Node n : nodes.values()) {
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
    Node n = nodes.get(datanodeUuid);
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
    Node n = ref == null ? null : nodes.get(ref.datanodeUuid());
    return n == null ? null : n.storages.get(ref.storageUuid());
  }

  /**
   * A datanode's commands for its next heartbeat: those decided under {@code leadingEpoch}, the
   * epoch this namenode leads now ({@link BlockManager#leadingEpoch}; negative: it leads none, and
   * every queued command is dropped). A command a deposed leader decided is never sent, not even
   * once that namenode leads again under a later epoch: the tables it was made from may have
   * changed meanwhile, and the new term derives its commands from them again.
   */
  public List<DatanodeCommand> commandsFor(Node n, int max, long leadingEpoch) {
    return n.drainCommands(max, leadingEpoch);
  }

  /**
   * The datanode on the machine {@code host} (an address or a host name), if any is live here; one
   * at random of several sharing it (HDFS Host2NodesMap.getDatanodeByHost).
   */
  public Node onHost(String host) {
    List<Node> on = new ArrayList<>();
    for (Node n : nodes.values()) {
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
    Node n = onHost(host);
    return n != null ? n.location : locations.ofReader(host);
  }

  /** How many racks the live datanodes are on (HDFS NetworkTopology.getNumOfNonEmptyRacks). */
  public int racks() {
    Set<String> racks = new HashSet<>();
    for (Node n : live()) {
      racks.add(n.location);
    }
    return racks.size();
  }

  private static String locationOf(DatanodeRow row) {
    return DatanodeRegistrations.locationOf(row);
  }
}
