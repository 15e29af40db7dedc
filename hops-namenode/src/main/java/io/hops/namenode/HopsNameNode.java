package io.hops.namenode;

import io.hops.common.HopsConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.election.ElectionSettings;
import io.hops.election.LeaderElection;
import io.hops.namenode.check.Fsck;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.housekeeping.Housekeeping;
import io.hops.namenode.metrics.ActivityCounting;
import io.hops.namenode.metrics.NameNodeActivity;
import io.hops.namenode.metrics.NamenodeMetrics;
import io.hops.namenode.rpc.ClientAdmin;
import io.hops.namenode.rpc.ClientDelegationTokens;
import io.hops.namenode.rpc.ClientFileReads;
import io.hops.namenode.rpc.ClientFileReports;
import io.hops.namenode.rpc.ClientFileWrites;
import io.hops.namenode.rpc.ClientLeases;
import io.hops.namenode.rpc.ClientNamespaceReads;
import io.hops.namenode.rpc.ClientNamespaceWrites;
import io.hops.namenode.rpc.ClientPipeline;
import io.hops.namenode.rpc.ClientProtocolAreas;
import io.hops.namenode.rpc.ClientRpc;
import io.hops.namenode.rpc.ClientSnapshots;
import io.hops.namenode.rpc.ClientXAttrsAndAcls;
import io.hops.namenode.rpc.DatanodeRpc;
import io.hops.namenode.rpc.MembershipRpc;
import io.hops.namenode.rpc.NamenodeRpc;
import io.hops.namenode.rpc.RpcServer;
import io.hops.namenode.rpc.SafeModeGuard;
import io.hops.namenode.rpc.VirtualPaths;
import io.hops.namenode.security.NamenodeLogin;
import io.hops.namenode.security.SecurityRefresh;
import io.hops.namenode.upgrade.SchemaVersion;
import io.hops.namenode.web.ElectionBean;
import io.hops.namenode.web.FsckServlet;
import io.hops.namenode.web.OperationsBean;
import io.hops.namenode.web.WebServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.time.Duration;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stateless namenode: a DAL storage, a {@link Namesystem} over it, and the RPC server. Any
 * number of them may serve the same database.
 */
