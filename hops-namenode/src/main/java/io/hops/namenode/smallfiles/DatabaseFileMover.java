package io.hops.namenode.smallfiles;

import io.hops.dal.IdPool;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.faults.Faults;
import io.hops.namenode.ops.Concat;
import io.hops.namenode.ops.DatabaseFileToMove;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.net.URI;
import java.security.PrivilegedExceptionAction;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Moves a file stored in the database to datanodes, so that the operations that need blocks (a
 * stock client's append, concat) then run on it as HDFS does. The bytes are written, through a
 * stock client of this namenode as the superuser, to a hidden file next to it with its replication
 * and block size; then one transaction (a {@link Concat} that adopts a database target) gives that
 * file's blocks to the database file, removes its rows and clears its database flag, so the file
 * keeps its inode, owner, times and name, and readers see the same bytes throughout. An empty file
 * only loses the flag. A file changed meanwhile is not adopted (the hidden file goes), and the
 * operation that follows meets it as it is.
 *
 * <p>Each move is recorded in the database before its hidden file is written and forgotten after
 * the adoption ({@link MoveRecords}): should this namenode die in between, the leader's
 * housekeeping deletes the hidden file once the record is old enough.
 */
public final class DatabaseFileMover {
  private static final Logger LOG = LoggerFactory.getLogger(DatabaseFileMover.class);

  /** The hidden file's name: {@code .hops-move-<inode id>-<random>}. */
  static final String PREFIX = ".hops-move-";

  private final TransactionRunner runner;
  private final SmallFileStore smallFiles;
  private final IdPool inodeIds;
  private final BlockManager blocks;
  private final PermissionCheckers checkers;
  private final Faults faults;
  private final URI self;
  private final Configuration conf;

  public DatabaseFileMover(
      TransactionRunner runner,
      SmallFileStore smallFiles,
      IdPool inodeIds,
      BlockManager blocks,
      PermissionCheckers checkers,
      Faults faults,
      URI self,
      Configuration conf) {
    this.runner = runner;
    this.smallFiles = smallFiles;
    this.inodeIds = inodeIds;
    this.blocks = blocks;
    this.checkers = checkers;
    this.faults = faults;
    this.self = self;
    this.conf = new Configuration(conf);
    this.conf.set("fs.hdfs.impl", DistributedFileSystem.class.getName());
    this.conf.setBoolean("fs.hdfs.impl.disable.cache", true);
  }

  /**
   * Moves {@code src} to datanodes if it is a database file the caller has {@code access} to;
   * whether it moved.
   */
  public boolean moveIfInDatabase(PermissionChecker caller, String src, FsAction access)
      throws IOException {
    DatabaseFileToMove.Found found =
        runner.run(() -> new DatabaseFileToMove(caller, smallFiles, src, access));
    if (found == null) {
      return false;
    }
    Path file = new Path(found.path());
    String suffix = found.id() + "-" + Long.toHexString(ThreadLocalRandom.current().nextLong());
    Path hidden = new Path(file.getParent(), PREFIX + suffix);
    String record = MoveRecords.rowName(suffix);
    runner.run(() -> new MoveRecords.Begin(suffix, found.directoryId(), blocks.now()));
    boolean moved;
    try {
      moved = move(found, hidden);
    } catch (IOException | RuntimeException e) {
      // The hidden file may be there, part written: the record stays unless it surely is not.
      try {
        asSuperuser(fs -> fs.delete(hidden, false));
        runner.run(() -> new MoveRecords.End(record));
      } catch (IOException | RuntimeException again) {
        e.addSuppressed(again);
      }
      throw e;
    }
    runner.run(() -> new MoveRecords.End(record));
    return moved;
  }

  private boolean move(DatabaseFileToMove.Found found, Path hidden) throws IOException {
    asSuperuser(
        fs -> {
          try (FSDataOutputStream out =
              fs.create(
                  hidden,
                  new FsPermission((short) 0600),
                  false,
                  4096,
                  found.replication(),
                  found.blockSize(),
                  null)) {
            out.write(found.data());
          }
          return null;
        });
    faults.at(Faults.Point.DATABASE_FILE_HIDDEN);
    PermissionChecker superuser = checkers.ofSuperuser();
    try {
      runner.run(
          () ->
              new Concat(blocks, superuser, found.path(), new String[] {hidden.toString()})
                  .adoptingDatabaseTarget(smallFiles, found.id(), inodeIds));
    } catch (IOException | RuntimeException e) {
      LOG.info("{} not moved to datanodes: {}", found.path(), e.toString());
      asSuperuser(fs -> fs.delete(hidden, false));
      return false;
    }
    LOG.debug("{} ({} bytes) moved to datanodes", found.path(), found.data().length);
    return true;
  }

  @FunctionalInterface
  private interface FsCall<T> {
    T run(FileSystem fs) throws IOException;
  }

  private <T> T asSuperuser(FsCall<T> call) throws IOException {
    try {
      return UserGroupInformation.getLoginUser()
          .doAs(
              (PrivilegedExceptionAction<T>)
                  () -> {
                    try (FileSystem fs = FileSystem.newInstance(self, conf)) {
                      return call.run(fs);
                    }
                  });
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new java.io.InterruptedIOException("interrupted moving a file to datanodes");
    }
  }
}
