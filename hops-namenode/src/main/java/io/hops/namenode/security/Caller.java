package io.hops.namenode.security;

import java.io.IOException;
import java.util.Collections;
import java.util.Set;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Who is calling: the RPC's remote user, or this process's user outside an RPC. The caller's groups
 * are looked up when first asked for: the namenode's own user is the superuser by name, and an
 * owner's access to its own inodes needs no groups either.
 */
public final class Caller {
  private final String user;
  private final String clientMachine;
  private final UserGroupInformation ugi;
  private Set<String> groups;

  public Caller(String user, Set<String> groups, String clientMachine) {
    this.user = user;
    this.groups = groups;
    this.clientMachine = clientMachine;
    this.ugi = null;
  }

  private Caller(UserGroupInformation ugi, String clientMachine) {
    this.user = ugi.getShortUserName();
    this.clientMachine = clientMachine;
    this.ugi = ugi;
  }

  public static Caller current() throws IOException {
    UserGroupInformation ugi = Server.getRemoteUser();
    if (ugi == null) {
      ugi = UserGroupInformation.getCurrentUser();
    }
    String host = Server.getRemoteAddress();
    return new Caller(ugi, host == null ? "" : host);
  }

  public String user() {
    return user;
  }

  /**
   * The groups service's own cached set, read-only: no copy of the list per RPC (as HDFS's
   * FSPermissionChecker).
   */
  public Set<String> groups() {
    Set<String> g = groups;
    if (g == null) {
      g = Collections.unmodifiableSet(ugi.getGroupsSet());
      groups = g; // one RPC's thread: racing would only look the groups up twice
    }
    return g;
  }

  public String clientMachine() {
    return clientMachine;
  }

  @Override
  public String toString() {
    return "Caller[user=" + user + ", clientMachine=" + clientMachine + "]";
  }
}
