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
   */
  public record NamenodeWork(Long cpuMillis, Long operations) {}

  /** All namenodes' operations; null unless every count is known. */
  public Long namenodeOperations() {
    long sum = 0;
    for (NamenodeWork n : namenodes) {
      if (n.operations() == null) {
        return null;
      }
      sum += n.operations();
    }
    return namenodes.isEmpty() ? null : sum;
  }
}
