package io.hops.namenode.security;

import java.io.IOException;
import java.util.Collections;
import java.util.Set;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/** Who is calling: the RPC's remote user, or this process's user outside an RPC. */
public record Caller(String user, Set<String> groups, String clientMachine) {

  public static Caller current() throws IOException {
    UserGroupInformation ugi = Server.getRemoteUser();
    if (ugi == null) {
      ugi = UserGroupInformation.getCurrentUser();
    }
    String host = Server.getRemoteAddress();
    // The groups service's own cached set, read-only: no copy of the list per RPC (as HDFS's
    // FSPermissionChecker).
    return new Caller(
        ugi.getShortUserName(),
        Collections.unmodifiableSet(ugi.getGroupsSet()),
        host == null ? "" : host);
  }
}
