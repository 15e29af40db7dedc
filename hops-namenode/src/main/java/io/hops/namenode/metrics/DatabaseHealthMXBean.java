package io.hops.namenode.metrics;

/**
 * {@link DatabaseHealth} as the bean {@code Hadoop:service=NameNode,name=HopsDatabase}: read when
 * {@code /jmx} is, not from the metrics system's cache (which may be {@code *.period} old), so the
 * age is the age now.
 */
public interface DatabaseHealthMXBean {
  /** Milliseconds since the database last answered this namenode. */
  long getDatabaseLastRoundTripAgeMs();

  /** Time of the last answered one-row probe read, in microseconds; -1 before the first. */
  long getDatabaseProbeMicros();

  /** The web UI's line: "healthy (...)" or "UNREACHABLE (...)". */
  String getDatabaseState();
}
