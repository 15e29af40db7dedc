package io.hops.namenode.rpc;

import io.hops.namenode.rpc.AuditCommands.Command;
import io.hops.namenode.rpc.AuditCommands.Perm;
import io.hops.namenode.tx.RetryCache;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * The one table of the client calls ({@code ClientProtocol} and the small-files protocol) that are
 * more than a plain unaudited read: each named once, with what {@link SafeModeGuard} (refused in
 * safe mode, with HDFS's message), {@code audit/AuditLogging} (HDFS's audit command) and the retry
 * cache ({@link RetryCodecs}, for HDFS's {@code @AtMostOnce} calls) need to know of it. A call
 * missing here is a read that HDFS does not audit. {@code ClientCallsTest} holds the table to
 * Hadoop's annotations: every {@code ClientProtocol} call that is not {@code @ReadOnly} is here as
 * a {@link Kind#WRITE} or a {@link Kind#CONTROL}, and every one hops serves that HDFS marks
 * {@code @AtMostOnce} has its codec.
 */
public final class ClientCalls {
  /** What a call does to the namespace, which decides whether safe mode lets it through. */
  public enum Kind {
    /** {@code @ReadOnly} in HDFS: passes in safe mode. */
    READ,
    /** Changes the namespace, a block or a lease: refused in safe mode. */
    WRITE,
    /** Not read-only, yet allowed in safe mode (safe mode itself, administration, reports). */
    CONTROL
  }

  /**
   * One call: its kind; the first words of HDFS's safe-mode refusal (from {@code FSNamesystem}),
   * for writes; how HDFS audits it (null: not audited); the codec its outcome is kept with in the
   * retry cache (null: not kept).
   */
  public record Call(
      String method,
      Kind kind,
      Function<Object[], String> safeModeRefusal,
      Command audit,
      RetryCache.Codec<?> retry) {
    Call audited(String cmd, Perm perm) {
      return new Call(method, kind, safeModeRefusal, new Command(cmd, perm, false), retry);
    }

    /** Audited only when the superuser check refuses the caller. */
    Call auditedWhenDenied(String cmd) {
      return new Call(method, kind, safeModeRefusal, new Command(cmd, Perm.NONE, true), retry);
    }

    Call kept(RetryCache.Codec<?> codec) {
      return new Call(method, kind, safeModeRefusal, audit, codec);
    }
  }

  private static Call read(String method) {
    return new Call(method, Kind.READ, null, null, null);
  }

  private static Call write(String method, Function<Object[], String> safeModeRefusal) {
    return new Call(method, Kind.WRITE, safeModeRefusal, null, null);
  }

  private static Call control(String method) {
    return new Call(method, Kind.CONTROL, null, null, null);
  }

  private static final Map<String, Call> CALLS =
      Stream.of(
              // the namespace
              write("create", a -> "Cannot create file" + a[0])
                  .audited("create", Perm.RESULT)
                  .kept(RetryCodecs.CREATE),
              write("append", a -> "Cannot append to file" + a[0])
                  .audited("append", Perm.NONE)
                  .kept(RetryCodecs.APPEND),
              write("mkdirs", a -> "Cannot create directory " + a[0]).audited("mkdirs", Perm.SRC),
              write("delete", a -> "Cannot delete " + a[0])
                  .audited("delete", Perm.NONE)
                  .kept(RetryCodecs.BOOLEAN),
              write("rename", a -> "Cannot rename " + a[0])
                  .audited("rename", Perm.DST)
                  .kept(RetryCodecs.BOOLEAN),
              write("rename2", a -> "Cannot rename " + a[0])
                  .audited("rename2", Perm.DST)
                  .kept(RetryCodecs.BOOLEAN),
              write("concat", a -> "Cannot concat " + a[0])
                  .audited("concat", Perm.DST)
                  .kept(RetryCodecs.VOID),
              write("truncate", a -> "Cannot truncate for " + a[0]).audited("truncate", Perm.SRC),
              write("createSymlink", a -> "Cannot create symlink " + a[1]),
              write("setPermission", a -> "Cannot set permission for " + a[0])
                  .audited("setPermission", Perm.SRC),
              write("setOwner", a -> "Cannot set owner for " + a[0]).audited("setOwner", Perm.SRC),
              write("setTimes", a -> "Cannot set times " + a[0]).audited("setTimes", Perm.SRC),
              write("setReplication", a -> "Cannot set replication for " + a[0])
                  .audited("setReplication", Perm.NONE),
              write("setStoragePolicy", a -> "Cannot set storage policy for " + a[0])
                  .audited("setStoragePolicy", Perm.SRC),
              write("unsetStoragePolicy", a -> "Cannot unset storage policy for " + a[0])
                  .audited("unsetStoragePolicy", Perm.SRC),
              write("satisfyStoragePolicy", a -> "Cannot satisfy storage policy for " + a[0])
                  .audited("satisfyStoragePolicy", Perm.SRC),
              write("setQuota", a -> "Cannot set quota on " + a[0]).audited("setQuota", Perm.NONE),
              write("setXAttr", a -> "Cannot set XAttr on " + a[0])
                  .audited("setXAttr", Perm.SRC)
                  .kept(RetryCodecs.VOID),
              write("removeXAttr", a -> "Cannot remove XAttr entry on " + a[0])
                  .audited("removeXAttr", Perm.SRC)
                  .kept(RetryCodecs.VOID),
              write("modifyAclEntries", a -> "Cannot modify ACL entries on " + a[0])
                  .audited("modifyAclEntries", Perm.SRC),
              write("removeAclEntries", a -> "Cannot remove ACL entries on " + a[0])
                  .audited("removeAclEntries", Perm.SRC),
              write("removeDefaultAcl", a -> "Cannot remove default ACL entries on " + a[0])
                  .audited("removeDefaultAcl", Perm.SRC),
              write("removeAcl", a -> "Cannot remove ACL on " + a[0])
                  .audited("removeAcl", Perm.SRC),
              write("setAcl", a -> "Cannot set ACL on " + a[0]).audited("setAcl", Perm.SRC),
              // hops's small-files protocol, audited as the calls it stands for
              write("createSmallFile", a -> "Cannot create file" + a[0])
                  .audited("createSmallFile", Perm.SRC)
                  .kept(RetryCodecs.CREATE),
              write("appendSmallFile", a -> "Cannot append to file/.reserved/.inodes/" + a[0])
                  .audited("appendSmallFile", Perm.NONE)
                  .kept(RetryCodecs.BOOLEAN),
              read("readSmallFile").audited("readSmallFile", Perm.NONE),
              // blocks and leases
              write("addBlock", a -> "Cannot add block to " + a[0]),
              write("abandonBlock", a -> "Cannot abandon block " + a[0] + " for file" + a[2]),
              write(
                  "getAdditionalDatanode",
                  a -> "Cannot add datanode; src=" + a[0] + ", blk=" + a[2]),
              write("complete", a -> "Cannot complete file " + a[0]),
              write("fsync", a -> "Cannot fsync file " + a[0]),
              write("recoverLease", a -> "Cannot recover the lease of " + a[0]),
              write("renewLease", a -> "Cannot renew lease for " + a[0]),
              write(
                  "updateBlockForPipeline",
                  a -> "Cannot get a new generation stamp and an access token for block " + a[0]),
              write("updatePipeline", a -> "Pipeline not updated").kept(RetryCodecs.VOID),
              control("reportBadBlocks"),
              // snapshots
              write("allowSnapshot", a -> "Cannot allow snapshot for " + a[0])
                  .audited("allowSnapshot", Perm.NONE),
              write("disallowSnapshot", a -> "Cannot disallow snapshot for " + a[0])
                  .audited("disallowSnapshot", Perm.NONE),
              write("createSnapshot", a -> "Cannot create snapshot for " + a[0])
                  .audited("createSnapshot", Perm.NONE)
                  .kept(RetryCodecs.STRING),
              write("renameSnapshot", a -> "Cannot rename snapshot for " + a[0])
                  .audited("renameSnapshot", Perm.NONE)
                  .kept(RetryCodecs.VOID),
              write("deleteSnapshot", a -> "Cannot delete snapshot for " + a[0])
                  .audited("deleteSnapshot", Perm.NONE)
                  .kept(RetryCodecs.VOID),
              read("getSnapshottableDirListing").audited("listSnapshottableDirectory", Perm.NONE),
              read("getSnapshotListing").audited("ListSnapshot", Perm.NONE),
              // features hops answers as HDFS does with them off (FeaturesOff)
              write("createEncryptionZone", a -> "Cannot create encryption zone on " + a[0]),
              control("reencryptEncryptionZone"),
              read("getEZForPath").audited("getEZForPath", Perm.SRC),
              read("listEncryptionZones").audited("listEncryptionZones", Perm.NONE),
              write("setErasureCodingPolicy", a -> "Cannot set erasure coding policy on " + a[0]),
              write(
                  "unsetErasureCodingPolicy", a -> "Cannot unset erasure coding policy on " + a[0]),
              control("addErasureCodingPolicies"),
              control("removeErasureCodingPolicy"),
              control("enableErasureCodingPolicy"),
              control("disableErasureCodingPolicy"),
              read("getErasureCodingPolicy").audited("getErasureCodingPolicy", Perm.NONE),
              read("getErasureCodingPolicies").audited("getErasureCodingPolicies", Perm.NONE),
              read("getErasureCodingCodecs").audited("getErasureCodingCodecs", Perm.NONE),
              write("addCacheDirective", a -> "Cannot add cache directive"),
              write("modifyCacheDirective", a -> "Cannot add cache directive"),
              write("removeCacheDirective", a -> "Cannot remove cache directives"),
              write("addCachePool", a -> "Cannot add cache pool " + a[0]),
              write("modifyCachePool", a -> "Cannot modify cache pool " + a[0]),
              write("removeCachePool", a -> "Cannot modify cache pool " + a[0]),
              // delegation tokens
              write("getDelegationToken", a -> "Cannot issue delegation token"),
              write("renewDelegationToken", a -> "Cannot renew delegation token"),
              write("cancelDelegationToken", a -> "Cannot cancel delegation token"),
              // audited reads
              read("getBlockLocations").audited("open", Perm.NONE),
              read("getFileInfo").audited("getfileinfo", Perm.NONE),
              read("getFileLinkInfo").audited("getfileinfo", Perm.NONE),
              read("getLocatedFileInfo").audited("getLocatedFileInfo", Perm.NONE),
              read("getListing").audited("listStatus", Perm.NONE),
              read("isFileClosed").audited("isFileClosed", Perm.NONE),
              read("getContentSummary").audited("contentSummary", Perm.NONE),
              read("getQuotaUsage").audited("quotaUsage", Perm.NONE),
              read("getAclStatus").audited("getAclStatus", Perm.NONE),
              read("getXAttrs").audited("getXAttrs", Perm.NONE),
              read("listXAttrs").audited("listXAttrs", Perm.NONE),
              read("checkAccess").audited("checkAccess", Perm.NONE),
              read("listOpenFiles").audited("listOpenFiles", Perm.NONE),
              read("getDatanodeReport").audited("datanodeReport", Perm.NONE),
              read("getDatanodeStorageReport").audited("getDatanodeStorageReport", Perm.NONE),
              read("getSlowDatanodeReport").audited("slowDataNodesReport", Perm.NONE),
              read("listCorruptFileBlocks").auditedWhenDenied("listCorruptFileBlocks"),
              // administration
              control("setSafeMode").audited("setSafeMode", Perm.NONE),
              control("saveNamespace").audited("saveNamespace", Perm.NONE),
              control("rollEdits").audited("rollEditLog", Perm.NONE),
              control("finalizeUpgrade").audited("finalizeUpgrade", Perm.NONE),
              control("upgradeStatus"),
              control("rollingUpgrade"),
              control("refreshNodes").audited("refreshNodes", Perm.NONE),
              control("setBalancerBandwidth").audited("setBalancerBandwidth", Perm.NONE),
              control("restoreFailedStorage").audited("restoreFailedStorage", Perm.NONE),
              control("metaSave").audited("metaSave", Perm.NONE))
          .collect(Collectors.toUnmodifiableMap(Call::method, c -> c));

  private ClientCalls() {}

  /** The row of {@code method}, or null for a read HDFS does not audit. */
  public static Call of(String method) {
    return CALLS.get(method);
  }

  /**
   * The codec {@code method}'s outcome is kept with in the retry cache: the call sites take it from
   * here, so the table is the only place that says which calls are at-most-once and how.
   *
   * @throws IllegalStateException if the table keeps no outcome for {@code method}
   */
  @SuppressWarnings("unchecked")
  public static <T> RetryCache.Codec<T> keptWith(String method) {
    Call call = CALLS.get(method);
    if (call == null || call.retry() == null) {
      throw new IllegalStateException(method + " keeps no outcome in the retry cache");
    }
    return (RetryCache.Codec<T>) call.retry();
  }

  /** Every row, for the checks that hold the table to HDFS's. */
  public static java.util.Collection<Call> all() {
    return CALLS.values();
  }
}
