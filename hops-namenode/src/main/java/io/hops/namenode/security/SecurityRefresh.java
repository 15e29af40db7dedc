package io.hops.namenode.security;

import io.hops.dal.IdAllocator;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.Groups;
import org.apache.hadoop.security.RefreshUserMappingsProtocol;
import org.apache.hadoop.security.authorize.AuthorizationException;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.apache.hadoop.security.authorize.RefreshAuthorizationPolicyProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * {@code dfsadmin -refreshServiceAcl}, {@code -refreshSuperUserGroupsConfiguration} and {@code
 * -refreshUserToGroupsMappings} for the whole cluster: the namenode asked applies the refresh at
 * once, as HDFS's does, and bumps a generation row in the {@code variables} table; every namenode
 * polls those rows and applies a refresh whose generation it has not seen. A refresh re-reads the
 * namenode's configuration files (the keys set in code stay as they were), as HDFS re-reads its
 * own.
 */
public final class SecurityRefresh
    implements RefreshAuthorizationPolicyProtocol, RefreshUserMappingsProtocol, AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(SecurityRefresh.class);

  /**
   * Writes the audit line of a refresh call, by HDFS's command name ({@code audit/AuditLogging}
   * from the root's wiring: the audit stage sits above the wire, this package below it).
   */
  @FunctionalInterface
  public interface RefreshAudit {
    void log(String cmd) throws IOException;
  }

  /** One kind of refresh: its generation row and what applying it does on this namenode. */
  private record Kind(String row, String auditCmd, Consumer<Configuration> apply) {}

  private final Storage storage;
  private final Configuration conf;
  private final RefreshAudit audit;
  private final boolean serviceAuthorization;
  private final List<Kind> kinds = new ArrayList<>();
  private final long[] seen;
  private final ScheduledExecutorService poller;

  /**
   * @param serviceAcls applies a fresh configuration's service ACLs to this namenode's RPC server
   */
  public SecurityRefresh(
      Storage storage,
      Configuration conf,
      RefreshAudit audit,
      boolean serviceAuthorization,
      Consumer<Configuration> serviceAcls,
      long pollMillis)
      throws StorageException {
    this.storage = storage;
    this.conf = conf;
    this.audit = audit;
    this.serviceAuthorization = serviceAuthorization;
    kinds.add(new Kind("security_refresh_service_acl", "refreshServiceAcl", serviceAcls));
    kinds.add(
        new Kind(
            "security_refresh_proxy_users",
            "refreshSuperUserGroupsConfiguration",
            ProxyUsers::refreshSuperUserGroupsConfiguration));
    kinds.add(
        new Kind(
            "security_refresh_user_groups",
            "refreshUserToGroupsMappings",
            c -> Groups.getUserToGroupsMappingService(c).refresh()));
    this.seen = generations(); // what this namenode read at start is already current
    this.poller =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "security-refresh");
              t.setDaemon(true);
              return t;
            });
    poller.scheduleWithFixedDelay(this::poll, pollMillis, pollMillis, TimeUnit.MILLISECONDS);
  }

  @Override
  public void refreshServiceAcl() throws IOException {
    if (!serviceAuthorization) {
      throw new AuthorizationException("Service Level Authorization not enabled!");
    }
    refresh(0);
  }

  @Override
  public void refreshSuperUserGroupsConfiguration() throws IOException {
    LOG.info("Refreshing SuperUser proxy group mapping list ");
    refresh(1);
  }

  @Override
  public void refreshUserToGroupsMappings() throws IOException {
    LOG.info(
        "Refreshing all user-to-groups mappings. Requested by user: {}",
        Server.getRemoteUser().getShortUserName());
    refresh(2);
  }

  private void refresh(int kind) throws IOException {
    Kind k = kinds.get(kind);
    long generation = IdAllocator.allocate(storage, k.row(), 1).first();
    apply(kind, generation);
    audit.log(k.auditCmd());
  }

  private synchronized void apply(int kind, long generation) {
    if (generation <= seen[kind]) {
      return;
    }
    Configuration fresh = new Configuration(conf);
    fresh.reloadConfiguration();
    kinds.get(kind).apply().accept(fresh);
    seen[kind] = generation;
  }

  private void poll() {
    try {
      long[] now = generations();
      for (int i = 0; i < now.length; i++) {
        if (now[i] > seen[i]) {
          LOG.info("{} asked of another namenode: applying it here", kinds.get(i).auditCmd());
          apply(i, now[i]);
        }
      }
    } catch (StorageException | RuntimeException e) {
      LOG.warn("cannot read the security refresh generations; next round retries", e);
    }
  }

  /** Each kind's last generation handed out (the allocator's next value less one), 0 if none. */
  private long[] generations() throws StorageException {
    try (Transaction tx = storage.begin()) {
      List<VariableRow> rows =
          tx.findBatch(
              VariableRow.TABLE,
              kinds.stream().map(k -> VariableRow.TABLE.key(k.row())).toList(),
              LockMode.READ_COMMITTED);
      long[] g = new long[rows.size()];
      for (int i = 0; i < g.length; i++) {
        g[i] = rows.get(i) == null ? 0 : rows.get(i).longValue() - 1;
      }
      return g;
    }
  }

  @Override
  public void close() {
    poller.shutdownNow();
  }
}
