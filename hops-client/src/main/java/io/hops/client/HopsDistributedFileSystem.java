package io.hops.client;

import io.hops.common.HopsConfig;
import java.io.IOException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Options.ChecksumOpt;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.BlockMissingException;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.Progressable;

/**
 * The stock HDFS client plus hops's small-file fast path (docs/architecture.md, "Small files in the
 * database"), chosen by configuration alone: {@code
 * fs.hdfs.impl=io.hops.client.HopsDistributedFileSystem}. A new file is buffered and sent with its
 * close in one call; the namenode keeps it in the database if its directory has the {@code DB}
 * storage policy, else the file is written to datanodes as usual. {@code open} asks for the bytes
 * of a database file in one call and reads other files as usual.
 *
 * <p>A file written this way exists from its close on (not from its create), and an error of the
 * create (the file exists, a permission) is raised by the close.
 */
public class HopsDistributedFileSystem extends DistributedFileSystem {
  /** Whether this client uses the fast path ({@code true} by default). */
  public static final String SMALL_FILES_ENABLED = "hops.client.smallfiles.enabled";

  // The exceptions the stock client unwraps from a namenode's answer to the same call (DFSClient's
  // open, DFSOutputStream's create, DFSClient's append); any other stays a RemoteException, as
  // there (an ACL refusal, a standby's or a retriable answer).
  private static final Class<?>[] OPEN_ERRORS = {
    org.apache.hadoop.security.AccessControlException.class,
    java.io.FileNotFoundException.class,
    org.apache.hadoop.hdfs.protocol.UnresolvedPathException.class
  };
  private static final Class<?>[] CREATE_ERRORS = {
    org.apache.hadoop.security.AccessControlException.class,
    org.apache.hadoop.hdfs.protocol.DSQuotaExceededException.class,
    org.apache.hadoop.hdfs.protocol.QuotaByStorageTypeExceededException.class,
    org.apache.hadoop.fs.FileAlreadyExistsException.class,
    java.io.FileNotFoundException.class,
    org.apache.hadoop.fs.ParentNotDirectoryException.class,
    org.apache.hadoop.hdfs.protocol.NSQuotaExceededException.class,
    org.apache.hadoop.hdfs.server.namenode.RetryStartFileException.class,
    org.apache.hadoop.hdfs.server.namenode.SafeModeException.class,
    org.apache.hadoop.hdfs.protocol.UnresolvedPathException.class,
    org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException.class,
    org.apache.hadoop.hdfs.UnknownCryptoProtocolVersionException.class
  };
  private static final Class<?>[] APPEND_ERRORS = {
    org.apache.hadoop.security.AccessControlException.class,
    java.io.FileNotFoundException.class,
    org.apache.hadoop.hdfs.server.namenode.SafeModeException.class,
    org.apache.hadoop.hdfs.protocol.DSQuotaExceededException.class,
    org.apache.hadoop.hdfs.protocol.QuotaByStorageTypeExceededException.class,
    UnsupportedOperationException.class,
    org.apache.hadoop.hdfs.protocol.UnresolvedPathException.class,
    org.apache.hadoop.hdfs.protocol.SnapshotAccessControlException.class
  };

  private SmallFilesClient smallFiles;
  private boolean enabled;
  private int max;

  @Override
  public void initialize(URI uri, Configuration conf) throws IOException {
    super.initialize(uri, conf);
    enabled = conf.getBoolean(SMALL_FILES_ENABLED, true);
    max = conf.getInt(HopsConfig.SMALL_FILE_MAX_SIZE, HopsConfig.SMALL_FILE_MAX_SIZE_DEFAULT);
    if (enabled) {
      smallFiles = new SmallFilesClient(uri, conf);
    }
  }

  /** The small-file calls of this file system (null when disabled). */
  SmallFilesClient smallFiles() {
    return smallFiles;
  }

