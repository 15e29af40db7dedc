package io.hops.namenode.security;

import java.io.IOException;
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
    return new Caller(
        ugi.getShortUserName(), Set.copyOf(ugi.getGroups()), host == null ? "" : host);
  }
}
