package io.hops.namenode.rpc;

import static io.hops.namenode.rpc.BlockTokenSigning.signed;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.AbandonBlock;
import io.hops.namenode.ops.AddBlock;
import io.hops.namenode.ops.Append;
import io.hops.namenode.ops.Complete;
import io.hops.namenode.ops.Concat;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.Fsync;
import io.hops.namenode.ops.StoredInDatabaseException;
import io.hops.namenode.ops.Truncate;
import io.hops.namenode.security.LongNames;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.smallfiles.DatabaseFileMover;
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
final class ClientFileWrites {
  private final Namesystem ns;
  private final RecentReceiptsApplier receipts;

  /** Who moves database files to datanodes before a stock append or a concat; null: nobody. */
  private volatile DatabaseFileMover databaseFileMover;

  ClientFileWrites(Namesystem ns) {
    this.ns = ns;
    this.receipts = new RecentReceiptsApplier(ns);
  }

  void setDatabaseFileMover(DatabaseFileMover mover) {
    this.databaseFileMover = mover;
  }

  /**
   * The key a client's lease is held under: its name, or for a name too long to be a key a digest,
   * whose text is stored first so that listings can show it ({@link LongNames}).
   */
  private String holder(String clientName) throws IOException {
    return ns.users().longNames().remember(clientName);
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
    var pc = ns.checker();
    var flags = flag.get();
    var leases = ns.leases();
    String holder = holder(clientName);
    return ns.runAtMostOnce(
        ClientCalls.keptWith("create"),
        () ->
            new Create(
                ns.limits(),
                ns.blocks().clock(),
                ns.inodeIds(),
                ns.statuses(),
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
                storagePolicy));
  }

  boolean complete(String src, String clientName, ExtendedBlock last, long fileId)
      throws IOException {
    var pc = ns.checker();
    AtomicReference<Complete> op = new AtomicReference<>();
    Supplier<Complete> complete =
        () -> {
          op.set(new Complete(ns.blocks(), pc, src, LongNames.key(clientName), last, fileId));
          return op.get();
        };
    boolean done = ns.run(complete);
    if (!done && receipts.apply(op.get().waitingFor())) {
      done = ns.run(complete);
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
    String writer = ns.checker().caller().clientMachine();
    AtomicReference<AddBlock> op = new AtomicReference<>();
    Supplier<AddBlock> addBlock =
        () -> {
          op.set(
              new AddBlock(
                  ns.blocks(),
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
      added = ns.run(addBlock);
    } catch (NotReplicatedYetException e) {
      if (!receipts.apply(List.of(op.get().waitingFor()))) {
        throw e;
      }
      added = ns.run(addBlock);
    }
    return signed(ns, added, AccessMode.WRITE);
  }

  LastBlockWithStatus append(String src, String clientName, EnumSetWritable<CreateFlag> flag)
      throws IOException {
    var pc = ns.checker();
    var flags = flag == null ? null : flag.get();
    var leases = ns.leases();
    String holder = holder(clientName);
    var appended =
        afterMovingFromDatabase(
            pc,
            () ->
                ns.runAtMostOnce(
                    ClientCalls.keptWith("append"),
                    () -> new Append(ns.blocks(), ns.statuses(), pc, leases, src, holder, flags)));
    if (appended != null) {
      signed(ns, appended.getLastBlock(), AccessMode.WRITE);
    }
    return appended;
  }

  void fsync(String src, long fileId, String clientName, long lastBlockLength) throws IOException {
    var pc = ns.checker();
    String holder = LongNames.key(clientName);
    ns.run(() -> new Fsync(pc, src, fileId, holder, lastBlockLength));
  }

  void abandonBlock(ExtendedBlock b, long fileId, String src, String holder) throws IOException {
    var pc = ns.checker();
    String key = LongNames.key(holder);
    ns.run(() -> new AbandonBlock(pc, ns.blocks(), b, fileId, src, key));
  }

  void concat(String trg, String[] srcs) throws IOException {
    var pc = ns.checker();
    afterMovingFromDatabase(
        pc,
        () ->
            ns.runAtMostOnce(
                ClientCalls.keptWith("concat"), () -> new Concat(ns.blocks(), pc, trg, srcs)));
  }

  boolean truncate(String src, long newLength, String clientName) throws IOException {
    var pc = ns.checker();
    var leases = ns.leases();
    String holder = holder(clientName);
    return ns.run(
        () ->
            new Truncate(ns.blocks(), ns.inodeIds(), pc, leases, src, newLength, holder)
                .withSmallFiles(ns.smallFiles()));
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