  private String pathName(Path f) {
    Path p = fixRelativePart(f);
    checkPath(p);
    String result = p.toUri().getPath();
    if (!DFSUtilClient.isValidName(result)) {
      throw new IllegalArgumentException(
          "Pathname " + result + " from " + p + " is not a valid DFS filename.");
    }
    return result;
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      EnumSet<CreateFlag> cflags,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress,
      ChecksumOpt checksumOpt)
      throws IOException {
    boolean plain =
        cflags.contains(CreateFlag.CREATE)
            && EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE).containsAll(cflags);
    if (!enabled || !plain) {
      return super.create(
          f, permission, cflags, bufferSize, replication, blockSize, progress, checksumOpt);
    }
    String src = pathName(f);
    // The umask the stock client read from the configuration once (parsing it is a regex match).
    FsPermission masked =
        (permission == null ? FsPermission.getFileDefault() : permission)
            .applyUMask(getClient().getConf().getUMask());
    boolean overwrite = cflags.contains(CreateFlag.OVERWRITE);
    String clientName = getClient().getClientName();
    statistics.incrementWriteOps(1);
    SmallFileOutputStream out =
        new SmallFileOutputStream(
            max,
            data ->
                smallFiles.call(
                    p -> {
                      try {
                        return p.createSmallFile(
                            src,
                            masked.toShort(),
                            clientName,
                            overwrite,
                            true,
                            replication,
                            blockSize,
                            data);
                      } catch (RemoteException e) {
                        throw e.unwrapRemoteException(CREATE_ERRORS);
                      }
                    }),
            () ->
                HopsDistributedFileSystem.super.create(
                    f,
                    permission,
                    cflags,
                    bufferSize,
                    replication,
                    blockSize,
                    progress,
                    checksumOpt));
    return new FSDataOutputStream(out, statistics);
  }

  /**
   * An append to a file stored in the database is buffered and sent with the close, appended in
   * place to the file it was opened on (found by its inode id, so a rename meanwhile does not
   * matter, as in HDFS) while the result fits the database; past the maximum, on {@code hflush}, or
   * when the namenode declines, the stock append runs (the namenode moves the file to datanodes,
   * where it stays) with what was buffered. Other files are appended to as usual.
   */
  @Override
  public FSDataOutputStream append(
      Path f, EnumSet<CreateFlag> flag, int bufferSize, Progressable progress) throws IOException {
    if (!enabled) {
      return super.append(f, flag, bufferSize, progress);
    }
    String src = pathName(f);
    byte[] old;
    try {
      old = bytes(smallFiles.read(src));
    } catch (RemoteException e) {
      throw unwrap(e, src);
    }
    if (old == null) {
      return super.append(f, flag, bufferSize, progress);
    }
    org.apache.hadoop.hdfs.protocol.HdfsFileStatus status = getClient().getFileInfo(src);
    if (status == null || status.getLen() != old.length) {
      return super.append(f, flag, bufferSize, progress); // changed meanwhile
    }
    long fileId = status.getFileId();
    long length = old.length;
    String clientName = getClient().getClientName();
    statistics.incrementWriteOps(1);
    SmallFileOutputStream out =
        new SmallFileOutputStream(
            (int) Math.max(0, max - length),
            data ->
                smallFiles.call(
                    p -> {
                      try {
                        return p.appendSmallFile(fileId, length, clientName, data);
                      } catch (RemoteException e) {
                        throw e.unwrapRemoteException(APPEND_ERRORS);
                      }
                    }),
            () -> HopsDistributedFileSystem.super.append(f, flag, bufferSize, progress));
    return new FSDataOutputStream(out, statistics, length);
  }

  /**
   * The append {@code appendFile(path).build()} makes: as {@link #append(Path, EnumSet, int,
   * Progressable)} for a file in the database, the stock one with its favored nodes otherwise.
   */
  @Override
  public FSDataOutputStream append(
      Path f,
      EnumSet<CreateFlag> flag,
      int bufferSize,
      Progressable progress,
      java.net.InetSocketAddress[] favoredNodes)
      throws IOException {
    if (favoredNodes == null || favoredNodes.length == 0) {
      return append(f, flag, bufferSize, progress);
    }
    return super.append(f, flag, bufferSize, progress, favoredNodes);
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    if (!enabled) {
      return super.open(f, bufferSize);
    }
    String src = pathName(f);
    ByteBuffer data;
    try {
      data = smallFiles.read(src);
    } catch (RemoteException e) {
      throw unwrap(e, src);
    }
    if (data == null) {
      return super.open(f, bufferSize);
    }
    statistics.incrementReadOps(1);
    statistics.incrementBytesRead(data.remaining());
    // The received message's bytes as they are: no copy.
    return new FSDataInputStream(new InlineFileInputStream(src, data));
  }

  /**
   * The server's exception; a missing database row is the reader's {@link BlockMissingException}.
   */
  private static IOException unwrap(RemoteException e, String src) {
    if (BlockMissingException.class.getName().equals(e.getClassName())) {
      return new BlockMissingException(src, e.getMessage(), 0);
    }
    return e.unwrapRemoteException(OPEN_ERRORS);
  }

  private static byte[] bytes(ByteBuffer b) {
    if (b == null) {
      return null;
    }
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Override
  public void close() throws IOException {
    try {
      super.close();
    } finally {
      if (smallFiles != null) {
        smallFiles.close();
      }
    }
  }
}
