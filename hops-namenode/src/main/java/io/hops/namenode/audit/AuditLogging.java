package io.hops.namenode.audit;

import io.hops.namenode.rpc.AuditCommands;
import io.hops.namenode.rpc.AuditCommands.Command;
import io.hops.namenode.rpc.CallStage;
import java.io.IOException;
import java.lang.reflect.Method;
import java.net.InetAddress;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.ipc.CallerContext;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Audits every {@code ClientProtocol} call in front of the namenode, once for all operations, as
 * HDFS's FSNamesystem does in each of them: a call that succeeds logs {@code allowed=true}, one
 * refused with an {@link AccessControlException} logs {@code allowed=false}, any other failure logs
 * nothing ({@code delete} logs its result as {@code allowed}, and a {@code rename} that returns
 * false logs nothing, as in HDFS). Only calls from outside are audited, as HDFS's
 * isExternalInvocation: those that came over RPC ({@code proto=rpc}) and those a WebHDFS request
 * makes ({@code proto=webhdfs}, the HTTP client's address), which {@link #webHdfsCall} marks.
 */
public final class AuditLogging {
  /** The status of a path after a call, read as the superuser; null if it does not exist. */
  @FunctionalInterface
  public interface StatusLookup {
    HdfsFileStatus statusOf(String path) throws IOException;
  }

  private static final ThreadLocal<InetAddress> WEBHDFS_CLIENT = new ThreadLocal<>();

  private AuditLogging() {}

  /**
   * Marks the calls this thread makes, until closed, as made for a WebHDFS request from {@code
   * client} (HDFS runs them as an ExternalCall whose protocol is {@code webhdfs}).
   */
  public static AutoCloseable webHdfsCall(InetAddress client) {
    WEBHDFS_CLIENT.set(client);
    return WEBHDFS_CLIENT::remove;
  }

  /** The audit, as a stage of {@link io.hops.namenode.rpc.ClientProtocolChain}. */
  public static CallStage stage(AuditLog log, StatusLookup lookup) {
    return (method, args, next) -> invoke(log, lookup, method, args, next);
  }

  private static Object invoke(
      AuditLog log, StatusLookup lookup, Method method, Object[] args, CallStage.Next next)
      throws Throwable {
    Command command = AuditCommands.of(method.getName());
    if (command == null
        || !log.enabled()
        || !(Server.isRpcInvocation() || WEBHDFS_CLIENT.get() != null)) {
      return next.invoke(method, args);
    }
    Object result;
    try {
      result = next.invoke(method, args);
    } catch (AccessControlException e) {
      log.log(event(command, args, false, null));
      throw e;
    }
    if (command.deniedOnly()) {
      return result;
    }
    switch (method.getName()) {
      case "delete" -> log.log(event(command, args, Boolean.TRUE.equals(result), null));
      case "createSmallFile", "appendSmallFile", "readSmallFile" -> {
        // Declined (false, null): the client's ordinary call follows and is audited itself.
        if (result != null && !Boolean.FALSE.equals(result)) {
          log.log(event(command, args, true, status(command, args, result, lookup)));
        }
      }
      case "createSnapshot" ->
          // HDFS's dst is the new snapshot's path, which a default name makes known only now.
          log.log(event(command, args, true, null, (String) result));
      case "rename" -> {
        if (Boolean.TRUE.equals(result)) {
          log.log(event(command, args, true, status(lookup, command.dst(args))));
        }
      }
      default -> log.log(event(command, args, true, status(command, args, result, lookup)));
    }
    return result;
  }

  /**
   * Audits a namenode call outside {@code ClientProtocol} that HDFS's FSNamesystem audits by name
   * with no path (the refresh calls of {@code dfsadmin}).
   */
  public static void logRpc(AuditLog log, String cmd) throws IOException {
    if (!log.enabled() || !Server.isRpcInvocation()) {
      return;
    }
    log.log(
        new AuditLog.Event(
            true,
            Server.getRemoteUser().toString(),
            Server.getRemoteIp(),
            cmd,
            null,
            null,
            null,
            Server.getProtocol(),
            CallerContext.getCurrent()));
  }

  private static FileStatus status(
      Command command, Object[] args, Object result, StatusLookup lookup) {
    return switch (command.perm()) {
      case NONE -> null;
      case RESULT -> toFileStatus(command.resultStatus(result));
      case SRC -> status(lookup, command.src(args));
      case DST -> status(lookup, command.dst(args));
    };
  }

  private static FileStatus status(StatusLookup lookup, String path) {
    if (path == null) {
      return null;
    }
    try {
      return toFileStatus(lookup.statusOf(path));
    } catch (IOException | RuntimeException e) {
      return null; // gone or unreadable meanwhile: HDFS too logs perm=null without an inode
    }
  }

  private static FileStatus toFileStatus(HdfsFileStatus s) {
    if (s == null) {
      return null;
    }
    return new FileStatus(
        s.getLen(),
        s.isDirectory(),
        s.getReplication(),
        s.getBlockSize(),
        s.getModificationTime(),
        s.getAccessTime(),
        s.getPermission(),
        s.getOwner(),
        s.getGroup(),
        null);
  }

  private static AuditLog.Event event(
      Command command, Object[] args, boolean allowed, FileStatus status) throws IOException {
    return event(command, args, allowed, status, command.dst(args));
  }

  private static AuditLog.Event event(
      Command command, Object[] args, boolean allowed, FileStatus status, String dst)
      throws IOException {
    UserGroupInformation ugi = Server.getRemoteUser();
    if (ugi == null) {
      ugi = UserGroupInformation.getCurrentUser();
    }
    boolean rpc = Server.isRpcInvocation();
    return new AuditLog.Event(
        allowed,
        ugi.toString(),
        rpc ? Server.getRemoteIp() : WEBHDFS_CLIENT.get(),
        command.cmd(args),
        command.src(args),
        dst,
        status,
        rpc ? Server.getProtocol() : "webhdfs",
        CallerContext.getCurrent());
  }
}
