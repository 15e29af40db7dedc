package io.hops.namenode.rpc;

import io.hops.namenode.tx.TransactionRunner;
import java.lang.reflect.Method;
import java.util.Map;
import java.util.function.Function;

/**
 * Refuses the {@code ClientProtocol} operations that change the namespace while the cluster is in
 * {@link SafeMode}, with HDFS's {@code SafeModeException} and message ("Cannot create file/x. Name
 * node is in safe mode. ..."), before the operation runs. One gate in front of every operation, so
 * no operation class has to remember the check. Reads, {@code setSafeMode} and reports pass. The
 * same gate keeps database exception classes from reaching clients ({@link #clientSide}).
 */
public final class SafeModeGuard {
  /** The write methods and the first words of their refusal, from HDFS's FSNamesystem. */
  private static final Map<String, Function<Object[], String>> WRITES =
      Map.ofEntries(
          Map.entry("create", a -> "Cannot create file" + a[0]),
          Map.entry("append", a -> "Cannot append to file" + a[0]),
          Map.entry("createSmallFile", a -> "Cannot create file" + a[0]),
          Map.entry("appendSmallFile", a -> "Cannot append to file/.reserved/.inodes/" + a[0]),
          Map.entry("mkdirs", a -> "Cannot create directory " + a[0]),
          Map.entry("delete", a -> "Cannot delete " + a[0]),
          Map.entry("rename", a -> "Cannot rename " + a[0]),
          Map.entry("rename2", a -> "Cannot rename " + a[0]),
          Map.entry("concat", a -> "Cannot concat " + a[0]),
          Map.entry("truncate", a -> "Cannot truncate for " + a[0]),
          Map.entry("createSymlink", a -> "Cannot create symlink " + a[1]),
          Map.entry("setPermission", a -> "Cannot set permission for " + a[0]),
          Map.entry("setOwner", a -> "Cannot set owner for " + a[0]),
          Map.entry("setTimes", a -> "Cannot set times " + a[0]),
          Map.entry("setReplication", a -> "Cannot set replication for " + a[0]),
          Map.entry("setStoragePolicy", a -> "Cannot set storage policy for " + a[0]),
          Map.entry("unsetStoragePolicy", a -> "Cannot unset storage policy for " + a[0]),
          Map.entry("satisfyStoragePolicy", a -> "Cannot satisfy storage policy for " + a[0]),
          Map.entry("setQuota", a -> "Cannot set quota on " + a[0]),
          Map.entry("addBlock", a -> "Cannot add block to " + a[0]),
          Map.entry("abandonBlock", a -> "Cannot abandon block " + a[0] + " for file" + a[2]),
          Map.entry(
              "getAdditionalDatanode", a -> "Cannot add datanode; src=" + a[0] + ", blk=" + a[2]),
          Map.entry("complete", a -> "Cannot complete file " + a[0]),
          Map.entry("fsync", a -> "Cannot fsync file " + a[0]),
          Map.entry("recoverLease", a -> "Cannot recover the lease of " + a[0]),
          Map.entry("renewLease", a -> "Cannot renew lease for " + a[0]),
          Map.entry(
              "updateBlockForPipeline",
              a -> "Cannot get a new generation stamp and an access token for block " + a[0]),
          Map.entry("updatePipeline", a -> "Pipeline not updated"),
          Map.entry("setXAttr", a -> "Cannot set XAttr on " + a[0]),
          Map.entry("removeXAttr", a -> "Cannot remove XAttr entry on " + a[0]),
          Map.entry("modifyAclEntries", a -> "Cannot modify ACL entries on " + a[0]),
          Map.entry("removeAclEntries", a -> "Cannot remove ACL entries on " + a[0]),
          Map.entry("removeDefaultAcl", a -> "Cannot remove default ACL entries on " + a[0]),
          Map.entry("removeAcl", a -> "Cannot remove ACL on " + a[0]),
          Map.entry("setAcl", a -> "Cannot set ACL on " + a[0]),
          Map.entry("allowSnapshot", a -> "Cannot allow snapshot for " + a[0]),
          Map.entry("disallowSnapshot", a -> "Cannot disallow snapshot for " + a[0]),
          Map.entry("createSnapshot", a -> "Cannot create snapshot for " + a[0]),
          Map.entry("renameSnapshot", a -> "Cannot rename snapshot for " + a[0]),
          Map.entry("deleteSnapshot", a -> "Cannot delete snapshot for " + a[0]),
          Map.entry("createEncryptionZone", a -> "Cannot create encryption zone on " + a[0]),
          Map.entry("setErasureCodingPolicy", a -> "Cannot set erasure coding policy on " + a[0]),
          Map.entry(
              "unsetErasureCodingPolicy", a -> "Cannot unset erasure coding policy on " + a[0]),
          Map.entry("addCacheDirective", a -> "Cannot add cache directive"),
          Map.entry("modifyCacheDirective", a -> "Cannot add cache directive"),
          Map.entry("removeCacheDirective", a -> "Cannot remove cache directives"),
          Map.entry("addCachePool", a -> "Cannot add cache pool " + a[0]),
          Map.entry("modifyCachePool", a -> "Cannot modify cache pool " + a[0]),
          Map.entry("removeCachePool", a -> "Cannot modify cache pool " + a[0]),
          Map.entry("getDelegationToken", a -> "Cannot issue delegation token"),
          Map.entry("renewDelegationToken", a -> "Cannot renew delegation token"),
          Map.entry("cancelDelegationToken", a -> "Cannot cancel delegation token"));

  private SafeModeGuard() {}

  /**
   * The gate, as a stage of {@link ClientProtocolChain}: namespace-changing methods are refused
   * while {@code safeMode} is on.
   */
  public static CallStage stage(SafeMode safeMode) {
    return (method, args, next) -> invoke(safeMode, method, args, next);
  }

  /**
   * What a client may see of a failure: never a DAL class (docs/architecture.md, "Wire
   * compatibility"). A transient database error that escaped the runner's retries is Hadoop's
   * retriable error; any other database error an {@code IOException} with its message (e.g. a value
   * longer than its column).
   */
  static Throwable clientSide(String method, Throwable t) {
    if (t instanceof io.hops.dal.TransientStorageException) {
      var r = new org.apache.hadoop.ipc.RetriableException(method + ": " + t.getMessage());
      r.initCause(t);
      return r;
    }
    if (t instanceof io.hops.dal.StorageException) {
      return new java.io.IOException(method + ": " + t.getMessage());
    }
    return t;
  }

  private static Object invoke(SafeMode safeMode, Method method, Object[] args, CallStage.Next next)
      throws Throwable {
    Function<Object[], String> refusal = WRITES.get(method.getName());
    if (refusal == null) {
      try {
        return next.invoke(method, args);
      } catch (Throwable t) {
        throw clientSide(method.getName(), t);
      }
    }
    safeMode.check(() -> refusal.apply(args)); // the quick check, on this namenode's copy
    // ... and the exact one, inside the call's transaction (SafeMode.checkStored).
    try (AutoCloseable gate =
        TransactionRunner.gate(tx -> safeMode.checkStored(tx, () -> refusal.apply(args)))) {
      return next.invoke(method, args);
    } catch (Throwable t) {
      throw clientSide(method.getName(), t);
    }
  }
}
