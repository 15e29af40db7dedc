package io.hops.namenode.smallfiles;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.Create;
import io.hops.namenode.ops.ReadSmallFile;
import java.io.IOException;
import java.util.EnumSet;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.permission.FsPermission;

/**
 * The namenode's side of {@link SmallFilesProtocol}: a create-and-complete with the bytes, and a
 * read of them, each one transaction.
 */
public final class SmallFilesRpc implements SmallFilesProtocol {
  private final Namesystem ns;
  private final SmallFileStore store;

  public SmallFilesRpc(Namesystem ns) {
    this.ns = ns;
    this.store = ns.smallFiles();
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
    return ns.run(
                () ->
                    new Create(
                            ns,
                            pc,
                            leases,
                            src,
                            new FsPermission(permission),
                            clientName,
                            flags,
                            createParent,
                            replication,
                            blockSize,
                            null,
                            null)
                        .withData(store, bytes))
            .get()
        != null;
  }

  @Override
  public org.apache.hadoop.io.BytesWritable readSmallFile(String src) throws IOException {
    var pc = ns.checker();
    byte[] data = ns.run(() -> new ReadSmallFile(pc, store, src));
    return data == null ? null : new org.apache.hadoop.io.BytesWritable(data);
  }
}
