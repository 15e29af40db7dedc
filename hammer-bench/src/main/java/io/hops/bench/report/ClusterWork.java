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
 */
public record ClusterWork(
    List<NamenodeWork> namenodes,
    Long databaseCpuMillis,
    Long databaseStatements,
    Map<String, Long> namenodeThreadCpuMillis) {

  public static final ClusterWork NONE = new ClusterWork(List.of(), null, null, Map.of());

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
