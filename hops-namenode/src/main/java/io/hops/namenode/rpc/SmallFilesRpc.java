package io.hops.namenode.rpc;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.dal.TableFullException;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.SmallFileStore;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.ReadSmallFile;
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
  private final Namesystem ns;
  private final SmallFileStore store;
  private final java.util.function.Consumer<io.hops.dal.rows.InodeRow> reads;

  /**
   * @param reads told of each file read, as {@code getBlockLocations} tells its access-time keeper
   */
  public SmallFilesRpc(
      Namesystem ns, java.util.function.Consumer<io.hops.dal.rows.InodeRow> reads) {
    this.ns = ns;
    this.store = ns.smallFiles();
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
    var pc = ns.checker();
    var leases = ns.leases();
    EnumSet<CreateFlag> flags =
        overwrite
            ? EnumSet.of(CreateFlag.CREATE, CreateFlag.OVERWRITE)
            : EnumSet.of(CreateFlag.CREATE);
    byte[] bytes = data == null ? new byte[0] : data;
    String holder = ns.users().longNames().remember(clientName);
    try {
      return ns.runAtMostOnce(
              ClientCalls.keptWith("createSmallFile"),
              () ->
                  new Create(
                          ns.limits(),
                          ns.blocks().clock(),
                          ns.inodeIds(),
                          ns.statuses(),
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
                      .withData(store, bytes))
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
    var pc = ns.checker();
    byte[] bytes = data == null ? new byte[0] : data;
    try {
      return ns.runAtMostOnce(
          ClientCalls.keptWith("appendSmallFile"),
          () ->
              new io.hops.namenode.ops.AppendSmallFile(
                  pc, store, fileId, expectedLength, bytes, ns.blocks().now()));
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
    var pc = ns.checker();
    ReadSmallFile.Answer a = ns.run(() -> new ReadSmallFile(pc, store, src).lockFree());
    if (a.unsure()) {
      a = ns.run(() -> new ReadSmallFile(pc, store, src));
    }
    reads.accept(a.file());
    // Wrapped, not copied: the translator puts it straight into the response.
    return a.data() == null ? null : ByteBuffer.wrap(a.data());
  }
}
