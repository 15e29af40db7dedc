package io.hops.namenode.blocks;

import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.net.NetworkTopology;

/**
 * One datanode as this namenode knows it: its id, admin state and location as stored, and the soft
 * state of its heartbeats, reports and queued commands ({@link DatanodeManager} keeps them all).
 */
public final class DatanodeState {
  volatile DatanodeID id;

  /** Where it sits in the network, as resolved when it registered and stored in its row. */
  volatile String location = NetworkTopology.DEFAULT_RACK;

  /** Its admin state as stored (a hint, see {@link DatanodeAdmin}). */
  volatile AdminStates adminState = AdminStates.NORMAL;

  /** Its upgrade domain from the JSON hosts file as stored, or null (see {@link DatanodeAdmin}). */
  volatile String upgradeDomain;

  /** Monotonic time of the last heartbeat, or of this namenode's start if none yet. */
  volatile long lastHeartbeat;

  volatile long lastHeartbeatWallclock;
  volatile boolean heardFrom;
  volatile boolean dead;
  private final NodeReports reports = new NodeReports();
  private final NodeCommands commands = new NodeCommands();
  volatile int xceivers;

  /** The copies its last heartbeat said it was sending (HDFS xmitsInProgress). */
  volatile int xmitsInProgress;

  /** Its failed volumes as its last heartbeat here reported them (HDFS volFailures). */
  volatile int volumeFailures;

  volatile VolumeFailureSummary volumeFailureSummary;

  /**
   * Whether its next heartbeat is its first here since it registered: then, as when it reports a
   * new volume failure, a storage of it that the heartbeat leaves out has failed (HDFS
   * heartbeatedSinceRegistration).
   */
  volatile boolean checkStorages = true;

  final Map<String, StorageStat> storages = new ConcurrentHashMap<>();

  /** Bumped after every registration and heartbeat: what {@link #info} last built is stale. */
  final java.util.concurrent.atomic.AtomicLong version =
      new java.util.concurrent.atomic.AtomicLong();

  volatile CachedInfo info;

  /** What {@link #info} built, and at which {@link #version}. */
  private record CachedInfo(long version, DatanodeInfo info) {}

  DatanodeState(DatanodeID id, long lastHeartbeat) {
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
   * Whether it is entering or in maintenance: its replicas do not count as live, but as maintenance
   * replicas, kept while it is dead.
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

  /** What a heartbeat does about a full report asked for with a registration command. */
  public enum CatchUpStep {
    /** Nothing pending: a lease is granted when asked for. */
    AS_USUAL,
    /** No lease yet: the report must be made after the datanode registers again. */
    NO_LEASE,
    /** Send the registration command again: the datanode will not report otherwise. */
    ASK_AGAIN
  }

  /**
   * Notes that this namenode just sent the datanode a registration command (monotonic {@code now})
   * to get a full report from it. A stock datanode registers again on a thread of its own: as a
   * STANDBY's (HDFS-9917) it first drops the incremental reports it has not sent this namenode, and
   * only a full report it makes after that covers them. A report made under a lease granted before
   * the registration may miss a replica finalized meanwhile, and the datanode may then put off the
   * report its registration scheduled (the report's end reschedules the next one), so the replica
   * would stay unrecorded until the next periodic report, hours later. So no lease is granted until
   * the datanode registered again ({@link #registered}), and the command is sent again if the
   * datanode then asks for none ({@link #catchUpAtHeartbeat}).
   */
  public void askedToRegister(long now) {
    reports.askedToRegister(now);
  }

  /** Notes that the datanode registered with this namenode. */
  public void registered() {
    reports.registered();
  }

  /**
   * What this heartbeat does about the report {@link #askedToRegister} asked for: whether the
   * datanode asks for a report lease ({@code leaseRequested}), monotonic {@code now}, and how long
   * a registration command may go unanswered before it is sent again ({@code reaskMillis}).
   */
  public CatchUpStep catchUpAtHeartbeat(boolean leaseRequested, long now, long reaskMillis) {
    return reports.catchUpAtHeartbeat(leaseRequested, now, reaskMillis);
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
   * The sorted ids of the replicas a storage had recorded when this namenode granted {@code lease},
   * once; null if this namenode did not grant it (a report forced without a lease, or a lease
   * granted before a restart or replaced since).
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

  /**
   * The copies this datanode is asked for and has not finished: those queued here for its next
   * heartbeat and those its last heartbeat said it was sending. A round gives a source at most
   * {@code dfs.namenode.replication.max-streams} less these, as HDFS's (its {@code
   * getNumberOfBlocksToBeReplicated} and {@code xmitsInProgress}); without them, each round handed
   * every source its full share again while the last round's copies were still running.
   */
  public int copiesInFlight() {
    return commands.transferBlocks() + xmitsInProgress;
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
