package io.hops.namenode.rpc;

import io.hops.namenode.Namesystem;
import io.hops.namenode.ops.GetFileInfo;
import io.hops.namenode.ops.Mkdirs;
import java.io.IOException;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.ha.HAServiceProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;

/**
 * The {@code ClientProtocol} methods hops implements, each one an operation run as a transaction.
 * Everything else is refused by {@link UnsupportedClientProtocol}, naming the method.
 */
public class ClientRpc extends UnsupportedClientProtocol {
  private final Namesystem ns;

  public ClientRpc(Namesystem ns) {
    this.ns = ns;
  }

  @Override
  public boolean mkdirs(String src, FsPermission masked, boolean createParent) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new Mkdirs(ns, pc, src, masked, createParent));
  }

  @Override
  public HdfsFileStatus getFileInfo(String src) throws IOException {
    var pc = ns.checker();
    return ns.run(() -> new GetFileInfo(ns, pc, src, "getFileInfo"));
  }

  @Override
  public HdfsFileStatus getFileLinkInfo(String src) throws IOException {
    // hops has no symlinks yet, so the link's own status is the file's.
    var pc = ns.checker();
    return ns.run(() -> new GetFileInfo(ns, pc, src, "getFileLinkInfo"));
  }

  @Override
  public void msync() {
    // Every namenode reads the database directly: there is nothing to catch up on.
  }

  @Override
  public HAServiceProtocol.HAServiceState getHAServiceState() {
    return HAServiceProtocol.HAServiceState.ACTIVE;
  }
}
