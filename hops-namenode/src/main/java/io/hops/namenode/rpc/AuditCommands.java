package io.hops.namenode.rpc;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;

/**
 * Which {@code ClientProtocol} calls HDFS audits, under which {@code cmd} name, with which {@code
 * src}, {@code dst} and {@code perm} (the owner, group and mode after the call): the table of
 * Hadoop 3.5.0's {@code FSNamesystem.logAuditEvent} calls, in one place. Calls not listed here
 * (block and lease traffic, {@code fsync}, {@code getStoragePolicy}, ...) are not audited by HDFS.
 * It is a table of the wire's calls, so it lives with them: {@code audit/AuditLogging} writes the
 * lines from it, and {@link VirtualPaths} names a refused call by it (docs/development.md, "Package
 * layering").
 */
public final class AuditCommands {
  private AuditCommands() {}

  /** Whose status the line reports as {@code perm}. */
  public enum Perm {
    /** {@code perm=null}. */
    NONE,
    /** The status of {@code src} after the call. */
    SRC,
    /** The status of {@code dst} after the call (rename, concat). */
    DST,
    /** The status the call returned (create). */
    RESULT
  }

  /** How one call is audited. */
  public record Command(String name, Perm perm, boolean deniedOnly) {
    public String cmd(Object[] args) {
      return switch (name) {
        case "rename2" -> "rename (options=" + Arrays.toString((Object[]) args[2]) + ")";
        case "setQuota" -> quotaCommand((Long) args[1], (Long) args[2]);
        case "setSafeMode" -> args[0].toString().toLowerCase(java.util.Locale.ROOT);
        case "restoreFailedStorage" -> restoreCommand((String) args[0]);
        case "getLocatedFileInfo" -> Boolean.TRUE.equals(args[1]) ? "open" : "getfileinfo";
        case "createSmallFile" -> "create";
        case "appendSmallFile" -> "append";
        case "readSmallFile" -> "open";
        default -> name;
      };
    }

    public String src(Object[] args) {
      return switch (name) {
        case "concat" -> Arrays.toString((String[]) args[1]);
          // HDFS names a snapshot by its path below the directory's .snapshot
        case "deleteSnapshot", "renameSnapshot" -> snapshotPath(args[0], args[1]);
        case "listCorruptFileBlocks", "rename", "rename2", "getBlockLocations" -> (String) args[0];
          // a database file's append names the file by its inode, as the client asked for it
        case "appendSmallFile" -> "/.reserved/.inodes/" + args[0];
          // HDFS audits metaSave with no src: its argument is a file of the log directory
        case "metaSave" -> null;
        default -> args != null && args.length > 0 && args[0] instanceof String s ? s : null;
      };
    }

    public String dst(Object[] args) {
      return switch (name) {
        case "rename", "rename2" -> (String) args[1];
        case "concat" -> (String) args[0];
        case "renameSnapshot" -> snapshotPath(args[0], args[2]);
        default -> null;
      };
    }

    public HdfsFileStatus resultStatus(Object result) {
      if (result instanceof HdfsFileStatus s) {
        return s;
      }
      if (result instanceof LastBlockWithStatus l) {
        return l.getFileStatus();
      }
      return null;
    }
  }

  private static final Map<String, Command> BY_METHOD = new HashMap<>();

  private static void add(String method, String cmd, Perm perm) {
    BY_METHOD.put(method, new Command(cmd, perm, false));
  }

