package io.hops.namenode.rpc;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.CorruptReplicaRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.StorageRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StorageRef;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.PermissionCheckers;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.ha.HAServiceProtocol.HAServiceState;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.namenode.CheckpointSignature;
import org.apache.hadoop.hdfs.server.namenode.NNStorage;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations;
import org.apache.hadoop.hdfs.server.protocol.BlocksWithLocations.BlockWithLocations;
import org.apache.hadoop.hdfs.server.protocol.NamenodeCommand;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamenodeRegistration;
import org.apache.hadoop.hdfs.server.protocol.NamespaceInfo;
import org.apache.hadoop.hdfs.server.protocol.RemoteEditLogManifest;
import org.apache.hadoop.security.AccessControlException;

/**
 * {@code NamenodeProtocol}, as far as the Balancer and other stock tools need it: the namespace's
 * ids, the blocks on a datanode with their locations, block keys (none: hops has no block tokens),
 * and a transaction id. hops has no edit log, no checkpoints and no backup namenodes, so those
 * calls are refused with a message naming them.
 */
public final class NamenodeRpc implements NamenodeProtocol {
  private final BlockTokens blockTokens;
  private final PermissionCheckers checkers;
  private final Storage storage;
  private final BlockManager bm;
  private final SafeMode safeMode;
  private final AtomicLong txid = new AtomicLong();

  public NamenodeRpc(
      BlockTokens blockTokens,
      PermissionCheckers checkers,
      Storage storage,
      BlockManager blocks,
      SafeMode safeMode) {
    this.blockTokens = blockTokens;
    this.checkers = checkers;
    this.storage = storage;
    this.bm = blocks;
    this.safeMode = safeMode;
  }

  /** HDFS's superuser check (only when permissions are on), naming the operation. */
  static void checkSuperuser(PermissionCheckers checkers, String operation) throws IOException {
    var pc = checkers.ofCaller();
    if (pc.enabled() && !pc.isSuperuser()) {
      throw new AccessControlException(
          "Access denied for user "
              + pc.caller().user()
              + ". Superuser privilege is required for operation "
              + operation);
    }
  }

  private static UnsupportedOperationException unsupported(String method, String why) {
    return new UnsupportedOperationException(
        "NamenodeProtocol." + method + " is not supported by hops: " + why);
  }

  @Override
  public NamespaceInfo versionRequest() {
    NamespaceInfo info = bm.ids().namespaceInfo();
    info.setState(bm.isLeader() ? HAServiceState.ACTIVE : HAServiceState.STANDBY);
    return info;
  }

  /**
   * Up to {@code size} bytes of complete blocks of at least {@code minBlockSize} bytes that have a
   * replica on {@code datanode}, from a random starting point, each with all its live locations
   * (HDFS BlockManager.getBlocksWithLocations). Blocks of files changed within {@code
   * hotTimeInterval} ms come last. The datanode's replicas are found by the {@code storage_id}
   * index.
   */
  @Override
  public BlocksWithLocations getBlocks(
      DatanodeInfo datanode,
      long size,
      long minBlockSize,
      long hotTimeInterval,
      StorageType storageType)
      throws IOException {
    if (size <= 0) {
      throw new IllegalArgumentException("Unexpected not positive size: " + size);
    }
    if (minBlockSize < 0) {
      throw new IllegalArgumentException("Unexpected not positive size: " + size);
    }
    checkSuperuser(checkers, "getBlocks");
    safeMode.check("Cannot execute getBlocks");
    DatanodeState node = bm.datanodes().node(datanode.getDatanodeUuid());
    if (node == null) {
      throw new HadoopIllegalArgumentException("Datanode " + datanode + " not found.");
    }
    try (Transaction tx = storage.begin()) {
      List<ReplicaRow> onNode = new ArrayList<>();
      for (int storageId : storageIds(tx, node, storageType)) {
        onNode.addAll(
            tx.findByIndex(ReplicaRow.TABLE, "storage_id", storageId, LockMode.READ_COMMITTED));
      }
      List<BlockWithLocations> out = new ArrayList<>();
      List<ReplicaRow> hot = new ArrayList<>();
      long total = 0;
      long hotSince = System.currentTimeMillis() - hotTimeInterval;
      int start = onNode.isEmpty() ? 0 : ThreadLocalRandom.current().nextInt(onNode.size());
      for (int i = 0; i < onNode.size() && total < size; i++) {
        ReplicaRow r = onNode.get((start + i) % onNode.size());
        if (hotTimeInterval > 0 && isHot(tx, r.inodeId(), hotSince)) {
          hot.add(r);
        } else {
          total += add(tx, r, minBlockSize, out);
        }
      }
      for (int i = 0; i < hot.size() && total < size; i++) {
        total += add(tx, hot.get(i), minBlockSize, out);
      }
      return new BlocksWithLocations(out.toArray(new BlockWithLocations[0]));
    }
  }

  /** The node's storages of the type asked for: as heartbeats report them, else as stored. */
  private static Set<Integer> storageIds(Transaction tx, DatanodeState node, StorageType type)
      throws StorageException {
    Set<Integer> ids = new LinkedHashSet<>();
    for (StorageStat s : node.storages()) {
      if (!s.failed && (type == null || s.ref.type() == type)) {
        ids.add(s.ref.id());
      }
    }
    if (ids.isEmpty() && node.storages().isEmpty()) {
      for (StorageRow s :
          tx.findByIndex(StorageRow.TABLE, "datanode_uuid", node.uuid(), LockMode.READ_COMMITTED)) {
        if (type == null || StorageType.values()[s.storageType()] == type) {
          ids.add(s.storageId());
        }
      }
    }
    return ids;
  }

