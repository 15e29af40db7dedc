package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.ReplicaRow;
import io.hops.election.LeaderElection;
import io.hops.namenode.blocks.BadBlockReports;
import io.hops.namenode.blocks.BalancerBandwidth;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ChangedStorages;
import io.hops.namenode.blocks.DatanodeManager;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.EmptyStorageReplicas;
import io.hops.namenode.blocks.ReplicaChanges;
import io.hops.namenode.blocks.ReportedReplica;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.CommitBlockSynchronization;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicReference;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.BlockListAsLongs.BlockReportReplica;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.UnregisteredNodeException;
import org.apache.hadoop.hdfs.server.common.HdfsServerConstants.ReplicaState;
import org.apache.hadoop.hdfs.server.common.IncorrectVersionException;
import org.apache.hadoop.hdfs.server.protocol.BalancerBandwidthCommand;
import org.apache.hadoop.hdfs.server.protocol.BlockReportContext;
import org.apache.hadoop.hdfs.server.protocol.DatanodeCommand;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.DatanodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.HeartbeatResponse;
import org.apache.hadoop.hdfs.server.protocol.KeyUpdateCommand;
import org.apache.hadoop.hdfs.server.protocol.NNHAStatusHeartbeat;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.ReceivedDeletedBlockInfo;
import org.apache.hadoop.hdfs.server.protocol.RegisterCommand;
import org.apache.hadoop.hdfs.server.protocol.SlowDiskReports;
import org.apache.hadoop.hdfs.server.protocol.SlowPeerReports;
import org.apache.hadoop.hdfs.server.protocol.StorageBlockReport;
import org.apache.hadoop.hdfs.server.protocol.StorageReceivedDeletedBlocks;
import org.apache.hadoop.hdfs.server.protocol.StorageReport;
import org.apache.hadoop.hdfs.server.protocol.VolumeFailureSummary;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.util.Time;
import org.apache.hadoop.util.VersionInfo;
import org.apache.hadoop.util.VersionUtil;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code DatanodeProtocol}: the stock DataNode registers, heartbeats and reports its replicas to
 * every namenode. The leader answers ACTIVE (with its election epoch as txid) and hands out
 * commands; the others answer STANDBY, so a datanode obeys only the leader (docs/architecture.md,
 * "Wire compatibility"). Reports are processed by one owner per datanode among the live namenodes
 * ({@link io.hops.namenode.blocks.ReportOwnership}), into the replica tables every namenode reads;
 * a full report is diffed against the storage's persisted replicas and the differences are applied
 * in as few transactions as the row bound allows, and an incremental report in one transaction (see
 * {@link ReplicaChanges#transactions}). Only the owner grants full block report leases.
 */
public final class DatanodeRpc implements DatanodeProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(DatanodeRpc.class);
  private static final int MAX_COMMANDS_PER_HEARTBEAT = 32;

  /**
   * The helper threads that apply full reports' transactions beside the reports' handlers, shared
   * by every report of the process; each report takes at most {@link #applyThreads} less one.
   */
  private static final ExecutorService APPLIERS =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "full-report-apply");
            t.setDaemon(true);
            return t;
          });

  private final TransactionRunner runner;
  private final Storage storage;
  private final BlockManager bm;
  private final BlockTokens blockTokens;
  private final Faults faults;
  private final DatanodeManager datanodes;
  private final String minimumDatanodeVersion;
  private final BalancerBandwidth balancerBandwidth;

  /** How many of a full report's transactions run at once ({@link #applyInParallel}). */
  private final int applyThreads;

  public DatanodeRpc(
      TransactionRunner runner,
      Storage storage,
      BlockManager blocks,
      BlockTokens blockTokens,
      Faults faults,
      Configuration conf) {
    this.runner = runner;
    this.storage = storage;
    this.bm = blocks;
    this.blockTokens = blockTokens;
    this.faults = faults;
    this.datanodes = bm.datanodes();
    this.balancerBandwidth = new BalancerBandwidth(storage);
    this.minimumDatanodeVersion =
        conf.getTrimmed(
            DFSConfigKeys.DFS_NAMENODE_MIN_SUPPORTED_DATANODE_VERSION_KEY,
            DFSConfigKeys.DFS_NAMENODE_MIN_SUPPORTED_DATANODE_VERSION_DEFAULT);
    this.applyThreads =
        Math.max(
            1,
            conf.getInt(
                NamenodeConfig.FULL_REPORT_APPLY_THREADS,
                NamenodeConfig.fullReportApplyThreadsDefault()));
  }

  /**
   * HDFS's verifyRequest: a datanode's call carries the registration id of the namespace it was
   * formatted for (namespace id, cluster id, creation time); any other is refused with {@link
   * UnregisteredNodeException}, as HDFS's namenode refuses it.
   */
  private void verifyRequest(DatanodeRegistration reg) throws UnregisteredNodeException {
    String expected =
        org.apache.hadoop.hdfs.server.common.Storage.getRegistrationID(bm.ids().namespaceInfo());
    String id = reg.getRegistrationID();
    if (!expected.equals(id)) {
      LOG.warn(
          "Registration IDs mismatched: the {} ID is {} but the expected ID is {}",
          reg.getClass().getSimpleName(),
          id,
          expected);
      throw new UnregisteredNodeException(reg);
    }
  }

  /**
   * HDFS's verifySoftwareVersion: a datanode older than {@code
   * dfs.namenode.min.supported.datanode.version} is refused; one of another version only if its
   * storage's creation time is not the namespace's (not a rolling upgrade).
   */
  private void verifySoftwareVersion(DatanodeRegistration reg) throws IncorrectVersionException {
    String dnVersion = reg.getSoftwareVersion();
    if (VersionUtil.compareVersions(dnVersion, minimumDatanodeVersion) < 0) {
      IncorrectVersionException e =
          new IncorrectVersionException(minimumDatanodeVersion, dnVersion, "DataNode", "NameNode");
      LOG.warn("{} DN: {}", e.getMessage(), reg);
      throw e;
    }
    String nnVersion = VersionInfo.getVersion();
    if (!dnVersion.equals(nnVersion)) {
      String prefix =
          "Reported DataNode version '"
              + dnVersion
              + "' of DN "
              + reg
              + " does not match NameNode version '"
              + nnVersion
              + "'";
      long nnCTime = bm.ids().namespaceInfo().getCTime();
      long dnCTime = reg.getStorageInfo().getCTime();
      if (nnCTime != dnCTime) {
        IncorrectVersionException e =
            new IncorrectVersionException(
                prefix
                    + " and CTime of DN ('"
                    + dnCTime
                    + "') does not match CTime of NN ('"
                    + nnCTime
                    + "')");
        LOG.warn("{}", e.toString()); // as HDFS logs the refusal
        throw e;
      }
      LOG.info("{}. Note: This is normal during a rolling upgrade.", prefix);
    }
  }

  @Override
  public NamespaceInfo versionRequest() {
    NamespaceInfo info = bm.ids().namespaceInfo();
    info.setState(bm.isLeader() ? HAServiceState.ACTIVE : HAServiceState.STANDBY);
    return info;
  }

  @Override
  public DatanodeRegistration registerDatanode(DatanodeRegistration reg) throws IOException {
    verifySoftwareVersion(reg);
    withRemoteIp(reg);
    checkIncluded(reg, true);
    datanodes.register(reg);
    // A datanode sends a full report after it registers: whoever owns its reports now needs no
    // other catch-up.
    DatanodeState node = datanodes.node(reg.getDatanodeUuid());
    node.gainedReports(bm.ownership().owns(reg.getDatanodeUuid()));
    node.registered();
    // The block keys, shared by every namenode: a token any of them signs verifies here.
    reg.setExportedKeys(blockTokens.registered(reg.getDatanodeUuid()));
    return reg;
  }

  @Override
  public HeartbeatResponse sendHeartbeat(
      DatanodeRegistration reg,
      StorageReport[] reports,
      long dnCacheCapacity,
      long dnCacheUsed,
      int xmitsInProgress,
      int xceiverCount,
      int failedVolumes,
      VolumeFailureSummary volumeFailureSummary,
      boolean requestFullBlockReportLease,
      SlowPeerReports slowPeers,
      SlowDiskReports slowDisks)
      throws IOException {
    verifyRequest(reg);
    checkIncluded(withRemoteIp(reg), false);
    DatanodeState node =
        datanodes.heartbeat(
            reg, reports, xceiverCount, xmitsInProgress, failedVolumes, volumeFailureSummary);
    long epoch = bm.leadingEpoch();
    boolean leader = epoch >= 0;
    if (node == null) {
      // Never registered with any namenode: HDFS asks it to register, and grants no lease.
      return new HeartbeatResponse(
          new DatanodeCommand[] {RegisterCommand.REGISTER},
          new NNHAStatusHeartbeat(leader ? HAServiceState.ACTIVE : HAServiceState.STANDBY, txid()),
          null,
          0);
    }
    boolean owner = bm.ownership().owns(node.uuid());
    long request = owner ? bm.reportRequests().pending(node.uuid()) : 0;
    boolean gained = node.gainedReports(owner);
    long now = Time.monotonicNow();
    boolean asked = node.askForReport(request, now, datanodes.expiryMillis());
    DatanodeState.CatchUpStep step =
        gained || asked || !owner
            ? DatanodeState.CatchUpStep.AS_USUAL
            : node.catchUpAtHeartbeat(requestFullBlockReportLease, now, datanodes.expiryMillis());
    boolean askAgain = step == DatanodeState.CatchUpStep.ASK_AGAIN;
    boolean register = gained || asked || askAgain;
    List<DatanodeCommand> commands = new ArrayList<>();
    if (register) {
      // A new owner of this datanode's reports may have missed some while ownership moved, and a
      // datanode declared dead had its replicas forgotten: it registers again and sends this
      // namenode a full report (any namenode may ask). Alone in its answer: a datanode drops the
      // commands after a registration command, so the leader's queued ones wait for the next
      // heartbeat.
      commands.add(RegisterCommand.REGISTER);
      node.askedToRegister(now);
      LOG.info(
          "full report of {} requested: {}",
          node.uuid(),
          asked
              ? "its replicas were forgotten while it was dead"
              : askAgain
                  ? "it did not report after registering again"
                  : "this namenode now owns them");
    } else {
      // Only the commands decided under the epoch this namenode leads now (none if it does not).
      commands.addAll(datanodes.commandsFor(node, MAX_COMMANDS_PER_HEARTBEAT, epoch));
      BalancerBandwidthCommand bandwidth = balancerBandwidth.commandFor(node.uuid(), leader);
      if (bandwidth != null) {
        commands.add(bandwidth);
      }
      // Any namenode passes new block keys: the leader's also move the datanode's current key, a
      // STANDBY's only add keys (BPOfferService), which is all a datanode needs to verify tokens.
      KeyUpdateCommand keys = blockTokens.commandFor(node.uuid());
      if (keys != null) {
        commands.add(keys);
      }
    }
    // Only the owner grants a full block report lease: the others would drop the report. None
    // with a registration command, nor until the datanode registered again: its report must be
    // made after the registration (see DatanodeState#askedToRegister).
    boolean leaseNow =
        requestFullBlockReportLease
            && owner
            && !register
            && step == DatanodeState.CatchUpStep.AS_USUAL;
    long lease = leaseNow ? grantLease(node) : 0;
    return new HeartbeatResponse(
        commands.toArray(new DatanodeCommand[0]),
        new NNHAStatusHeartbeat(leader ? HAServiceState.ACTIVE : HAServiceState.STANDBY, txid()),
        null,
        lease);
  }

  /**
   * A full block report lease for {@code node}. The datanode makes the report after it gets the
   * lease, so the replicas its storages have recorded now are the only ones the report may remove
   * (see {@link #blockReport}); they are noted with the lease. None (0: the datanode asks again at
   * its next heartbeat) if the store cannot be read now, so that the heartbeat still answers.
   */
  private long grantLease(DatanodeState node) {
    Map<Integer, long[]> recorded = new HashMap<>();
    try {
      for (StorageStat s : node.storages()) {
        recorded.put(s.ref.id(), recordedReplicas(s.ref));
      }
    } catch (IOException e) {
      LOG.warn("no full block report lease for {} yet: {}", node.uuid(), e.toString());
      return 0;
    }
    long lease = ThreadLocalRandom.current().nextLong(1, Long.MAX_VALUE);
    node.leaseGranted(lease, recorded);
    return lease;
  }

  /**
   * HDFS: a datanode not in a non-empty include list ({@code dfs.hosts}, as the last {@code
   * refreshNodes} on any namenode stored it) is refused, at registration with the lists as stored
   * now, at a heartbeat with this namenode's copy (at most a second old).
   */
  private void checkIncluded(DatanodeID reg, boolean exact) throws IOException {
    datanodes.admin().refresh(exact);
    if (!datanodes.admin().isIncluded(reg)) {
      LOG.warn("datanode {} is not in the include list: refused", reg.getXferAddr());
      throw new org.apache.hadoop.hdfs.server.protocol.DisallowedDatanodeException(reg);
    }
  }

  /**
   * The heartbeat's txid: the election epoch, which only grows and is higher for every new leader,
   * so a datanode follows the newest leader and ignores an older one that resumes after a pause.
   */
  private long txid() {
    LeaderElection e = bm.election();
    return e == null ? 0 : Math.max(e.epoch(), e.membership().epoch());
  }

  /** As HDFS: a datanode's address is the one the namenode sees, not the one it claims. */
  private DatanodeID withRemoteIp(DatanodeRegistration reg) {
    String remote = Server.getRemoteAddress();
    if (remote != null && !remote.equals(reg.getIpAddr())) {
      reg.setIpAddr(remote);
    }
    return reg;
  }

  /**
   * Applies a full report. A replica the report lacks is removed only if it was recorded when this
   * namenode granted the report's lease, before the datanode made the report: one recorded since
   * (the datanode's incremental report applied by another namenode whose view of the membership
   * makes it the owner, or a writer's receipt, see {@link io.hops.namenode.blocks.RecentReceipts})
   * may be newer than the report, and removing it could leave a live replica unlisted until the
   * next full report, hours later. A report this namenode granted no lease for (one forced by
   * {@code triggerBlockReport}, or granted before a restart) only adds.
   *
   * <p>While this namenode starts (startup safe mode), a report under its own lease is diffed
   * against the ids noted at the lease, not read again: one index scan of a storage per report.
   * Safe mode refuses deletes and sends no invalidation, so the gap below does not arise then; a
   * serving namenode reads the storage again at the report. What changed between the lease and the
   * report costs only a change that does nothing: a reported replica recorded since is added again
   * (a recorded replica is not written twice, {@link io.hops.namenode.blocks.ReplicaChange}), an
   * unreported one removed since is removed again (nothing to delete); a reported replica removed
   * since (its datanode told to delete it after it made the report, or its block deleted) is not
   * recorded again, where a read at the report would record it until the deletion is reported.
   */
  @Override
  public DatanodeCommand blockReport(
      DatanodeRegistration reg, String poolId, StorageBlockReport[] reports, BlockReportContext ctx)
      throws IOException {
    verifyRequest(reg);
    checkPool(poolId);
    DatanodeState node = datanodes.node(reg.getDatanodeUuid());
    if (node == null) {
      LOG.warn("Datanode {} is attempting to report but not register yet.", reg);
      return RegisterCommand.REGISTER; // as HDFS answers it
    }
    if (!bm.ownership().owns(node.uuid())) {
      node.gainedReports(false); // asks for a full report again if it owns the datanode again
      node.forgetLease();
      return null; // its owner, by the membership as it is now, applies it
    }
    datanodes.fullReportArrived(node);
    long lease = ctx == null ? 0 : ctx.getLeaseId();
    for (StorageBlockReport report : reports) {
      StorageRef storage = datanodes.storageStat(node, report.getStorage()).ref;
      long[] removable = node.recordedAtLease(lease, storage.id());
      // While this namenode starts, under its lease, the lease's scan is the diff's base: one scan
      // of the storage. Safe mode refuses deletes and sends no invalidation meanwhile, so no
      // replica the report has can have gone since; once serving, the report reads the storage.
      boolean leaseScanIsBase = removable != null && ChangedStorages.noting(bm);
      long[] stored = leaseScanIsBase ? removable : recordedReplicas(storage);
      boolean[] reported = new boolean[stored.length];
      List<ReportedReplica> diffs = new ArrayList<>();
      int added = 0;
      for (BlockReportReplica replica : report.getBlocks()) {
        int i = Arrays.binarySearch(stored, replica.getBlockId());
        if (i >= 0) {
          reported[i] = true;
        } else if (replica.getState() == ReplicaState.FINALIZED) {
          diffs.add(
              new ReportedReplica(
                  storage,
                  replica.getBlockId(),
                  replica.getGenerationStamp(),
                  replica.getNumBytes(),
                  true,
                  stored.length == 0));
          added++;
        }
      }
      int gone = 0;
      int kept = 0;
      for (int i = 0; i < stored.length; i++) {
        if (reported[i]) {
          continue;
        }
        if (leaseScanIsBase
            || (removable != null && Arrays.binarySearch(removable, stored[i]) >= 0)) {
          diffs.add(new ReportedReplica(storage, stored[i], 0, 0, false));
          gone++;
        } else {
          kept++;
        }
      }
      applyInParallel(diffs, stored.length == 0);
      LOG.info(
          "full block report of {} storage {}: {} replicas, {} new, {} gone, {} unreported kept{}",
          reg.getXferAddr(),
          storage.storageUuid(),
          report.getBlocks().getNumberOfBlocks(),
          added,
          gone,
          kept,
          removable == null ? " (no lease of this namenode: nothing removed)" : "");
    }
    datanodes.fullReportApplied(node);
    long request = node.requestAnsweredBy(lease);
    if (request != 0 && (ctx == null || ctx.getCurRpc() + 1 >= ctx.getTotalRpcs())) {
      bm.reportRequests().done(node.uuid(), request); // the last part of a report split per storage
    }
    return null;
  }

  /** The sorted block ids of a storage's recorded replicas, from the index alone. */
  private long[] recordedReplicas(StorageRef storage) throws IOException {
    try (Transaction tx = this.storage.begin()) {
      return tx.findKeyLongsByIndex(ReplicaRow.TABLE, "storage_id", storage.id(), "block_id");
    }
  }

  @Override
  public void blockReceivedAndDeleted(
      DatanodeRegistration reg, String poolId, StorageReceivedDeletedBlocks[] blocks)
      throws IOException {
    verifyRequest(reg);
    checkPool(poolId);
    DatanodeState node = known(reg);
    if (!bm.ownership().owns(node.uuid())) {
      // Its owner, by the membership as it is now, applies it. This namenode keeps the replicas
      // received, for a writer whose call finds them missing because the owner died (see
      // RecentReceipts). A namenode that just became the owner applies reports too, before its
      // next heartbeat asks the datanode for a full report. One that owned the datanode and owns
      // it again by its next heartbeat (its view of the membership changed and changed back) asks
      // for a full report too: nobody may have applied this one.
      node.gainedReports(false);
      for (StorageReceivedDeletedBlocks s : blocks) {
        for (ReceivedDeletedBlockInfo b : s.getBlocks()) {
          Block block = b.getBlock();
          switch (b.getStatus()) {
            case RECEIVED_BLOCK -> {
              bm.receipts()
                  .received(
                      node.uuid(),
                      s.getStorage(),
                      block.getBlockId(),
                      block.getGenerationStamp(),
                      block.getNumBytes());
            }
            case DELETED_BLOCK ->
                bm.receipts().deleted(block.getBlockId(), s.getStorage().getStorageID());
            case RECEIVING_BLOCK -> {}
          }
        }
      }
      return;
    }
    List<ReportedReplica> entries = new ArrayList<>();
    for (StorageReceivedDeletedBlocks s : blocks) {
      StorageRef storage = datanodes.storageStat(node, s.getStorage()).ref;
      for (ReceivedDeletedBlockInfo b : s.getBlocks()) {
        Block block = b.getBlock();
        switch (b.getStatus()) {
          case RECEIVED_BLOCK ->
              entries.add(
                  new ReportedReplica(
                      storage,
                      block.getBlockId(),
                      block.getGenerationStamp(),
                      block.getNumBytes(),
                      true));
          case DELETED_BLOCK ->
              entries.add(new ReportedReplica(storage, block.getBlockId(), 0, 0, false));
          case RECEIVING_BLOCK -> {
            // The pipeline already names this storage as an expected location.
          }
        }
      }
    }
    for (List<ReportedReplica> batch : ReplicaChanges.transactions(entries, runner.maxRows())) {
      runner.run(() -> new ReplicaChanges(bm, batch, "blockReceivedAndDeleted", false));
    }
  }

  /**
   * Applies a full report's differences, in as few transactions as {@link ReplicaChanges} cuts (or,
   * {@code onEmptyStorage}, the bulk path of a storage that recorded nothing, {@link
   * EmptyStorageReplicas}, whose replicas it does not record go through {@link ReplicaChanges}
   * after it), {@link #applyThreads} of them at a time: the handler's thread and helpers from
   * {@link #APPLIERS} take them from one queue. They change disjoint blocks (a storage's report
   * names a block once), so they never wait for each other's locks. The datanode's answer waits for
   * them all; after the first failure no further transaction starts, and it fails the report once
   * every running one ended, as a serial apply would (the datanode sends it again). A helper works
   * as the report's call (Hadoop's current call, which a handler thread has), so that its commits
   * do not wait for the disk: the call's response waits for every commit's durability instead, as
   * it does for a handler's own transactions ({@code tx/DurableResponse}).
   */
  private void applyInParallel(List<ReportedReplica> diffs, boolean onEmptyStorage)
      throws IOException {
    int maxRows = runner.maxRows();
    Queue<List<ReportedReplica>> batches =
        new ConcurrentLinkedQueue<>(
            onEmptyStorage
                ? EmptyStorageReplicas.transactions(diffs, maxRows)
                : ReplicaChanges.transactions(diffs, maxRows));
    AtomicReference<Exception> failed = new AtomicReference<>();
    Server.Call call = Server.getCurCall().get();
    List<Future<?>> helpers = new ArrayList<>();
    for (int i = 1; i < Math.min(applyThreads, batches.size()); i++) {
      helpers.add(
          APPLIERS.submit(
              () -> {
                Server.getCurCall().set(call);
                try {
                  applyFrom(batches, onEmptyStorage, failed);
                } finally {
                  Server.getCurCall().remove();
                }
              }));
    }
    applyFrom(batches, onEmptyStorage, failed);
    for (Future<?> f : helpers) {
      try {
        f.get();
      } catch (ExecutionException e) {
        failed.compareAndSet(null, new IOException(e.getCause()));
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        failed.compareAndSet(null, e);
        batches.clear();
        throw new InterruptedIOException("full block report interrupted");
      }
    }
    Exception e = failed.get();
    if (e instanceof IOException io) {
      throw io;
    } else if (e != null) {
      throw new IOException(e);
    }
  }

  /** Applies batches from {@code batches} until none is left or one of the report's failed. */
  private void applyFrom(
      Queue<List<ReportedReplica>> batches,
      boolean onEmptyStorage,
      AtomicReference<Exception> failed) {
    List<ReportedReplica> batch;
    while (failed.get() == null && (batch = batches.poll()) != null) {
      List<ReportedReplica> b = batch;
      try {
        faults.at(Faults.Point.FULL_REPORT_TRANSACTION);
        List<ReportedReplica> rest =
            onEmptyStorage ? runner.run(() -> new EmptyStorageReplicas(bm, b)) : b;
        for (List<ReportedReplica> t : ReplicaChanges.transactions(rest, runner.maxRows())) {
          runner.run(() -> new ReplicaChanges(bm, t, "blockReportBatch", true));
        }
      } catch (IOException | RuntimeException e) {
        failed.compareAndSet(null, e);
      }
    }
  }

  private DatanodeState known(DatanodeRegistration reg) throws IOException {
    DatanodeState node = datanodes.node(reg.getDatanodeUuid());
    if (node == null) {
      throw new UnregisteredNodeException(reg);
    }
    return node;
  }

  private void checkPool(String poolId) throws IOException {
    if (!bm.blockPoolId().equals(poolId)) {
      throw new IOException(
          "block pool " + poolId + " is not this namespace's (" + bm.blockPoolId() + ")");
    }
  }

  @Override
  public DatanodeCommand cacheReport(DatanodeRegistration reg, String poolId, List<Long> blockIds)
      throws IOException {
    verifyRequest(reg);
    return null; // hops does not cache blocks
  }

  @Override
  public void errorReport(DatanodeRegistration reg, int errorCode, String msg) throws IOException {
    verifyRequest(reg);
    LOG.warn("error report from datanode {} (code {}): {}", reg.getXferAddr(), errorCode, msg);
  }

  @Override
  public void reportBadBlocks(LocatedBlock[] blocks) throws IOException {
    // Every datanode reports to every namenode; the call names no datanode whose report owner
    // could take it, so the leader records it.
    if (bm.isLeader()) {
      BadBlockReports.report(bm, runner, blocks);
    }
  }

  @Override
  public void commitBlockSynchronization(
      ExtendedBlock block,
      long newgenerationstamp,
      long newlength,
      boolean closeFile,
      boolean deleteblock,
      DatanodeID[] newtargets,
      String[] newtargetstorages)
      throws IOException {
    faults.at(Faults.Point.COMMIT_BLOCK_SYNCHRONIZATION);
    runner.run(
        () ->
            new CommitBlockSynchronization(
                bm,
                block,
                newgenerationstamp,
                newlength,
                closeFile,
                deleteblock,
                newtargets,
                newtargetstorages));
  }
}
