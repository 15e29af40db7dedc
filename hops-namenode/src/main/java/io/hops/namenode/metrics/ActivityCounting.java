package io.hops.namenode.metrics;

import io.hops.namenode.rpc.CallStage;
import java.lang.reflect.Method;
import org.apache.hadoop.hdfs.protocol.DirectoryListing;

/**
 * Counts {@link NameNodeActivity} in front of the client protocol, as HDFS's NameNodeRpcServer
 * does: an {@code ...Ops} counter for every call, a {@code Files...} counter for every success.
 * HDFS counts every inode a recursive mkdirs or delete touched in {@code FilesCreated} and {@code
 * FilesDeleted}; hops counts one per successful call (the count is not known without reading it).
 * The small-files protocol's calls count as the {@code create}, {@code append} and {@code
 * getBlockLocations} they stand for.
 */
public final class ActivityCounting {
  private ActivityCounting() {}

  /** The counting, as a stage of {@link io.hops.namenode.rpc.ClientProtocolChain}. */
  public static CallStage stage(NameNodeActivity activity) {
    return (method, args, next) -> invoke(activity, method, args, next);
  }

  private static Object invoke(
      NameNodeActivity a, Method method, Object[] args, CallStage.Next next) throws Throwable {
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
    Object result = next.invoke(method, args);
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
        // The small-files protocol: a call that declines (false, null) is followed by the client's
        // ordinary create, append or getBlockLocations, which counts itself.
      case "createSmallFile" -> {
        if (Boolean.TRUE.equals(result)) {
          a.createFileOps.incr();
          a.filesCreated.incr();
        }
      }
      case "appendSmallFile" -> {
        if (Boolean.TRUE.equals(result)) {
          a.filesAppended.incr();
        }
      }
      case "readSmallFile" -> {
        if (result != null) {
          a.getBlockLocations.incr();
        }
      }
      default -> {}
    }
    return result;
  }
}
