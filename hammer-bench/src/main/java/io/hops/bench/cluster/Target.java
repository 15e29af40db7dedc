package io.hops.bench.cluster;

import java.util.List;
import java.util.Map;

/** A file system under test: where clients reach it, and which processes are its namenodes. */
public interface Target extends AutoCloseable {
  /** The name in reports: {@code hops}, {@code hdfs}, ... */
  String system();

  String uri();

  /** Client settings this file system needs (e.g. its replication). */
  Map<String, String> clientConf();

  /** Namenode processes whose CPU time is charged to the operations; empty if unknown. */
  List<Long> namenodePids();

  /**
   * The namenodes' web addresses ({@code host:port}, in the order of {@link #namenodePids()}),
   * where each publishes its operation counters on {@code /jmx}; empty if unknown.
   */
  default List<String> namenodeWebAddresses() {
    return List.of();
  }

  /** The metadata database whose counters a run reads, or null (embedded, or not known). */
  default MariaDbCounters database() {
    return null;
  }

  /** What a report should say about it: store, heap, handlers, datanode, logs. */
  Map<String, String> facts();

  @Override
  void close();
}
