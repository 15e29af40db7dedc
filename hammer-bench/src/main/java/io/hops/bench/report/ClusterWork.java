package io.hops.bench.report;

import java.util.List;

/**
 * What the processes of a system did in a phase's measured window, each null where unknown.
 *
 * @param namenodes per namenode, in the target's order
 * @param databaseCpuMillis the database server's CPU time (when it runs on this machine)
 * @param databaseStatements statements the database received: its round trips
 */
public record ClusterWork(
    List<NamenodeWork> namenodes, Long databaseCpuMillis, Long databaseStatements) {

  public static final ClusterWork NONE = new ClusterWork(List.of(), null, null);

  public ClusterWork {
    namenodes = List.copyOf(namenodes);
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
