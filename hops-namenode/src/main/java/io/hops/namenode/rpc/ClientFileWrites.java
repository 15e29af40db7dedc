package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signed;

import io.hops.dal.IdPool;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.config.Limits;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.AbandonBlock;
import io.hops.namenode.ops.AddBlock;
import io.hops.namenode.ops.Append;
import io.hops.namenode.ops.Complete;
import io.hops.namenode.ops.Concat;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.ops.Fsync;
import io.hops.namenode.ops.StoredInDatabaseException;
import io.hops.namenode.ops.Truncate;
import io.hops.namenode.security.BlockTokens;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.smallfiles.DatabaseFileMover;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.EnumSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.AddBlockFlag;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.hdfs.server.namenode.NotReplicatedYetException;
import org.apache.hadoop.io.EnumSetWritable;

/**
 * The {@code ClientProtocol} calls that write a file's contents: create, add a block, complete,
 * append, fsync, abandon a block, concat and truncate. A file stored in the database is moved to
 * datanodes before an append or a concat that meets it.
 */
public final class ClientFileWrites {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final IdPool inodeIds;
  private final LeaseManager leases;
  private final Limits limits;
  private final SmallFileStore smallFiles;
  private final FileStatuses statuses;
  private final UsersAndGroups users;
  private final BlockTokens blockTokens;
  private final RecentReceiptsApplier receipts;

  /** Who moves database files to datanodes before a stock append or a concat; null: nobody. */
  private volatile DatabaseFileMover databaseFileMover;

  public ClientFileWrites(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      IdPool inodeIds,
      LeaseManager leases,
      Limits limits,
      SmallFileStore smallFiles,
      FileStatuses statuses,
      UsersAndGroups users,
      BlockTokens blockTokens) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.inodeIds = inodeIds;
    this.leases = leases;
    this.limits = limits;
    this.smallFiles = smallFiles;
    this.statuses = statuses;
    this.users = users;
    this.blockTokens = blockTokens;
    this.receipts = new RecentReceiptsApplier(runner, blocks);
  }

  void setDatabaseFileMover(DatabaseFileMover mover) {
    this.databaseFileMover = mover;
  }

  /**
   * The key a client's lease is held under: its name, or for a name too long to be a key a digest,
   * whose text is stored first so that listings can show it ({@link LongNames}).
   */
  private String holder(String clientName) throws IOException {
    return users.longNames().remember(clientName);
  }

  HdfsFileStatus create(
      String src,
      FsPermission masked,
      String clientName,
      EnumSetWritable<CreateFlag> flag,
      boolean createParent,
      short replication,
      long blockSize,
      CryptoProtocolVersion[] supportedVersions,
      String ecPolicyName,
      String storagePolicy)
      throws IOException {
    var pc = checkers.ofCaller();
    var flags = flag.get();
    String holder = holder(clientName);
    return runner.runAtMostOnce(
        () ->
            new Create(
                limits,
                blocks.clock(),
                inodeIds,
                statuses,
                pc,
                leases,
                src,
                masked,
                holder,
                flags,
                createParent,
                replication,
                blockSize,
                ecPolicyName,
                storagePolicy),
        ClientCalls.keptWith("create"));
  }

  boolean complete(String src, String clientName, ExtendedBlock last, long fileId)
      throws IOException {
    var pc = checkers.ofCaller();
    AtomicReference<Complete> op = new AtomicReference<>();
    Supplier<Complete> complete =
        () -> {
          op.set(new Complete(blocks, pc, src, LongNames.key(clientName), last, fileId));
          return op.get();
        };
    boolean done = runner.run(complete);
    if (!done && receipts.apply(op.get().waitingFor())) {
      done = runner.run(complete);
    }
    return done;
  }

  LocatedBlock addBlock(
      String src,
      String clientName,
      ExtendedBlock previous,
      DatanodeInfo[] excludeNodes,
      long fileId,
      String[] favoredNodes,
      EnumSet<AddBlockFlag> addBlockFlags)
      throws IOException {
    String writer = checkers.ofCaller().caller().clientMachine();
    AtomicReference<AddBlock> op = new AtomicReference<>();
    Supplier<AddBlock> addBlock =
        () -> {
          op.set(
              new AddBlock(
                  blocks,
                  writer,
                  src,
                  fileId,
                  LongNames.key(clientName),
                  previous,
                  excludeNodes,
                  favoredNodes));
          return op.get();
        };
    LocatedBlock added;
    try {
      added = runner.run(addBlock);
    } catch (NotReplicatedYetException e) {
      if (!receipts.apply(List.of(op.get().waitingFor()))) {
        throw e;
      }
      added = runner.run(addBlock);
    }
    return signed(blockTokens, added, AccessMode.WRITE);
  }

  LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    var pc = checkers.ofCaller();
    var flags = flag == null ? null : flag.get();
    String holder = holder(clientName);
    var appended =
        afterMovingFromDatabase(
            pc,
            () ->
                runner.runAtMostOnce(
                    () -> new Append(blocks, statuses, pc, leases, src, holder, flags),
                    ClientCalls.keptWith("append")));
    if (appended != null) {
      signed(blockTokens, appended.getLastBlock(), AccessMode.WRITE);
    }
    return appended;
  }

  void fsync(String src, long fileId, String clientName, long lastBlockLength) throws IOException {
    var pc = checkers.ofCaller();
    String holder = LongNames.key(clientName);
    runner.run(() -> new Fsync(pc, src, fileId, holder, lastBlockLength));
  }

  void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    var pc = checkers.ofCaller();
    String key = LongNames.key(holder);
    runner.run(() -> new AbandonBlock(pc, blocks, b, fileId, src, key));
  }

  void concat(String trg, String[] srcs) throws IOException {
    var pc = checkers.ofCaller();
    afterMovingFromDatabase(
        pc,
        () ->
            runner.runAtMostOnce(
                () -> new Concat(blocks, pc, trg, srcs), ClientCalls.keptWith("concat")));
  }

  boolean truncate(String src, long newLength, String clientName) throws IOException {
    var pc = checkers.ofCaller();
    String holder = holder(clientName);
    return runner.run(
        () ->
            new Truncate(blocks, inodeIds, pc, leases, src, newLength, holder)
                .withSmallFiles(smallFiles));
  }

  /** One run of an operation that may meet a database file. */
  @FunctionalInterface
  private interface BlockOperation<T> {
    T run() throws IOException;
  }

  /**
   * Runs {@code op}; each time it meets a file stored in the database, moves that file to datanodes
   * (docs/architecture.md, "Small files in the database": it stays there, as a file an append grew
   * past the maximum does) and runs it again. Files on datanodes cost nothing more. The operation
   * checked the caller's rights on the file before it met it (WRITE on an append's or concat's
   * target, READ on a concat's source).
   */
  private <T> T afterMovingFromDatabase(PermissionChecker pc, BlockOperation<T> op)
      throws IOException {
    var mover = databaseFileMover;
    Set<String> moved = new HashSet<>();
    while (true) {
      try {
        return op.run();
      } catch (StoredInDatabaseException e) {
        if (mover == null || !moved.add(e.path())) {
          throw e;
        }
        // Moved meanwhile by another caller, or not: the next run sees which.
        mover.moveIfInDatabase(pc, e.path(), FsAction.READ);
      }
    }
  }
}
