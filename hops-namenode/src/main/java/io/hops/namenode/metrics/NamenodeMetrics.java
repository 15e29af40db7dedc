package io.hops.namenode.metrics;

import io.hops.dal.Storage;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.housekeeping.Housekeeping;
import io.hops.namenode.rpc.SafeMode;
import io.hops.namenode.security.UsersAndGroups;
import io.hops.namenode.tx.TransactionRunner;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import javax.management.NotCompliantMBeanException;
import javax.management.ObjectName;
import javax.management.StandardMBean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.server.namenode.NameNodeMXBean;
import org.apache.hadoop.hdfs.server.namenode.metrics.FSNamesystemMBean;
import org.apache.hadoop.metrics2.MetricsSystem;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.source.JvmMetrics;
import org.apache.hadoop.metrics2.util.MBeans;

/**
 * A namenode's metrics in Hadoop's metrics2 system, under HDFS's names so that HDFS dashboards, JMX
 * exporters and {@code /prom} read them: the sources {@code FSNamesystem}, {@code
 * NameNodeActivity}, {@code JvmMetrics} and {@code HopsNamenode}, and the beans {@code
 * FSNamesystemState}, {@code NameNodeInfo} and {@code HopsDatabase} ({@code
 * Hadoop:service=NameNode,name=...}); the RPC server registers {@code RpcActivityForPort<port>}
 * itself once {@link #initialize()} has run.
 *
 * <p>Several namenodes in one JVM (tests, {@code bin/hops cluster --namenodes N}) share one metrics
 * system and one MBean server: the first takes HDFS's names, the others get {@code -<n>} suffixes.
 */
public final class NamenodeMetrics implements AutoCloseable {
  private static final String SERVICE = "NameNode";
  private static final Set<String> NAMES_IN_USE = new HashSet<>();

  private final NameNodeActivity activity;
  private final HopsNamenodeMetrics hops;
  private final Snapshots snapshots;
  private final DatabaseHealth database;
  private final RecentOperations recent = new RecentOperations();
  private final TransactionRunner runner;
  private final List<String> sources = new ArrayList<>();
  private final List<ObjectName> beans = new ArrayList<>();
  private final java.util.Map<String, String> names = new java.util.HashMap<>();

  /**
   * Starts the JVM's metrics system as a namenode's (before the RPC server is built, so that it
   * registers its RPC metrics). Idempotent.
   */
  public static MetricsSystem initialize() {
    return DefaultMetricsSystem.initialize(SERVICE);
  }

  /** The counters the client protocol feeds ({@link ActivityCounting}); registered later. */
  public static NameNodeActivity newActivity() {
    return new NameNodeActivity();
  }

  /** Registers the namenode's sources and beans. */
  public NamenodeMetrics(
      Storage storage,
      TransactionRunner runner,
      BlockManager blocks,
      UsersAndGroups users,
      Configuration conf,
      SafeMode safeMode,
      NameNodeActivity activity,
      Supplier<Housekeeping> housekeeping,
      int rpcPort) {
    this.activity = activity;
    this.runner = runner;
    activity.tagPort(rpcPort);
    runner.metrics().addListener(recent);
    MetricsSystem ms = initialize();
    this.database =
        new DatabaseHealth(
            storage,
            runner.metrics(),
            conf.getLong(
                NamenodeConfig.DB_PROBE_PERIOD_MS, NamenodeConfig.DB_PROBE_PERIOD_MS_DEFAULT));
    this.snapshots = new Snapshots(storage, blocks, conf, safeMode);
    FsNamesystemMetrics fsn = new FsNamesystemMetrics(snapshots, rpcPort);
    this.hops =
        new HopsNamenodeMetrics(
            storage, runner, blocks, users, conf, snapshots, database, housekeeping, rpcPort);
    String fsnName = own("FSNamesystem");
    ms.register(fsnName, "Namesystem state and counts", fsn);
    sources.add(fsnName);
    String activityName = own("NameNodeActivity");
    ms.register(activityName, "NameNode metrics", activity);
    sources.add(activityName);
    String hopsName = own(HopsNamenodeMetrics.NAME);
    ms.register(hopsName, "hops operations, database, election and housekeeping", hops);
    sources.add(hopsName);
    JvmMetrics.initSingleton(SERVICE, null); // one per JVM, the first daemon's
    bean(own("FSNamesystemState"), standard(fsn, FSNamesystemMBean.class));
    bean(
        own("NameNodeInfo"),
        new StandardMBean(
            new NameNodeInfo(storage, blocks, snapshots), NameNodeMXBean.class, true));
    bean(own("HopsDatabase"), new StandardMBean(database, DatabaseHealthMXBean.class, true));
  }

  /**
   * The name under which this namenode registered HDFS's source or bean {@code hdfsName} ({@code
   * FSNamesystem}, {@code NameNodeInfo}, ...): HDFS's own, or with a suffix if another namenode of
   * this JVM has it.
   */
  public String nameOf(String hdfsName) {
    return names.get(hdfsName);
  }

  private String own(String hdfsName) {
    String n = claim(hdfsName);
    names.put(hdfsName, n);
    return n;
  }

  /** Operations per second and latency over the last minute (the web UI's overview). */
  public RecentOperations recent() {
    return recent;
  }

  public NameNodeActivity activity() {
    return activity;
  }

  /** The cluster-wide values, read in the background (the web UI's overview). */
  public Snapshots snapshots() {
    return snapshots;
  }

  /** How long ago the database last answered. */
  public DatabaseHealth database() {
    return database;
  }

  private void bean(String name, Object bean) {
    ObjectName registered = MBeans.register(SERVICE, name, bean);
    if (registered != null) {
      beans.add(registered);
    }
  }

  private static <T> StandardMBean standard(T impl, Class<T> type) {
    try {
      return new StandardMBean(impl, type);
    } catch (NotCompliantMBeanException e) {
      throw new IllegalStateException(e);
    }
  }

  /** HDFS's name if no other namenode of this JVM has it, else the name with a suffix. */
  /**
   * A name no namenode of this JVM holds, and that no other daemon (an HDFS MiniDFSCluster in the
   * same test JVM) registered as a metrics source or bean: metrics2 would otherwise register the
   * source under a suffixed name of its own, and {@link #nameOf} would name the other's.
   */
  private static synchronized String claim(String name) {
    String n = name;
    for (int i = 1; takenElsewhere(n) || !NAMES_IN_USE.add(n); i++) {
      n = name + "-" + i;
    }
    return n;
  }

  private static boolean takenElsewhere(String name) {
    if (NAMES_IN_USE.contains(name)) {
      return false;
    }
    if (DefaultMetricsSystem.instance().getSource(name) != null) {
      return true;
    }
    try {
      return java.lang.management.ManagementFactory.getPlatformMBeanServer()
          .isRegistered(new ObjectName("Hadoop:service=" + SERVICE + ",name=" + name));
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  private static synchronized void release(String name) {
    NAMES_IN_USE.remove(name);
  }

  @Override
  public void close() {
    MetricsSystem ms = DefaultMetricsSystem.instance();
    for (String s : sources) {
      ms.unregisterSource(s);
      release(s);
    }
    for (ObjectName b : beans) {
      MBeans.unregister(b);
      release(b.getKeyProperty("name"));
    }
    hops.close();
    snapshots.close();
    database.close();
    runner.metrics().removeListener(recent);
  }
}
