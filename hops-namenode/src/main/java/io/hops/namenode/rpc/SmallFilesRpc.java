package io.hops.namenode.rpc;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.dal.IdPool;
import io.hops.dal.TableFullException;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.config.Limits;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.FileStatuses;
import io.hops.namenode.ops.ReadSmallFile;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's side of {@link SmallFilesProtocol}: a create-and-complete with the bytes, and a
 * read of them, each one transaction. The create is at most once, as HDFS's create: a retry of the
 * same call (same client id and call id, after a failover on another namenode) answers the first
 * call's outcome from the retry cache instead of {@code FileAlreadyExistsException}.
 */
public final class SmallFilesRpc implements SmallFilesProtocol {
  private static final Logger LOG = LoggerFactory.getLogger(SmallFilesRpc.class);
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;
  private final BlockManager blocks;
  private final IdPool inodeIds;
  private final LeaseManager leases;
  private final Limits limits;
  private final FileStatuses statuses;
  private final UsersAndGroups users;
  private final SmallFileStore store;
  private final io.hops.namenode.ops.snapshot.SnapshotSettings snapshots;
  private final java.util.function.Consumer<io.hops.dal.rows.InodeRow> reads;

  /**
   * @param reads told of each file read, as {@code getBlockLocations} tells its access-time keeper
   */
  public SmallFilesRpc(
      TransactionRunner runner,
      PermissionCheckers checkers,
      BlockManager blocks,
      IdPool inodeIds,
      LeaseManager leases,
      Limits limits,
      SmallFileStore smallFiles,
      io.hops.namenode.ops.snapshot.SnapshotSettings snapshots,
      FileStatuses statuses,
      UsersAndGroups users,
      java.util.function.Consumer<io.hops.dal.rows.InodeRow> reads) {
    this.runner = runner;
    this.checkers = checkers;
    this.blocks = blocks;
    this.inodeIds = inodeIds;
    this.snapshots = snapshots;
    this.leases = leases;
    this.limits = limits;
    this.statuses = statuses;
    this.users = users;
    this.store = smallFiles;
    this.reads = reads;
  }

  @Override
  public boolean createSmallFile(
      String src,
      short permission,
      String clientName,
      boolean overwrite,
      boolean createParent,
      short replication,
      long blockSize,
      byte[] data)
      throws IOException {
    var pc = checkers.ofCaller();
    EnumSet<CreateFlag> flags =
        overwrite
            ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
            : EnumSet.of(CreateFlag.CREATE);
    byte[] bytes = data == null ? new byte[0] : data;
    String holder = users.longNames().remember(clientName);
    try {
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
                          new FsPermission(permission),
                          holder,
                          flags,
                          createParent,
                          replication,
                          blockSize,
                          null,
                          null)
                      .withData(store, bytes),
              ClientCalls.keptWith("createSmallFile"))
          != null;
    } catch (TableFullException e) {
      // HOPS-155: the tier's table is full; the client writes the file to datanodes instead.
      LOG.warn(
          "{}: the database has no room for {} bytes, declined: {}",
          src,
          bytes.length,
          e.getMessage());
      return false;
    }
  }

  @Override
  public boolean appendSmallFile(long fileId, long expectedLength, String clientName, byte[] data)
      throws IOException {
    var pc = checkers.ofCaller();
    byte[] bytes = data == null ? new byte[0] : data;
    try {
      return runner.runAtMostOnce(
          () ->
              new io.hops.namenode.ops.AppendSmallFile(
                  pc, store, inodeIds, fileId, expectedLength, bytes, blocks.now()),
          ClientCalls.keptWith("appendSmallFile"));
    } catch (TableFullException e) {
      LOG.warn("file {}: the database has no room to append, declined: {}", fileId, e.getMessage());
      return false;
    }
  }

  /**
   * One transaction without row locks; a second, locking the file shared, only when the first met a
   * write to the file ({@link ReadSmallFile}). The access time is kept as for {@code
   * getBlockLocations}, after the answer, off the read's path.
   */
  @Override
  public ByteBuffer readSmallFile(String src) throws IOException {
    var pc = checkers.ofCaller();
    ReadSmallFile.Answer a =
        runner.run(() -> new ReadSmallFile(pc, store, src).snapshots(snapshots).lockFree());
    if (a.unsure()) {
      a = runner.run(() -> new ReadSmallFile(pc, store, src).snapshots(snapshots));
    }
    reads.accept(a.file());
    // Wrapped, not copied: the translator puts it straight into the response.
    return a.data() == null ? null : ByteBuffer.wrap(a.data());
  }
}
