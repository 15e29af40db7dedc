package io.hops.namenode.web;

import io.hops.election.LeaderElection;
import io.hops.election.Member;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.util.MBeans;

/** Publishes a namenode's election state on JMX ({@link ElectionMXBean}). */
public final class ElectionBean implements ElectionMXBean, AutoCloseable {
  private static final ObjectName NAME = objectName("Hadoop:service=NameNode,name=HopsElection");

  private final LeaderElection election;
  private final ObjectName name;

  private static ObjectName objectName(String name) {
    try {
      return new ObjectName(name);
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  public ElectionBean(LeaderElection election) {
    this.election = election;
    // Several namenodes in one JVM (tests, bin/hops cluster --namenodes N): the first one shows.
    this.name =
        ManagementFactory.getPlatformMBeanServer().isRegistered(NAME)
            ? null
            : MBeans.register("NameNode", "HopsElection", this);
  }

  @Override
  public long getId() {
    return election.id();
  }

  @Override
  public boolean isLeader() {
    return election.isLeader();
  }

  @Override
  public long getEpoch() {
    return election.membership().epoch();
  }

  @Override
  public long getLeaderId() {
    return election.membership().leaderId();
  }

  @Override
  public long getPeriodMillis() {
    return election.periodMillis();
  }

  @Override
  public String getLiveNamenodes() {
    StringBuilder b = new StringBuilder();
    for (Member m : election.membership().members()) {
      b.append(m.id())
          .append(' ')
          .append(m.rpcAddress())
          .append(' ')
          .append(m.httpAddress())
          .append(' ')
          .append(m.leader() ? "leader" : "-")
          .append('\n');
    }
    return b.toString();
  }

  @Override
  public void close() {
    if (name != null) {
      MBeans.unregister(name);
    }
  }
}
