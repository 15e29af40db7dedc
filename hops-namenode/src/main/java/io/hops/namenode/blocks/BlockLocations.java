package io.hops.namenode.blocks;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.ReplicaUnderConstructionRow;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.StorageType;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo.AdminStates;
import org.apache.hadoop.hdfs.protocol.DatanodeInfoWithStorage;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;

/**
 * How block rows become the {@link LocatedBlock}s clients read (HDFS
 * BlockManager.createLocatedBlocks), for {@link BlockManager}: where a block's replicas are, as
 * this namenode knows its datanodes, sorted for the reader.
 */
final class BlockLocations {
  private static final DatanodeInfo[] NO_LOCATIONS = {};

  private final DatanodeManager datanodes;
  private final BlockPlacement placement;
  private final NamespaceIds ids;

  BlockLocations(DatanodeManager datanodes, BlockPlacement placement, NamespaceIds ids) {
    this.datanodes = datanodes;
    this.placement = placement;
    this.ids = ids;
  }

  /** The block as the wire names it. */
  public ExtendedBlock extended(BlockInfoRow b) {
    return new ExtendedBlock(ids.blockPoolId(), b.blockId(), b.numBytes(), b.generationStamp());
  }

  /**
   * @param forRead false for fsck, which counts the replicas no reader is sent to (on datanodes in
   *     maintenance) too
   */
  LocatedBlocks locatedBlocks(
      FileBlocks f,
      boolean underConstruction,
      long offset,
      long length,
      String reader,
      boolean forRead) {
    if (f.isEmpty()) {
      return new LocatedBlocks(0, underConstruction, List.of(), null, false, null, null);
    }
    BlockInfoRow last = f.last();
    boolean lastComplete = last.underConstructionState() == BlockState.COMPLETE;
    // HDFS's length leaves out a last block under construction; the last block begins after the
    // others whether or not it is complete.
    long lastPos = f.lastStart();
    long fileLength = lastPos + (lastComplete ? last.numBytes() : 0);
    List<LocatedBlock> located = new ArrayList<>();
    for (FileBlocks.Placed p : f.inRange(offset, length)) {
      located.add(locatedBlock(f, p.block(), p.offset(), reader, forRead));
    }
    return new LocatedBlocks(
        fileLength,
        underConstruction,
        located,
        locatedBlock(f, last, lastPos, reader, forRead),
        lastComplete,
        null,
        null);
  }

  /**
   * One located block: a block not yet complete is where its pipeline is; a complete one is where
   * live replicas were reported, corrupt ones last (or only those, flagged, if all are corrupt).
   */
  LocatedBlock locatedBlock(FileBlocks f, BlockInfoRow b, long offset, String reader) {
    return locatedBlock(f, b, offset, reader, true);
  }

  private LocatedBlock locatedBlock(
      FileBlocks f, BlockInfoRow b, long offset, String reader, boolean forRead) {
    List<StorageRef> good = new ArrayList<>();
    List<StorageRef> bad = new ArrayList<>();
    if (b.underConstructionState() != BlockState.COMPLETE) {
      for (ReplicaUnderConstructionRow r : f.expected(b.blockId())) {
        addKnown(good, r.storageId());
      }
    }
    if (good.isEmpty()) {
      Set<Integer> corrupt = new HashSet<>();
      f.corrupt(b.blockId()).forEach(c -> corrupt.add(c.storageId()));
      for (ReplicaRow r : f.replicas(b.blockId())) {
        addKnown(corrupt.contains(r.storageId()) ? bad : good, r.storageId());
      }
    }
    boolean allCorrupt = good.isEmpty() && !bad.isEmpty();
    List<StorageRef> shown = allCorrupt ? bad : good;
    shown = new ArrayList<>(shown);
    shown.removeIf(s -> datanodes.node(s.datanodeUuid()) == null || (forRead && notForRead(s)));
    placement.sortForReader(shown, s -> datanodes.node(s.datanodeUuid()), reader);
    DatanodeInfoWithStorage[] locs = new DatanodeInfoWithStorage[shown.size()];
    String[] storageIds = new String[shown.size()];
    StorageType[] types = new StorageType[shown.size()];
    for (int i = 0; i < locs.length; i++) {
      StorageRef s = shown.get(i);
      DatanodeInfo info = datanodes.node(s.datanodeUuid()).info();
      locs[i] = new DatanodeInfoWithStorage(info, s.storageUuid(), s.type());
      storageIds[i] = s.storageUuid();
      types[i] = s.type();
    }
    return new LocatedBlock(extended(b), locs, storageIds, types, offset, allCorrupt, NO_LOCATIONS);
  }

  /**
   * A replica no reader is sent to (HDFS createLocatedBlock): on a datanode in maintenance, or
   * entering it and dead.
   */
  private boolean notForRead(StorageRef s) {
    DatanodeState n = datanodes.node(s.datanodeUuid());
    return n.adminState() == AdminStates.IN_MAINTENANCE
        || (n.adminState() == AdminStates.ENTERING_MAINTENANCE && !datanodes.isLive(n));
  }

  /** A new block's pipeline as the client gets it from addBlock. */
  LocatedBlock locatedNewBlock(BlockInfoRow b, List<StorageStat> targets, long offset) {
    DatanodeInfoWithStorage[] locs = new DatanodeInfoWithStorage[targets.size()];
    String[] storageIds = new String[targets.size()];
    StorageType[] types = new StorageType[targets.size()];
    for (int i = 0; i < locs.length; i++) {
      StorageStat s = targets.get(i);
      DatanodeState n = datanodes.node(s.ref.datanodeUuid());
      locs[i] = new DatanodeInfoWithStorage(n.info(), s.ref.storageUuid(), s.ref.type());
      storageIds[i] = s.ref.storageUuid();
      types[i] = s.ref.type();
    }
    return new LocatedBlock(extended(b), locs, storageIds, types, offset, false, NO_LOCATIONS);
  }

  private void addKnown(List<StorageRef> out, int storageId) {
    StorageRef s = datanodes.cachedStorage(storageId);
    if (s != null && !out.contains(s)) {
      out.add(s);
    }
  }
}
