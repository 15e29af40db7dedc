package io.hops.namenode.blocks;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DatanodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.StorageRow;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.IdPool;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
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

  /** The {@code variables} row that maps a storage uuid to its id: this prefix and the uuid. */
  static final String STORAGE_ID_PREFIX = "storage:";

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
    private boolean ownedReports;
    private long reportLease;

    /** The full report request ({@link FullReportRequests}) last asked for here, and when. */
    private long askedRequest;

    private long askedAt;

    /** The request {@link #reportLease} was granted after asking for (0: none). */
    private long requestAtLease;

    /**
     * By storage id, the sorted ids of the replicas recorded as {@link #reportLease} was granted.
     */
    private final Map<Integer, long[]> recordedAtLease = new HashMap<>();

    private final java.util.concurrent.atomic.AtomicInteger fullReports =
        new java.util.concurrent.atomic.AtomicInteger();
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
    private final Deque<Queued> commands = new ArrayDeque<>();

    /** Bumped after every registration and heartbeat: what {@link #info} last built is stale. */
    private final java.util.concurrent.atomic.AtomicLong version =
        new java.util.concurrent.atomic.AtomicLong();

    private volatile CachedInfo info;

    /** A command and the leader epoch it was decided under. */
    private record Queued(long epoch, DatanodeCommand command) {}

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
    public synchronized boolean gainedReports(boolean ownsNow) {
      boolean gained = ownsNow && !ownedReports;
      ownedReports = ownsNow;
      return gained;
    }

    public synchronized boolean ownsReports() {
      return ownedReports;
    }

    /**
     * Notes the full report lease this namenode grants, and the replicas each storage had recorded
     * then: the report, made after the datanode gets the lease, may remove only those.
     */
    public synchronized void leaseGranted(long lease, Map<Integer, long[]> recorded) {
      reportLease = lease;
      requestAtLease = askedRequest;
      recordedAtLease.clear();
      recordedAtLease.putAll(recorded);
    }

    /**
     * The sorted ids of the replicas a storage had recorded when this namenode granted {@code
     * lease}, once; null if this namenode did not grant it (a report forced without a lease, or a
     * lease granted before a restart or replaced since).
     */
    public synchronized long[] recordedAtLease(long lease, int storageId) {
      return lease != 0 && lease == reportLease ? recordedAtLease.remove(storageId) : null;
    }

    /**
     * Whether to ask the datanode for a full report for request {@code id} (0: none) now: a request
     * not asked for yet, or asked for at least {@code reaskMillis} ago (monotonic {@code now})
     * without its report applied. Notes the ask.
     */
    public synchronized boolean askForReport(long id, long now, long reaskMillis) {
      if (id == 0 || (id == askedRequest && now - askedAt < reaskMillis)) {
        return false;
      }
      askedRequest = id;
      askedAt = now;
      return true;
    }

    /**
     * The full report request that a report made under {@code lease} answers: the one this namenode
     * had asked for when it granted the lease; 0 if none or another lease.
     */
    public synchronized long requestAnsweredBy(long lease) {
      return lease != 0 && lease == reportLease ? requestAtLease : 0;
    }

    /** Forgets the lease granted (its report was turned away): at most one is kept per datanode. */
    public synchronized void forgetLease() {
      reportLease = 0;
      requestAtLease = 0;
      recordedAtLease.clear();
    }

    /** Full block reports of this datanode that this namenode applied. */
    public int fullReportsApplied() {
      return fullReports.get();
    }

    void countFullReport() {
      fullReports.incrementAndGet();
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
      if (epoch < 0) {
        return;
      }
      synchronized (commands) {
        commands.add(new Queued(epoch, c));
      }
    }

    /**
     * Up to {@code max} commands decided under {@code epoch}, the one this namenode leads now; the
     * commands of any other epoch are dropped (all of them when it leads none: {@code epoch < 0}).
     */
    List<DatanodeCommand> drainCommands(int max, long epoch) {
      List<DatanodeCommand> out = new ArrayList<>();
      int stale = 0;
      synchronized (commands) {
        while (!commands.isEmpty() && out.size() < max) {
          Queued q = commands.poll();
          if (epoch >= 0 && q.epoch() == epoch) {
            out.add(q.command());
          } else {
            stale++;
          }
        }
      }
      if (stale > 0) {
        LOG.info(
            "{} commands for datanode {} dropped: decided under another leader epoch than {}",
            stale,
            uuid(),
            epoch < 0 ? "none (not leading)" : epoch);
      }
      return out;
    }

    public int pendingCommands() {
      synchronized (commands) {
        return commands.size();
      }
    }

    /** Drops the queued commands (a datanode declared dead gets none of them). */
    public void clearCommands() {
      synchronized (commands) {
        commands.clear();
      }
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
  private final IdPool storageIds;
  private final NetworkLocations locations;
  private final long expiryMillis;
  private final Map<String, Node> nodes = new ConcurrentHashMap<>();
  private final DatanodeAdmin admin;
  private final Map<Integer, StorageRef> byId = new ConcurrentHashMap<>();
  private final Map<String, StorageRef> byUuid = new ConcurrentHashMap<>();
  private final FailedStorages failedStorages;
  private final UnregisteredIncludes unregisteredIncludes;
  private volatile Consumer<Node> beforeFullReport = n -> {};

  public DatanodeManager(Storage storage, Configuration conf) throws StorageException {
    this.storage = storage;
    this.storageIds = new IdPool(storage, "storage_id", 16);
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
        Node n = new Node(toId(row), now);
        n.location = locationOf(row);
        n.adminState = DatanodeAdmin.stateOf(row);
        nodes.put(row.datanodeUuid(), n);
      }
      for (StorageRow row : tx.scanAll(StorageRow.TABLE, LockMode.READ_COMMITTED)) {
        remember(toRef(row));
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
    DatanodeRow stored;
    try (Transaction tx = storage.begin()) {
      stored =
          tx.find(
              DatanodeRow.TABLE,
              DatanodeRow.TABLE.key(reg.getDatanodeUuid()),
              LockMode.READ_COMMITTED);
    }
    store(reg, stored != null ? locationOf(stored) : locations.of(reg));
  }

  private void store(DatanodeID reg, String location) throws StorageException {
    DatanodeRow fresh =
        new DatanodeRow(
            reg.getDatanodeUuid(),
            reg.getHostName(),
            reg.getIpAddr(),
            reg.getXferPort(),
            reg.getInfoPort(),
            reg.getInfoSecurePort(),
            reg.getIpcPort(),
            location,
            (byte) 0,
            System.currentTimeMillis());
    AdminStates state;
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        DatanodeRow old =
            tx.find(DatanodeRow.TABLE, DatanodeRow.TABLE.keyOf(fresh), LockMode.EXCLUSIVE);
        // The admin state survives a registration; an excluded datanode starts decommissioning.
        state = admin.atRegistration(reg, old);
        DatanodeRow row = DatanodeAdmin.withState(fresh, state);
        if (old == null) {
          tx.insert(DatanodeRow.TABLE, row);
        } else {
          tx.update(DatanodeRow.TABLE, row);
        }
        if (state != (old == null ? AdminStates.NORMAL : DatanodeAdmin.stateOf(old))) {
          DatanodeAdmin.bump(tx);
        }
        tx.commit();
        break;
      } catch (DuplicateKeyException e) {
        // A datanode registers with every namenode at once: on an engine whose locking read of a
        // missing row takes no lock, two may insert its row; the loser updates the winner's.
        if (attempt > 0) {
          throw e;
        }
      }
    }
    Node n = nodes.computeIfAbsent(reg.getDatanodeUuid(), u -> new Node(reg, Time.monotonicNow()));
    n.id = new DatanodeID(reg);
    n.location = location;
    n.setAdminState(state);
    n.setUpgradeDomain(admin.lists().getUpgradeDomain(n.id));
    n.checkStorages = true;
    touch(n);
    LOG.info(
        "registered datanode {} ({}) at {}", reg.getXferAddr(), reg.getDatanodeUuid(), location);
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
    StorageRef ref = byUuid.get(storageUuid);
    if (ref != null) {
      return ref;
    }
    // The uuid's id is a row keyed by the uuid, written with the storage row: a primary key is
    // unique on every engine, so when namenodes race (a datanode's first heartbeat reaches them all
    // at once) exactly one id is ever made and every loser reads the winner's.
    Key mapping = VariableRow.TABLE.key(STORAGE_ID_PREFIX + storageUuid);
    while (true) {
      try (Transaction tx = storage.begin()) {
        VariableRow known = tx.find(VariableRow.TABLE, mapping, LockMode.READ_COMMITTED);
        if (known != null) {
          return remember(new StorageRef((int) known.longValue(), storageUuid, datanodeUuid, type));
        }
      }
      int id = (int) storageIds.next();
      StorageRow row =
          new StorageRow(id, storageUuid, datanodeUuid, (byte) type.ordinal(), (byte) 0);
      try (Transaction tx = storage.begin()) {
        tx.insert(VariableRow.TABLE, new VariableRow(STORAGE_ID_PREFIX + storageUuid, id, null));
        tx.insert(StorageRow.TABLE, row);
        tx.commit();
        return remember(toRef(row));
      } catch (DuplicateKeyException e) {
        LOG.debug("storage {} got its id from another namenode first", storageUuid);
      }
    }
  }

  /** The storage with this id, or null if the store has none. */
  public StorageRef storage(int id) throws StorageException {
    StorageRef ref = byId.get(id);
    if (ref != null) {
      return ref;
    }
    try (Transaction tx = storage.begin()) {
      StorageRow row = tx.find(StorageRow.TABLE, StorageRow.TABLE.key(id), LockMode.READ_COMMITTED);
      return row == null ? null : remember(toRef(row));
    }
  }

  /** The storage ref of an id already known to this namenode (no database access), or null. */
  public StorageRef cachedStorage(int id) {
    return byId.get(id);
  }

  private StorageRef remember(StorageRef ref) {
    byUuid.put(ref.storageUuid(), ref);
    byId.put(ref.id(), ref);
    return ref;
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
        StorageRef ref = toRef(row);
        remember(ref);
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
    StorageRef ref = byUuid.get(storageUuid);
    if (ref != null) {
      return ref;
    }
    try (Transaction tx = storage.begin()) {
      List<StorageRow> rows =
          tx.findByIndex(StorageRow.TABLE, "storage_uuid", storageUuid, LockMode.READ_COMMITTED);
      return rows.isEmpty() ? null : remember(toRef(rows.get(0)));
    }
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
    String l = row.networkLocation();
    return l == null || l.isEmpty() ? NetworkTopology.DEFAULT_RACK : l;
  }

  static DatanodeID toId(DatanodeRow row) {
    return new DatanodeID(
        row.ipAddress(),
        row.hostname(),
        row.datanodeUuid(),
        row.xferPort(),
        row.infoPort(),
        row.infoSecurePort(),
        row.ipcPort());
  }

  static StorageRef toRef(StorageRow row) {
    return new StorageRef(
        row.storageId(),
        row.storageUuid(),
        row.datanodeUuid(),
        StorageType.values()[row.storageType()]);
  }
}
