package io.hops.namenode.rpc;

import java.util.Arrays;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LastBlockWithStatus;

/**
 * How HDFS audits a {@code ClientProtocol} call: under which {@code cmd} name, with which {@code
 * src}, {@code dst} and {@code perm} (the owner, group and mode after the call), as Hadoop 3.5.0's
 * {@code FSNamesystem.logAuditEvent} calls do. Which calls are audited, and under which name, is a
 * column of {@link ClientCalls}; calls with none there (block and lease traffic, {@code fsync},
 * {@code getStoragePolicy}, ...) are not audited by HDFS. It is about the wire's calls, so it lives
 * with them: {@code audit/AuditLogging} writes the lines from it, and {@link VirtualPaths} names a
 * refused call by it (docs/development.md, "Package layering").
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

  /** HDFS's name of the operation behind {@code method} (its audit cmd and permission checks). */
  public static String hdfsName(String method, Object[] args) {
    Command c = of(method);
    return c == null ? method : c.cmd(args);
  }

  /** How {@code method} is audited, or null if HDFS does not audit it. */
  public static Command of(String method) {
    ClientCalls.Call call = ClientCalls.of(method);
    return call == null ? null : call.audit();
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
