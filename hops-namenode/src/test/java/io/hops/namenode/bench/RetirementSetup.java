package io.hops.namenode.bench;

import static io.hops.namenode.bench.DatanodeRetirement.DATANODES;
import static io.hops.namenode.bench.DatanodeRetirement.FILE_BYTES;
import static io.hops.namenode.bench.DatanodeRetirement.PER_DIR;
import static io.hops.namenode.bench.DatanodeRetirement.REPLICATION;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.Block;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.server.datanode.DataNode;
import org.apache.hadoop.hdfs.server.datanode.SimulatedFSDataset;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocols;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * {@link DatanodeRetirement}'s files and replicas made without the client's write path (166,667
 * files through the client took about an hour), the same on both systems: N files of one {@link
 * DatanodeRetirement#FILE_BYTES} block at replication 3, block i's replicas on datanodes i, i+1 and
 * i+2 (mod {@link DatanodeRetirement#DATANODES}), so each datanode holds 3N/5 of them. The
 * datanodes' {@link SimulatedFSDataset}s are given their blocks ({@code injectBlocks}, as {@code
 * MiniDFSCluster.injectBlocks}) and send a full report; a system is ready when its namenode lists
 * every datanode with its replicas and has no block queued for replication.
 *
 * <ul>
 *   <li>hops: the inode, block, offset and lookup rows of each file written straight into the store
 *       (what {@code create}, {@code addBlock} and {@code complete} leave, as {@code BulkTree}
 *       writes empty files), with ids from ranges the namenode's allocators never reach, in manual
 *       safe mode so that no copy is made while the reports come in one datanode at a time; then
 *       safe mode is left and the replication checks the reports queued run (every block is found
 *       satisfied).
 *   <li>HDFS: its NameNode's RPC server called in this process ({@code NNThroughputBenchmark}'s
 *       way): {@code create} and {@code addBlock} with the three datanodes as favoured nodes; the
 *       datanodes then report the blocks while they are under construction (HDFS queues no copy for
 *       them), and {@code complete} finds them replicated.
 * </ul>
 */
final class RetirementSetup {
  private static final long FIRST_BLOCK = 1L << 40;
  private static final long FIRST_INODE = 1L << 43;
  private static final long GENERATION_STAMP = 1001;
  private static final int ROWS_PER_TX = 4_000;
  private static final int HDFS_CALLERS = 4;
  private static final String CLIENT = "retirement-setup";

  private RetirementSetup() {}

  /** The datanodes (their index) that hold block {@code i}'s replicas. */
  static int[] holders(int i) {
    int[] h = new int[REPLICATION];
    for (int r = 0; r < REPLICATION; r++) {
      h[r] = (i + r) % DATANODES;
    }
    return h;
  }

  /** Makes the files and replicas on hops; returns the replicas each datanode was given. */
  static long[] hops(HopsNameNode nn, DistributedFileSystem fs, List<DataNode> dns, int files)
      throws Exception {
    Path top = new Path("/retire");
    fs.mkdirs(top);
    fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
    writeRows(nn.namesystem().storage(), fs, top, files);
    List<List<Block>> given = new ArrayList<>();
    for (int d = 0; d < DATANODES; d++) {
      given.add(new ArrayList<>());
    }
    for (int i = 0; i < files; i++) {
      for (int d : holders(i)) {
        given.get(d).add(new Block(FIRST_BLOCK + i, FILE_BYTES, GENERATION_STAMP));
      }
    }
    long[] counts = inject(dns, nn.namesystem().blocks().blockPoolId(), given);
    awaitHeld(fs, dns, counts);
    fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
    awaitNoChecksQueued(nn.namesystem().storage());
    return counts;
  }

