package io.hops.namenode.web;

import io.hops.dal.Storage;
import io.hops.namenode.tx.OperationMetrics;
import java.lang.management.ManagementFactory;
import javax.management.ObjectName;
import org.apache.hadoop.metrics2.util.MBeans;

/** Publishes a namenode's operation and database counters on JMX ({@link OperationsMXBean}). */
public final class OperationsBean implements OperationsMXBean, AutoCloseable {
  private final OperationMetrics metrics;
  private final Storage storage;
  private final ObjectName name;

  public OperationsBean(OperationMetrics metrics, Storage storage) {
    this.metrics = metrics;
    this.storage = storage;
    // Several namenodes in one JVM (tests, bin/hops cluster --namenodes N): the first one shows.
    this.name =
        isRegistered("Hadoop:service=NameNode,name=HopsOperations")
            ? null
            : MBeans.register("NameNode", "HopsOperations", this);
  }

  private static boolean isRegistered(String name) {
    try {
      return ManagementFactory.getPlatformMBeanServer().isRegistered(new ObjectName(name));
    } catch (javax.management.MalformedObjectNameException e) {
      throw new IllegalArgumentException(name, e);
    }
  }

  @Override
  public long getOperations() {
    return metrics.all().values().stream().mapToLong(OperationMetrics.Stats::count).sum();
  }

  @Override
  public long getFailedOperations() {
    return metrics.all().values().stream().mapToLong(OperationMetrics.Stats::failures).sum();
  }

  @Override
  public long getRetriedCalls() {
    return metrics.all().entrySet().stream()
        .filter(e -> e.getKey().endsWith(".retried"))
        .mapToLong(e -> e.getValue().count())
        .sum();
  }

  @Override
  public long getTransactionRetries() {
    return metrics.all().values().stream().mapToLong(OperationMetrics.Stats::retries).sum();
  }

  @Override
  public long getDatabaseAccesses() {
    return storage.accessCounts().total();
  }

  @Override
  public void close() {
    if (name != null) {
      MBeans.unregister(name);
    }
  }
}
