package io.hops.namenode.rpc;

import io.hops.dal.Storage;
import io.hops.namenode.resolve.ReservedPaths;
import io.hops.namenode.security.PermissionCheckers;
import java.io.IOException;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.ipc.RetriableException;

/**
 * HDFS's {@code /.reserved/.inodes/<id>} and {@code /.reserved/raw} paths for every {@code
 * ClientProtocol} call (see {@link ReservedPaths}): each path argument is translated before the
 * call, and the call runs again with a fresh translation if its inode moved in between. As in HDFS
 * (FSDirectory.resolvePath), a raw path is for the superuser unless the call only reads; {@code
 * concat} keeps its own refusal of reserved paths.
 */
public final class VirtualPaths {
  private static final int ATTEMPTS = 5;

  /** The calls HDFS resolves with {@code DirOp.READ}: a raw path needs no superuser for them. */
  private static final Set<String> READS =
      Set.of(
          "getFileInfo",
          "getFileLinkInfo",
          "getLocatedFileInfo",
          "getBlockLocations",
          "readSmallFile",
          "getListing",
          "getBatchedListing",
          "getContentSummary",
          "getQuotaUsage",
          "getXAttrs",
          "listXAttrs",
          "getAclStatus",
          "checkAccess",
          "getStoragePolicy",
          "getPreferredBlockSize",
          "isFileClosed",
          "getEZForPath",
          "getErasureCodingPolicy",
          "getEnclosingRoot");

  private VirtualPaths() {}

  /** The translation, as a stage of {@link ClientProtocolChain}. */
  public static CallStage stage(Storage storage, PermissionCheckers checkers) {
    return (method, args, next) -> invoke(storage, checkers, method, args, next);
  }

  private static Object invoke(
      Storage storage,
      PermissionCheckers checkers,
      Method method,
      Object[] args,
      CallStage.Next next)
      throws Throwable {
    if (args == null || !anyVirtual(args) || method.getName().equals("concat")) {
      return next.invoke(method, args);
    }
    for (int attempt = 1; ; attempt++) {
      Object[] translated = args.clone();
      List<ReservedPaths.Pin> pins = new ArrayList<>();
      for (int i = 0; i < args.length; i++) {
        if (args[i] instanceof String s && ReservedPaths.isVirtual(s)) {
          if (ReservedPaths.isRaw(s) && !READS.contains(method.getName())) {
            checkSuperuser(checkers, method.getName(), args);
          }
          ReservedPaths.Translation t = ReservedPaths.translate(storage, s);
          translated[i] = t.path();
          if (t.pin() != null) {
            pins.add(t.pin());
          }
        }
      }
      ReservedPaths.pin(pins);
      try {
        return next.invoke(method, translated);
      } catch (ReservedPaths.MovedException e) {
        if (attempt >= ATTEMPTS) {
          throw new RetriableException(method.getName() + ": " + e.getMessage());
        }
      } finally {
        ReservedPaths.unpin();
      }
    }
  }

  private static boolean anyVirtual(Object[] args) {
    for (Object a : args) {
      if (a instanceof String s && ReservedPaths.isVirtual(s)) {
        return true;
      }
    }
    return false;
  }

  private static void checkSuperuser(PermissionCheckers checkers, String method, Object[] args)
      throws IOException {
    NamenodeRpc.checkSuperuser(checkers, AuditCommands.hdfsName(method, args));
  }
}