  /**
   * The rows of /retire/dD/fF: directories of {@link DatanodeRetirement#PER_DIR} closed files of
   * one complete block each.
   */
  private static void writeRows(Storage storage, DistributedFileSystem fs, Path top, int files)
      throws IOException {
    long topId = ((HdfsFileStatus) fs.getFileStatus(top)).getFileId();
    InodeRow parent;
    try (Transaction tx = storage.begin()) {
      parent = tx.findByIndex(InodeRow.TABLE, "id", topId, LockMode.READ_COMMITTED).get(0);
    }
    long now = System.currentTimeMillis();
    int dirs = (files + PER_DIR - 1) / PER_DIR;
    long nextId = FIRST_INODE;
    int rows = 0;
    Transaction tx = storage.begin();
    try {
      for (int d = 0; d < dirs; d++) {
        MutableInode dir = inode(parent, "d" + d, nextId++, now);
        dir.isDir = true;
        dir.permission = 0755;
        dir.childrenCount = Math.min(PER_DIR, files - d * PER_DIR);
        tx.insert(InodeRow.TABLE, dir.toRow());
        InodeRow dirRow = dir.toRow();
        for (int f = 0; f < dir.childrenCount; f++) {
          int i = d * PER_DIR + f;
          MutableInode file = inode(dirRow, "f" + f, nextId++, now);
          file.size = FILE_BYTES;
          file.replication = REPLICATION;
          file.preferredBlockSize = 1024L * 1024;
          tx.insert(InodeRow.TABLE, file.toRow());
          BlockInfoRow b =
              new BlockInfoRow(
                  file.id,
                  FIRST_BLOCK + i,
                  0,
                  0,
                  FILE_BYTES,
                  GENERATION_STAMP,
                  BlockState.COMPLETE,
                  now,
                  -1,
                  0);
          tx.insert(BlockInfoRow.TABLE, b);
          tx.insert(BlockOffsetRow.TABLE, BlockOffsetRow.of(b));
          tx.insert(BlockLookupRow.TABLE, new BlockLookupRow(b.blockId(), file.id));
          rows += 4;
          if (rows >= ROWS_PER_TX) {
            tx.commit();
            tx.close();
            tx = storage.begin();
            rows = 0;
          }
        }
      }
      InodeRow locked =
          tx.find(InodeRow.TABLE, Inodes.key(parent.parentId(), parent.name()), LockMode.EXCLUSIVE);
      MutableInode p = MutableInode.of(locked);
      p.childrenCount += dirs;
      tx.update(InodeRow.TABLE, p.toRow());
      tx.commit();
    } finally {
      tx.close();
    }
  }

  /** A closed, empty file {@code name} below {@code parent}, owned as its parent. */
  private static MutableInode inode(InodeRow parent, String name, long id, long now) {
    MutableInode m = MutableInode.of(parent);
    m.parentId = parent.id();
    m.name = name;
    m.id = id;
    m.isDir = false;
    m.permission = 0644;
    m.modificationTime = now;
    m.accessTime = now;
    m.size = 0;
    m.replication = 0;
    m.preferredBlockSize = 0;
    m.underConstruction = false;
    m.clientName = null;
    m.clientMachine = null;
    m.subtreeLocked = false;
    m.subtreeLockOwner = 0;
    m.fileStoredInDb = false;
    m.storagePolicy = 0;
    m.childrenCount = 0;
    m.hasQuota = false;
    m.symlink = null;
    m.snapshottable = false;
    return m;
  }

  /** Waits until no replication check is queued or pending (the leader found every block full). */
  private static void awaitNoChecksQueued(Storage storage) throws Exception {
    while (true) {
      try (Transaction tx = storage.begin()) {
        if (tx.scanAll(UnderReplicatedBlockRow.TABLE, LockMode.READ_COMMITTED).isEmpty()
            && tx.scanAll(PendingBlockRow.TABLE, LockMode.READ_COMMITTED).isEmpty()) {
          return;
        }
      }
      Thread.sleep(1000);
    }
  }

