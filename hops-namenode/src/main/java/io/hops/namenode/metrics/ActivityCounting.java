package io.hops.namenode.metrics;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;

/**
 * Counts {@link NameNodeActivity} in front of the client protocol, as HDFS's NameNodeRpcServer
 * does: an {@code ...Ops} counter for every call, a {@code Files...} counter for every success.
 * HDFS counts every inode a recursive mkdirs or delete touched in {@code FilesCreated} and {@code
 * FilesDeleted}; hops counts one per successful call (the count is not known without reading it).
 */
public final class ActivityCounting {
  private ActivityCounting() {}

  public static ClientProtocol wrap(ClientProtocol target, NameNodeActivity activity) {
    return (ClientProtocol)
        Proxy.newProxyInstance(
            ClientProtocol.class.getClassLoader(),
            new Class<?>[] {ClientProtocol.class},
            (proxy, method, args) -> invoke(target, activity, method, args));
  }

  private static Object invoke(
      ClientProtocol target, NameNodeActivity a, Method method, Object[] args) throws Throwable {
    String name = method.getName();
    switch (name) {
      case "create" -> a.createFileOps.incr();
      case "getListing" -> a.getListingOps.incr();
      case "delete" -> a.deleteFileOps.incr();
      case "getFileInfo", "getLocatedFileInfo" -> a.fileInfoOps.incr();
      case "getBlockLocations" -> a.getBlockLocations.incr();
      case "addBlock" -> a.addBlockOps.incr();
      case "getAdditionalDatanode" -> a.getAdditionalDatanodeOps.incr();
      case "createSymlink" -> a.createSymlinkOps.incr();
      case "getLinkTarget" -> a.getLinkTargetOps.incr();
      default -> {}
    }
    Object result;
    try {
      result = method.invoke(target, args);
    } catch (InvocationTargetException e) {
      throw e.getCause();
    }
    switch (name) {
      case "create", "mkdirs" -> {
        if (!Boolean.FALSE.equals(result)) {
          a.filesCreated.incr();
        }
      }
      case "append" -> a.filesAppended.incr();
      case "truncate" -> a.filesTruncated.incr();
      case "rename2" -> a.filesRenamed.incr();
      case "rename" -> {
        if (Boolean.TRUE.equals(result)) {
          a.filesRenamed.incr();
        }
      }
      case "delete" -> {
        if (Boolean.TRUE.equals(result)) {
          a.filesDeleted.incr();
        }
      }
      case "getListing" -> {
        if (result instanceof DirectoryListing l) {
          a.filesInGetListingOps.incr(l.getPartialListing().length);
        }
      }
      default -> {}
    }
    return result;
  }
}