public final class HopsNameNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HopsNameNode.class);

  private final Storage storage;
  private final boolean ownsStorage;
  private final Namesystem namesystem;
  private final RpcServer rpc;
  private final SecurityRefresh securityRefresh;
  private final io.hops.namenode.audit.AuditLog auditLog;
  private final org.apache.hadoop.hdfs.protocol.ClientProtocol served;
  private io.hops.namenode.smallfiles.DatabaseBlockServer dbBlocks;
  private final io.hops.namenode.smallfiles.DatabaseFileMover databaseFileMover;
  private final WebServer web;
  private final Housekeeping housekeeping;
  private final LeaderElection election;
  private final Storage electionStorage;
  private final InetSocketAddress address;
  private ElectionBean electionBean;
  private io.hops.namenode.rpc.SafeMode safeMode;
  private NamenodeMetrics metrics;
  private final OperationsBean operationsBean;
  private boolean stopped;

  /** Starts a namenode over its own storage, opened from the {@code hops.metadata.*} keys. */
  public static HopsNameNode start(Configuration conf) throws IOException {
    Storage storage = Storages.open(NamenodeConfig.dalConfig(conf));
    try {
      SchemaVersion.atStart(storage, conf);
      return new HopsNameNode(conf, storage, true);
    } catch (IOException | RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** Starts a namenode over a storage someone else owns (tests: two namenodes, one store). */
  public static HopsNameNode start(Configuration conf, Storage storage) throws IOException {
    return new HopsNameNode(conf, storage, false);
  }

  private HopsNameNode(Configuration conf, Storage storage, boolean ownsStorage)
      throws IOException {
    this.storage = storage;
    this.ownsStorage = ownsStorage;
    int handlers = NamenodeConfig.handlerCount(conf, storage.engine());
    NamenodeConfig.checkPoolServes(conf, handlers, storage.poolUsage().get("max"));
    // Before the namesystem: the superuser is the login user's short name.
    NamenodeLogin.login(conf, rpcHostName(conf));
    this.namesystem = new Namesystem(storage, conf);
    namesystem.ensureRoot();
    io.hops.namenode.ops.snapshot.SnapshotLogStart.ensure(storage);
    namesystem.blockTokens().ensureKeys();
    namesystem.delegationTokens().ensureKeys();
    InetSocketAddress bind =
        NetUtils.createSocketAddr(
            conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1"),
            conf.getInt(NamenodeConfig.RPC_PORT, NamenodeConfig.RPC_PORT_DEFAULT));
    ClientRpc client = clientRpc(namesystem);
    this.auditLog = new io.hops.namenode.audit.AuditLog(conf);
    NamenodeMetrics.initialize(); // before the RPC server, which registers its own metrics
    NameNodeActivity activity = NamenodeMetrics.newActivity();
    // One protocol object for RPC and WebHDFS: reserved paths, safe mode, the audit log, metrics
    // and errors are shared.
    // Outermost first: database errors as clients see them, counters, audit, safe mode, then
    // reserved paths become real ones.
    io.hops.namenode.rpc.CallStage[] stages = {
      io.hops.namenode.rpc.DatabaseErrors.stage(),
      io.hops.namenode.rpc.NamesInMessages.stage(namesystem.users().longNames()),
      ActivityCounting.stage(activity),
      io.hops.namenode.audit.AuditLogging.stage(
          auditLog,
          path -> {
            var superuser = namesystem.superuserChecker();
            String real =
                io.hops.namenode.resolve.ReservedPaths.translate(namesystem.storage(), path).path();
            return namesystem.run(
                () ->
                    new io.hops.namenode.ops.GetFileInfo(
                        namesystem.statuses(),
                        namesystem.snapshots(),
                        superuser,
                        real,
                        "auditStatus"));
          }),
      SafeModeGuard.stage(client.safeMode()),
      VirtualPaths.stage(namesystem.storage(), namesystem.checkers())
    };
    this.served = io.hops.namenode.rpc.ClientProtocolChain.of(client, stages);
    // Proxy users as configured, for RPC and WebHDFS alike (one process-wide list, as in HDFS).
    ProxyUsers.refreshSuperUserGroupsConfiguration(conf);
    this.securityRefresh =
        new SecurityRefresh(
            storage,
            conf,
            cmd -> io.hops.namenode.audit.AuditLogging.logRpc(auditLog, cmd),
            conf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false),
            this::refreshServiceAcl,
            conf.getLong(
                NamenodeConfig.SECURITY_REFRESH_POLL_MS,
                NamenodeConfig.SECURITY_REFRESH_POLL_MS_DEFAULT));
    try {
      this.rpc =
          new RpcServer(
              conf,
              served,
              datanodeRpc(namesystem),
              new NamenodeRpc(
                  namesystem.blockTokens(),
                  namesystem.checkers(),
                  namesystem.storage(),
                  namesystem.blocks(),
                  client.safeMode()),
              new MembershipRpc(namesystem.blocks()),
              securityRefresh,
              namesystem.delegationTokens(),
              bind.getHostString(),
              bind.getPort(),
              handlers);
    } catch (IOException | RuntimeException e) {
      securityRefresh.close();
      throw e;
    }
    // The small-files protocol behind the same stages: safe mode, audit, counters, reserved paths.
    rpc.addSmallFiles(
        io.hops.namenode.rpc.ClientProtocolChain.of(
            io.hops.common.smallfiles.SmallFilesProtocol.class,
            new io.hops.namenode.rpc.SmallFilesRpc(
                namesystem.runner(),
                namesystem.checkers(),
                namesystem.blocks(),
                namesystem.inodeIds(),
                namesystem.leases(),
                namesystem.limits(),
                namesystem.smallFiles(),
                namesystem.snapshots(),
                namesystem.statuses(),
                namesystem.users(),
                client::fileRead),
            stages));
    rpc.start();
    this.address = rpc.address(); // kept: still known once the server has stopped
    int xferPort =
        conf.getInt(
            io.hops.common.HopsConfig.SMALL_FILE_XFER_PORT,
            io.hops.common.HopsConfig.SMALL_FILE_XFER_PORT_DEFAULT);
    if (xferPort >= 0) {
      dbBlocks =
          new io.hops.namenode.smallfiles.DatabaseBlockServer(
              namesystem.runner(),
              namesystem.smallFiles(),
              namesystem.blockTokens(),
              conf,
              bind.getHostString(),
              xferPort);
      namesystem.smallFiles().setEndpoint(dbBlocks.node());
    }
    try {
      this.web =
          WebServer.startOrNull(
              httpConf(conf),
              namesystem.storage(),
              namesystem.runner(),
              namesystem.blocks(),
              namesystem.checkers(),
              namesystem.delegationTokens(),
              fsck(client.safeMode()),
              served,
              bind.getHostString(),
              uri());
    } catch (IOException | RuntimeException e) {
      rpc.close();
      securityRefresh.close();
      if (dbBlocks != null) {
        dbBlocks.close();
      }
      throw e;
    }
    databaseFileMover =
        new io.hops.namenode.smallfiles.DatabaseFileMover(
            namesystem.runner(),
            namesystem.smallFiles(),
            namesystem.inodeIds(),
            namesystem.blocks(),
            namesystem.checkers(),
            namesystem.faults(),
            java.net.URI.create(uri()),
            conf);
    client.setDatabaseFileMover(databaseFileMover);
    housekeeping =
        new Housekeeping(
            conf,
            storage,
            namesystem.runner(),
            namesystem.blocks(),
            namesystem.leases(),
            namesystem.subtrees(),
            namesystem.blockTokens(),
            namesystem.delegationTokens(),
            namesystem.checkers(),
            namesystem.limits(),
            namesystem.snapshots(),
            java.net.URI.create(uri()));
    io.hops.namenode.rpc.SafeMode modes = client.safeMode();
    housekeeping.whileInSafeMode(
        () -> {
          try {
            return modes.isOn();
          } catch (IOException e) {
            return true; // not known: change nothing this round
          }
        });
    // A starting namenode's full reports may defer their replication checks (DeferredChecks).
    namesystem.blocks().whileStarting(modes::inStartupSafeMode);
    // HDFS re-checks every block when a second rack joins only once it populates its replication
    // queues, i.e. not in startup safe mode.
    namesystem
        .blocks()
        .datanodes()
        .rackHistory()
        .whenPopulatingReplicationQueues(() -> !modes.inStartupSafeMode());
    // The election's rounds never wait behind the shared pool: a namenode whose handlers hold
    // every connection would otherwise miss its heartbeats and lose the leadership.
    Storage ownConnections = null;
    try {
      ownConnections = storage.withOwnConnections("election", ELECTION_CONNECTIONS);
      electionStorage = ownConnections;
      election =
          new LeaderElection(
              electionStorage,
              electionSettings(conf),
              address().getHostString(),
              address().getHostString() + ":" + address().getPort(),
              web == null ? "" : web.address().getHostString() + ":" + web.address().getPort(),
              namesystem.blocks().clock());
      namesystem.blocks().setElection(election);
      election.addListener(
          (leader, epoch) -> {
            if (leader) {
              housekeeping.runSoon();
            }
          });
      election.start();
      electionBean = new ElectionBean(election);
      // Serving once it knows the cluster's state: a namenode that joins a serving cluster leaves
      // startup safe mode within a round or two; one of a cluster that starts stays in it.
      safeMode = client.safeMode();
      safeMode.start(4 * election.periodMillis());
    } catch (IOException | RuntimeException e) {
      housekeeping.close();
      if (ownConnections != null && ownConnections != storage) {
        ownConnections.close();
      }
      if (web != null) {
        web.close();
      }
      rpc.close();
      securityRefresh.close();
      throw e;
    }
    housekeeping.start();
    try {
      metrics =
          new NamenodeMetrics(
              storage,
              namesystem.runner(),
              namesystem.blocks(),
              namesystem.users(),
              conf,
              client.safeMode(),
              activity,
              () -> housekeeping,
              address.getPort());
      if (web != null) {
        web.showMetrics(metrics);
      }
      operationsBean = new OperationsBean(namesystem.runner().metrics(), storage);
    } catch (RuntimeException e) {
      // Nothing may outlive a namenode that did not start: its metrics sources would be sampled
      // by the JVM's metrics timer over a store that the caller closes.
      if (metrics != null) {
        metrics.close();
      }
      stopped = true;
      housekeeping.close();
      election.close();
      closeElectionStorage();
      if (web != null) {
        web.close();
      }
      rpc.close();
      securityRefresh.close();
      throw e;
    }
    LOG.info(
        "namenode serving ClientProtocol at {} with {} handlers over the {} store; web UI {}",
        address(),
        handlers,
        storage.engine(),
        web == null ? "off" : web.uri());
  }

  /** The election's round and the leader's eviction of dead namenodes, each in a thread. */
  private static final int ELECTION_CONNECTIONS = 2;

  private void closeElectionStorage() {
    if (electionStorage != storage) {
      electionStorage.close();
    }
  }

  /**
   * Applies the service ACLs of a refreshed configuration (a refresh may come from any namenode).
   */
  private void refreshServiceAcl(Configuration fresh) {
    rpc.refreshServiceAcl(fresh);
  }

  /**
   * The host name {@code _HOST} stands for in the namenode's principal: that of the RPC address
   * clients use ({@code dfs.namenode.rpc-address} if set, else the bind host), as HDFS's NameNode.
   */
  private static String rpcHostName(Configuration conf) {
    String address = conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY);
    if (address == null || address.isEmpty()) {
      address = conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1");
    }
    return NetUtils.createSocketAddr(address, 0).getHostName();
  }

  /** {@code /fsck}'s walk: check/Fsck over this namenode's namespace and blocks. */
  private FsckServlet.Walk fsck(io.hops.namenode.rpc.SafeMode safeMode) {
    Namesystem ns = namesystem;
    return (pc, caller, remoteAddress, params, out) ->
        new Fsck(
                ns.runner(),
                ns.blocks(),
                ns.smallFiles(),
                ns.statuses(),
                ns.snapshots(),
                ns.limits(),
                ns.conf(),
                safeMode,
                pc,
                caller,
                remoteAddress,
                params,
                out)
            .run();
  }

  /**
   * With the RPC port picked by the system (tests, demo), the HTTP and HTTPS ports are too, unless
   * set.
   */
  private static Configuration httpConf(Configuration conf) {
    if (conf.getInt(NamenodeConfig.RPC_PORT, -1) != 0) {
      return conf;
    }
    Configuration c = new Configuration(conf);
    for (String key : new String[] {NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTPS_PORT}) {
      if (conf.get(key) == null) {
        c.setInt(key, 0);
      }
    }
    return c;
  }

  /** The RPC address clients use: {@code hdfs://host:port}. */
  public InetSocketAddress address() {
    return address;
  }

  public String uri() {
    return "hdfs://" + address().getHostString() + ":" + address().getPort();
  }

  /** The web UI and {@code /fsck}: {@code http://host:port}, or null if HTTP is off. */
  public String httpUri() {
    return web == null ? null : web.uri();
  }

  /** The HTTPS address ({@code dfs.http.policy} with HTTPS), or null. */
  public InetSocketAddress httpsAddress() {
    return web == null ? null : web.httpsAddress();
  }

  /** The HTTP address, or null if HTTP is off. */
  public InetSocketAddress httpAddress() {
    return web == null ? null : web.address();
  }

  public Namesystem namesystem() {
    return namesystem;
  }

  /** The metadata store this namenode serves (its own, or one it shares with others). */
  public Storage storage() {
    return storage;
  }

  /** The datanodes as this namenode follows them: registrations, heartbeats, storage reports. */
  public io.hops.namenode.blocks.DatanodeManager datanodes() {
    return namesystem.blocks().datanodes();
  }

  /** Who moves database files to datanodes before a stock append or a concat. */
  public io.hops.namenode.smallfiles.DatabaseFileMover databaseFileMover() {
    return databaseFileMover;
  }

  /**
   * The client protocol as RPC and WebHDFS serve it: reserved paths, safe mode, the audit log and
   * the activity counters in front of the operations.
   */
  public org.apache.hadoop.hdfs.protocol.ClientProtocol clientProtocol() {
    return served;
  }

  /** The leader's housekeeping (it does nothing on other namenodes). */
  public Housekeeping housekeeping() {
    return housekeeping;
  }

  /** This namenode's metrics2 sources and beans. */
  public NamenodeMetrics metrics() {
    return metrics;
  }

  /** This namenode's part in the leader election. */
  public LeaderElection election() {
    return election;
  }

  /** The election's timing from {@code hops.leader-election.*} (docs/configuration.md). */
  public static ElectionSettings electionSettings(Configuration conf) {
    return new ElectionSettings(
        Duration.ofMillis(
            conf.getLong(HopsConfig.ELECTION_PERIOD_MS, HopsConfig.ELECTION_PERIOD_MS_DEFAULT)),
        conf.getInt(
            HopsConfig.ELECTION_MISSED_HEARTBEATS, HopsConfig.ELECTION_MISSED_HEARTBEATS_DEFAULT),
        Duration.ofMillis(
            conf.getLong(
                HopsConfig.ELECTION_MAX_PERIOD_MS, HopsConfig.ELECTION_MAX_PERIOD_MS_DEFAULT)));
  }

  /**
   * Fault injection for tests: stops at once without leaving the election, as SIGKILL would; its
   * election row stays until the leader evicts it.
   */
  public void crash() {
    stop(true);
  }

  @Override
  public void close() {
    stop(false);
    if (ownsStorage) {
      storage.close();
    }
  }

  private synchronized void stop(boolean crash) {
    if (stopped) {
      return;
    }
    stopped = true;
    if (safeMode != null) {
      safeMode.close();
    }
    namesystem.subtrees().stop();
    namesystem.snapshotReclaims().stop();
    housekeeping.close();
    electionBean.close();
    if (metrics != null) {
      metrics.close();
    }
    operationsBean.close();
    if (crash) {
      election.crash();
    } else {
      election.close();
    }
    closeElectionStorage();
    if (web != null) {
      web.close();
    }
    if (crash) {
      rpc.crash();
    } else {
      rpc.close();
    }
    securityRefresh.close();
    auditLog.close();
    if (dbBlocks != null) {
      dbBlocks.close();
    }
  }

  /** Safe mode as this namenode follows it (manual, and startup safe mode). */
  public io.hops.namenode.rpc.SafeMode safeMode() {
    return safeMode;
  }

  /** The audit log (HDFS's {@code hdfs-audit.log} lines). */
  public io.hops.namenode.audit.AuditLog auditLog() {
    return auditLog;
  }

  /**
   * The {@code ClientProtocol} calls of a namesystem: each protocol area of {@link ClientRpc} built
   * with the collaborators it uses.
   */
  public static ClientRpc clientRpc(Namesystem ns) {
    var admin = new ClientAdmin(ns.runner(), ns.checkers(), ns.blocks(), ns.conf(), ns.storage());
    var areas =
        new ClientProtocolAreas(
            new ClientNamespaceReads(
                ns.runner(),
                ns.checkers(),
                ns.blocks(),
                ns.conf(),
                ns.limits(),
                ns.smallFiles(),
                ns.snapshots(),
                ns.statuses(),
                ns.subtrees(),
                ns.blockTokens()),
            new ClientNamespaceWrites(
                ns.runner(),
                ns.checkers(),
                ns.blocks(),
                ns.conf(),
                ns.inodeIds(),
                ns.limits(),
                ns.subtrees(),
                ns.users()),
            new ClientFileReads(
                ns.runner(),
                ns.checkers(),
                ns.blocks(),
                ns.conf(),
                ns.smallFiles(),
                ns.snapshots(),
                ns.blockTokens(),
                admin::safeMode),
            new ClientFileWrites(
                ns.runner(),
                ns.checkers(),
                ns.blocks(),
                ns.inodeIds(),
                ns.leases(),
                ns.limits(),
                ns.smallFiles(),
                ns.statuses(),
                ns.users(),
                ns.blockTokens()),
            new ClientPipeline(ns.runner(), ns.checkers(), ns.blocks(), ns.blockTokens()),
            new ClientLeases(ns.runner(), ns.checkers(), ns.leases(), ns.blocks().clock()),
            new ClientXAttrsAndAcls(
                ns.runner(), ns.checkers(), ns.snapshots(), ns.users(), ns.xattrs()),
            new ClientSnapshots(
                ns.runner(),
                ns.checkers(),
                ns.limits(),
                ns.snapshots(),
                ns.users(),
                ns.snapshotReclaims()),
            admin,
            new ClientFileReports(
                ns.runner(), ns.checkers(), ns.blocks(), ns.conf(), ns.storage(), ns.users()),
            new ClientDelegationTokens(ns.delegationTokens()));
    return new ClientRpc(
        areas, ns.runner(), ns.checkers(), ns.blocks(), ns.blockTokens(), ns.conf());
  }

  /** The {@code DatanodeProtocol} calls of a namesystem, built with the collaborators they use. */
  public static DatanodeRpc datanodeRpc(Namesystem ns) {
    return new DatanodeRpc(
        ns.runner(), ns.storage(), ns.blocks(), ns.blockTokens(), ns.faults(), ns.conf());
  }
}
