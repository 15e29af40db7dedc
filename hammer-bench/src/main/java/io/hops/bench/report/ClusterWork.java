package io.hops.bench.report;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the processes of a system did in a phase's measured window, each null where unknown.
 *
 * @param namenodes per namenode, in the target's order
 * @param databaseCpuMillis the database server's CPU time (when it runs on this machine)
 * @param databaseStatements statements the database received: its round trips
 * @param namenodeThreadCpuMillis the namenodes' CPU time by thread group (handlers, socket readers,
 *     the log's sync thread, garbage collection...), summed over the namenodes, most first; empty
 *     where unknown
 * @param clientCpuMillis the client processes' CPU time, summed (the benchmark's own JVM where the
 *     clients run in it)
 * @param machine the whole machine's busy and total CPU time, all cores summed: with the clients'
 *     and the namenodes' share, whether the clients, the namenodes or neither had the processors
 */
public record ClusterWork(
    List<NamenodeWork> namenodes,
    Long databaseCpuMillis,
    Long databaseStatements,
    Map<String, Long> namenodeThreadCpuMillis,
    Long clientCpuMillis,
    MachineWork machine) {

  public static final ClusterWork NONE =
      new ClusterWork(List.of(), null, null, Map.of(), null, null);

  public ClusterWork {
    namenodes = List.copyOf(namenodes);
    namenodeThreadCpuMillis =
        Collections.unmodifiableMap(new LinkedHashMap<>(namenodeThreadCpuMillis));
  }

  /**
   * One namenode's part.
   *
   * @param cpuMillis its process's CPU time
   * @param operations the operations it ran (its transactions, from its {@code /jmx} counters:
   *     client calls such as create, complete and getBlockLocations each count)
   * @param databaseAccesses the DAL's count of its database accesses (PK, batched, scans, write
   *     batches), the election's and housekeeping's included
   */
  public record NamenodeWork(Long cpuMillis, Long operations, Long databaseAccesses) {}

  /** The machine's CPU time in the window: busy, and in all (busy and idle), all cores summed. */
  public record MachineWork(long busyMillis, long allMillis) {
    /** The share of the machine's processors that were busy. */
    public double busyShare() {
      return allMillis == 0 ? 0 : (double) busyMillis / allMillis;
    }
  }

  /** All namenodes' operations; null unless every count is known. */
  public Long namenodeOperations() {
    return sum(NamenodeWork::operations);
  }

  /** All namenodes' DAL accesses; null unless every count is known. */
  public Long databaseAccesses() {
    return sum(NamenodeWork::databaseAccesses);
  }

  private Long sum(java.util.function.Function<NamenodeWork, Long> f) {
    long sum = 0;
    for (NamenodeWork n : namenodes) {
      if (f.apply(n) == null) {
        return null;
      }
      sum += f.apply(n);
    }
    return namenodes.isEmpty() ? null : sum;
  }
}
