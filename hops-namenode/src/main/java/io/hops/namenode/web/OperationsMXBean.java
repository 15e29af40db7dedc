package io.hops.namenode.web;

/**
 * A namenode's work as {@code /jmx} and any JMX client see it ({@code
 * Hadoop:service=NameNode,name=HopsOperations}): running totals since it started, so that a reader
 * takes differences (hammer-bench counts each namenode's share of a phase so).
 */
public interface OperationsMXBean {
  /** Client and datanode operations run as transactions, failed ones included. */
  long getOperations();

  /** Of those, the ones that failed (an HDFS error to the caller, or out of retries). */
  long getFailedOperations();

  /**
   * Resent non-idempotent calls (same client id and call id) answered from the retry cache with the
   * first outcome, without running them again.
   */
  long getRetriedCalls();

  /** Transaction restarts after transient database errors. */
  long getTransactionRetries();

  /**
   * Database accesses of every kind (PK, batched, scans, write batches) by everything in this
   * namenode: operations, the election and housekeeping.
   */
  long getDatabaseAccesses();
}
