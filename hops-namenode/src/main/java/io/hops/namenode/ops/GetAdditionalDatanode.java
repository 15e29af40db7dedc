package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.BlockPlacement;
import io.hops.namenode.blocks.DatanodeState;
import io.hops.namenode.blocks.StoragePolicies;
import io.hops.namenode.blocks.StorageStat;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;

/**
 * {@code getAdditionalDatanode}: a writer whose pipeline lost a datanode asks for replacements
 * (HDFS FSNamesystem.getAdditionalDatanode). Checks the lease, then places {@code numAdditional}
 * new targets with {@link io.hops.namenode.blocks.BlockPlacement} away from the pipeline's and the
 * excluded datanodes, near the writer's machine; answers the existing pipeline followed by the new
 * nodes, which is what the client expects. Changes nothing: B + 2 PK.
 */
public final class GetAdditionalDatanode extends Operation<LocatedBlock> {
  private final PermissionChecker pc;
  private final BlockManager bm;
  private final String src;
  private final long fileId;
  private final ExtendedBlock blk;
  private final DatanodeInfo[] existings;
  private final String[] existingStorageIds;
  private final DatanodeInfo[] excludes;
  private final int numAdditional;
  private final String clientName;
  private ResolvedPath resolved;
  private InodeRow file;
  private LeaseChanges leases;

  @SuppressWarnings("TooManyParameters") // ClientProtocol.getAdditionalDatanode's own parameters
  public GetAdditionalDatanode(
      PermissionChecker pc,
      BlockManager bm,
      String src,
      long fileId,
      ExtendedBlock blk,
      DatanodeInfo[] existings,
      String[] existingStorageIds,
      DatanodeInfo[] excludes,
      int numAdditional,
      String clientName) {
    this.pc = pc;
    this.bm = bm;
    this.src = src;
    this.fileId = fileId;
    this.blk = blk;
    this.existings = existings == null ? new DatanodeInfo[0] : existings;
    this.existingStorageIds = existingStorageIds;
    this.excludes = excludes == null ? new DatanodeInfo[0] : excludes;
    this.numAdditional = numAdditional;
    this.clientName = clientName;
  }

  @Override
  public String name() {
    return "getAdditionalDatanode";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
    file = OpenFiles.lock(tx, resolved, fileId);
    leases = OpenFiles.leasesToCheck(tx, file, clientName);
  }

  @Override
  protected LocatedBlock execute(ExecutePhase tx) throws IOException {
    if (fileId == HdfsConstants.GRANDFATHER_INODE_ID) {
      Checks.traverseNotCreating(pc, resolved);
    }
    OpenFiles.checkLease(file, src, fileId, clientName, leases);
    Set<String> excluded = new HashSet<>();
    for (DatanodeInfo d : existings) {
      excluded.add(d.getDatanodeUuid());
    }
    for (DatanodeInfo d : excludes) {
      excluded.add(d.getDatanodeUuid());
    }
    // HDFS chooseTarget4AdditionalDatanode: the pipeline's storages count as chosen, so the new
    // ones get the types the file's policy still wants (with its replication fallbacks).
    List<StorageType> existingTypes = new ArrayList<>();
    List<BlockPlacement.Placed> placed = new ArrayList<>();
    for (int i = 0; i < existings.length; i++) {
      existingTypes.add(typeOf(existings[i], storageIdAt(i)));
      placed.add(new BlockPlacement.Placed(existings[i].getDatanodeUuid(), existingTypes.get(i)));
    }
    List<StorageStat> chosen =
        bm.placement()
            .chooseTargets(
                numAdditional,
                file.clientMachine(),
                excluded,
                List.of(),
                file.preferredBlockSize(),
                StoragePolicies.ofFile(resolved.inodes(), file),
                placed);
    List<DatanodeInfoWithStorage> nodes = new ArrayList<>();
    for (int i = 0; i < existings.length; i++) {
      nodes.add(new DatanodeInfoWithStorage(existings[i], storageIdAt(i), existingTypes.get(i)));
    }
    for (StorageStat s : chosen) {
      DatanodeState n = bm.datanodes().node(s.ref.datanodeUuid());
      nodes.add(new DatanodeInfoWithStorage(n.info(), s.ref.storageUuid(), s.ref.type()));
    }
    DatanodeInfoWithStorage[] locs = nodes.toArray(new DatanodeInfoWithStorage[0]);
    String[] storageIds = new String[locs.length];
    StorageType[] types = new StorageType[locs.length];
    for (int i = 0; i < locs.length; i++) {
      storageIds[i] = locs[i].getStorageID();
      types[i] = locs[i].getStorageType();
    }
    return new LocatedBlock(blk, locs, storageIds, types, -1, false, new DatanodeInfo[0]);
  }

  private String storageIdAt(int i) {
    return existingStorageIds != null && i < existingStorageIds.length
        ? existingStorageIds[i]
        : null;
  }

  private StorageType typeOf(DatanodeInfo d, String storageUuid) {
    DatanodeState n = bm.datanodes().node(d.getDatanodeUuid());
    if (n != null) {
      for (StorageStat s : n.storages()) {
        if (s.ref.storageUuid().equals(storageUuid)) {
          return s.ref.type();
        }
      }
    }
    return StorageType.DEFAULT;
  }
}