  private static boolean isHot(Transaction tx, long inodeId, long since) throws StorageException {
    for (InodeRow f : tx.findByIndex(InodeRow.TABLE, "id", inodeId, LockMode.READ_COMMITTED)) {
      return f.underConstruction() || f.modificationTime() > since || f.accessTime() > since;
    }
    return false;
  }

  /** Adds the replica's block if complete and big enough; returns the bytes added. */
  private long add(Transaction tx, ReplicaRow r, long minBlockSize, List<BlockWithLocations> out)
      throws StorageException {
    BlockInfoRow b =
        tx.find(
            BlockInfoRow.TABLE,
            BlockInfoRow.TABLE.key(r.inodeId(), r.blockId()),
            LockMode.READ_COMMITTED);
    if (b == null
        || b.underConstructionState() != BlockState.COMPLETE
        || b.numBytes() < minBlockSize) {
      return 0;
    }
    Set<Integer> corrupt = new HashSet<>();
    for (CorruptReplicaRow c :
        tx.findByPartition(
            CorruptReplicaRow.TABLE,
            r.inodeId(),
            "block_id",
            r.blockId(),
            LockMode.READ_COMMITTED)) {
      corrupt.add(c.storageId());
    }
    List<StorageRef> locations = new ArrayList<>();
    for (ReplicaRow replica :
        tx.findByPartition(
            ReplicaRow.TABLE, r.inodeId(), "block_id", r.blockId(), LockMode.READ_COMMITTED)) {
      StorageRef s = bm.datanodes().storage(replica.storageId());
      if (s != null && !corrupt.contains(s.id()) && bm.datanodes().isLive(s)) {
        locations.add(s);
      }
    }
    if (locations.isEmpty()) {
      return 0;
    }
    String[] uuids = new String[locations.size()];
    String[] storages = new String[locations.size()];
    StorageType[] types = new StorageType[locations.size()];
    for (int i = 0; i < uuids.length; i++) {
      uuids[i] = locations.get(i).datanodeUuid();
      storages[i] = locations.get(i).storageUuid();
      types[i] = locations.get(i).type();
    }
    out.add(
        new BlockWithLocations(
            new Block(b.blockId(), b.numBytes(), b.generationStamp()), uuids, storages, types));
    return b.numBytes();
  }

  /** The block keys for the balancer (HDFS's dummy keys when block tokens are off). */
  @Override
  public ExportedBlockKeys getBlockKeys() throws IOException {
    checkSuperuser(checkers, "getBlockKeys");
    return blockTokens.exportKeys();
  }

  /** There is no edit log: a number that never goes down stands in for its last txid. */
  @Override
  public long getTransactionID() throws IOException {
    checkSuperuser(checkers, "getTransactionID");
    return txid.updateAndGet(t -> Math.max(t, System.currentTimeMillis()));
  }

  @Override
  public long getMostRecentCheckpointTxId() throws IOException {
    checkSuperuser(checkers, "getMostRecentCheckpointTxId");
    return txid.updateAndGet(t -> Math.max(t, System.currentTimeMillis()));
  }

  @Override
  public long getMostRecentNameNodeFileTxId(NNStorage.NameNodeFile nnf) {
    throw unsupported("getMostRecentNameNodeFileTxId", "it keeps no image files");
  }

  @Override
  public CheckpointSignature rollEditLog() {
    throw unsupported("rollEditLog", "it has no edit log (metadata lives in the database)");
  }

  @Override
  public void errorReport(NamenodeRegistration registration, int errorCode, String msg) {
    throw unsupported("errorReport", "it has no backup or checkpoint namenodes");
  }

  @Override
  public NamenodeRegistration registerSubordinateNamenode(NamenodeRegistration registration) {
    throw unsupported("registerSubordinateNamenode", "it has no backup or checkpoint namenodes");
  }

  @Override
  public NamenodeCommand startCheckpoint(NamenodeRegistration registration) {
    throw unsupported("startCheckpoint", "it has no checkpoints (metadata lives in the database)");
  }

  @Override
  public void endCheckpoint(NamenodeRegistration registration, CheckpointSignature sig) {
    throw unsupported("endCheckpoint", "it has no checkpoints (metadata lives in the database)");
  }

  @Override
  public RemoteEditLogManifest getEditLogManifest(long sinceTxId) {
    throw unsupported("getEditLogManifest", "it has no edit log (metadata lives in the database)");
  }

  /** Upgrades are schema upgrades of the database, finalized when the namenode starts. */
  @Override
  public boolean isUpgradeFinalized() throws IOException {
    checkSuperuser(checkers, "isUpgradeFinalized");
    return true;
  }

  @Override
  public boolean isRollingUpgrade() throws IOException {
    checkSuperuser(checkers, "isRollingUpgrade");
    return false;
  }

  /** No external storage policy satisfier is served: nothing to hand out, as HDFS with it off. */
  @Override
  public Long getNextSPSPath() throws IOException {
    checkSuperuser(checkers, "getNextSPSPath");
    return null;
  }
}