  static {
    add("getBlockLocations", "open", Perm.NONE);
    // hops's small-files protocol, audited as the calls it stands for
    add("createSmallFile", "createSmallFile", Perm.SRC);
    add("appendSmallFile", "appendSmallFile", Perm.NONE);
    add("readSmallFile", "readSmallFile", Perm.NONE);
    add("getFileInfo", "getfileinfo", Perm.NONE);
    add("getFileLinkInfo", "getfileinfo", Perm.NONE);
    add("getLocatedFileInfo", "getLocatedFileInfo", Perm.NONE);
    add("getListing", "listStatus", Perm.NONE);
    add("isFileClosed", "isFileClosed", Perm.NONE);
    add("getContentSummary", "contentSummary", Perm.NONE);
    add("getQuotaUsage", "quotaUsage", Perm.NONE);
    add("create", "create", Perm.RESULT);
    add("append", "append", Perm.NONE);
    add("mkdirs", "mkdirs", Perm.SRC);
    add("delete", "delete", Perm.NONE);
    add("rename", "rename", Perm.DST);
    add("rename2", "rename2", Perm.DST);
    add("concat", "concat", Perm.DST);
    add("truncate", "truncate", Perm.SRC);
    add("setPermission", "setPermission", Perm.SRC);
    add("setOwner", "setOwner", Perm.SRC);
    add("setTimes", "setTimes", Perm.SRC);
    add("setReplication", "setReplication", Perm.NONE);
    add("setQuota", "setQuota", Perm.NONE);
    add("setStoragePolicy", "setStoragePolicy", Perm.SRC);
    add("unsetStoragePolicy", "unsetStoragePolicy", Perm.SRC);
    add("satisfyStoragePolicy", "satisfyStoragePolicy", Perm.SRC);
    add("modifyAclEntries", "modifyAclEntries", Perm.SRC);
    add("removeAclEntries", "removeAclEntries", Perm.SRC);
    add("removeDefaultAcl", "removeDefaultAcl", Perm.SRC);
    add("removeAcl", "removeAcl", Perm.SRC);
    add("setAcl", "setAcl", Perm.SRC);
    add("getAclStatus", "getAclStatus", Perm.NONE);
    add("setXAttr", "setXAttr", Perm.SRC);
    add("getXAttrs", "getXAttrs", Perm.NONE);
    add("listXAttrs", "listXAttrs", Perm.NONE);
    add("removeXAttr", "removeXAttr", Perm.SRC);
    add("checkAccess", "checkAccess", Perm.NONE);
    add("getEZForPath", "getEZForPath", Perm.SRC);
    add("listEncryptionZones", "listEncryptionZones", Perm.NONE);
    add("getErasureCodingPolicy", "getErasureCodingPolicy", Perm.NONE);
    add("getErasureCodingPolicies", "getErasureCodingPolicies", Perm.NONE);
    add("getErasureCodingCodecs", "getErasureCodingCodecs", Perm.NONE);
    add("getSnapshottableDirListing", "listSnapshottableDirectory", Perm.NONE);
    add("getSnapshotListing", "ListSnapshot", Perm.NONE);
    add("allowSnapshot", "allowSnapshot", Perm.NONE);
    add("disallowSnapshot", "disallowSnapshot", Perm.NONE);
    add("createSnapshot", "createSnapshot", Perm.NONE);
    add("deleteSnapshot", "deleteSnapshot", Perm.NONE);
    add("renameSnapshot", "renameSnapshot", Perm.NONE);
    add("listOpenFiles", "listOpenFiles", Perm.NONE);
    add("getDatanodeReport", "datanodeReport", Perm.NONE);
    add("getDatanodeStorageReport", "getDatanodeStorageReport", Perm.NONE);
    add("getSlowDatanodeReport", "slowDataNodesReport", Perm.NONE);
    add("setSafeMode", "setSafeMode", Perm.NONE);
    add("saveNamespace", "saveNamespace", Perm.NONE);
    add("rollEdits", "rollEditLog", Perm.NONE);
    add("finalizeUpgrade", "finalizeUpgrade", Perm.NONE);
    add("refreshNodes", "refreshNodes", Perm.NONE);
    add("setBalancerBandwidth", "setBalancerBandwidth", Perm.NONE);
    add("restoreFailedStorage", "restoreFailedStorage", Perm.NONE);
    add("metaSave", "metaSave", Perm.NONE);
    // Audited only when the superuser check refuses the caller.
    BY_METHOD.put("listCorruptFileBlocks", new Command("listCorruptFileBlocks", Perm.NONE, true));
  }

  /** HDFS's name of the operation behind {@code method} (its audit cmd and permission checks). */
  public static String hdfsName(String method, Object[] args) {
    Command c = of(method);
    return c == null ? method : c.cmd(args);
  }

  /** How {@code method} is audited, or null if HDFS does not audit it. */
  public static Command of(String method) {
    return BY_METHOD.get(method);
  }

  /** Snapshot.getSnapshotPath: {@code dir/.snapshot/name}. */
  private static String snapshotPath(Object dir, Object name) {
    String d = (String) dir;
    return d + (d.endsWith("/") ? "" : "/") + ".snapshot/" + name;
  }

  private static String quotaCommand(long ns, long ds) {
    if (ns == HdfsConstants.QUOTA_RESET && ds == HdfsConstants.QUOTA_DONT_SET) {
      return "clearQuota";
    } else if (ns == HdfsConstants.QUOTA_DONT_SET && ds == HdfsConstants.QUOTA_RESET) {
      return "clearSpaceQuota";
    } else if (ds == HdfsConstants.QUOTA_DONT_SET) {
      return "setQuota";
    }
    return "setSpaceQuota";
  }

  private static String restoreCommand(String mode) {
    return switch (mode) {
      case "check" -> "checkRestoreFailedStorage";
      case "true" -> "enableRestoreFailedStorage";
      default -> "disableRestoreFailedStorage";
    };
  }
}