  /** Makes the files and replicas on HDFS; returns the replicas each datanode was given. */
  static long[] hdfs(MiniDFSCluster hdfs, DistributedFileSystem fs, int files) throws Exception {
    List<DataNode> dns = hdfs.getDataNodes();
    Map<String, Integer> index = new HashMap<>();
    String[] addr = new String[DATANODES];
    for (int d = 0; d < DATANODES; d++) {
      addr[d] = dns.get(d).getDatanodeId().getXferAddr();
      index.put(addr[d], d);
    }
    int dirs = (files + PER_DIR - 1) / PER_DIR;
    for (int d = 0; d < dirs; d++) {
      fs.mkdirs(new Path("/retire/d" + d));
    }
    NamenodeProtocols rpc = hdfs.getNameNodeRpc();
    long[] fileIds = new long[files];
    ExtendedBlock[] blocks = new ExtendedBlock[files];
    List<List<Block>> given = new ArrayList<>();
    for (int d = 0; d < DATANODES; d++) {
      given.add(new ArrayList<>());
    }
    AtomicInteger elsewhere = new AtomicInteger();
    inParallel(
        files,
        i -> {
          String src = DatanodeRetirement.file(i).toString();
          HdfsFileStatus st =
              rpc.create(
                  src,
                  FsPermission.getFileDefault(),
                  CLIENT,
                  new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)),
                  true,
                  REPLICATION,
                  1024L * 1024,
                  null,
                  null,
                  null);
          String[] favoured = new String[REPLICATION];
          int[] h = holders(i);
          for (int r = 0; r < REPLICATION; r++) {
            favoured[r] = addr[h[r]];
          }
          LocatedBlock lb = rpc.addBlock(src, CLIENT, null, null, st.getFileId(), favoured, null);
          fileIds[i] = st.getFileId();
          blocks[i] = lb.getBlock();
          Block b =
              new Block(lb.getBlock().getBlockId(), FILE_BYTES, lb.getBlock().getGenerationStamp());
          // The replicas go where HDFS placed them (a real pipeline's targets): the favoured
          // nodes unless HDFS chose otherwise, which is counted.
          for (DatanodeInfo target : lb.getLocations()) {
            int d = index.get(target.getXferAddr());
            if (d != h[0] && d != h[1] && d != h[2]) {
              elsewhere.incrementAndGet();
            }
            synchronized (given) {
              given.get(d).add(b);
            }
          }
          if (i % 10_000 == 0) {
            rpc.renewLease(CLIENT, null);
          }
        });
    System.out.printf("hdfs setup: %,d replicas placed off the favoured nodes%n", elsewhere.get());
    long[] counts = inject(dns, hdfs.getNamesystem().getBlockPoolId(), given);
    awaitHeld(fs, dns, counts);
    inParallel(
        files,
        i -> {
          ExtendedBlock last = new ExtendedBlock(blocks[i]);
          last.setNumBytes(FILE_BYTES);
          String src = DatanodeRetirement.file(i).toString();
          while (!rpc.complete(src, CLIENT, last, fileIds[i])) {
            Thread.sleep(10);
          }
        });
    while (fs.getLowRedundancyBlocksCount() > 0
        || hdfs.getNamesystem().getBlockManager().getPendingReconstructionBlocksCount() > 0) {
      Thread.sleep(1000);
    }
    return counts;
  }

  /** One file's calls. */
  private interface PerFile {
    void run(int i) throws Exception;
  }

  private static void inParallel(int files, PerFile each) throws Exception {
    ExecutorService pool = Executors.newFixedThreadPool(HDFS_CALLERS);
    try {
      List<Future<?>> done = new ArrayList<>();
      for (int t = 0; t < HDFS_CALLERS; t++) {
        int me = t;
        done.add(
            pool.submit(
                () -> {
                  for (int i = me; i < files; i += HDFS_CALLERS) {
                    each.run(i);
                  }
                  return null;
                }));
      }
      for (Future<?> f : done) {
        f.get();
      }
    } finally {
      pool.shutdown();
    }
  }

  /** Gives each datanode its blocks and asks it for a full report; the counts given. */
  private static long[] inject(List<DataNode> dns, String pool, List<List<Block>> given)
      throws IOException {
    long[] counts = new long[DATANODES];
    for (int d = 0; d < DATANODES; d++) {
      ((SimulatedFSDataset) dns.get(d).getFSDataset()).injectBlocks(pool, given.get(d));
      counts[d] = given.get(d).size();
    }
    for (DataNode dn : dns) {
      dn.scheduleAllBlockReport(0);
    }
    return counts;
  }

  /** Waits until the namenode lists each datanode with (at least) the replicas it was given. */
  private static void awaitHeld(DistributedFileSystem fs, List<DataNode> dns, long[] counts)
      throws Exception {
    while (true) {
      boolean all = true;
      for (int d = 0; d < DATANODES; d++) {
        String uuid = dns.get(d).getDatanodeUuid();
        boolean found = false;
        for (DatanodeInfo i : fs.getDataNodeStats(DatanodeReportType.LIVE)) {
          found |= i.getDatanodeUuid().equals(uuid) && i.getNumBlocks() >= counts[d];
        }
        all &= found;
      }
      if (all) {
        return;
      }
      Thread.sleep(500);
    }
  }
}
