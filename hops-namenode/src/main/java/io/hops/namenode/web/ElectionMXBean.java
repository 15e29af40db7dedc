package io.hops.namenode.web;

/**
 * The leader election as {@code /jmx} and any JMX client see it ({@code
 * Hadoop:service=NameNode,name=HopsElection}).
 */
public interface ElectionMXBean {
  /** This namenode's election id. */
  long getId();

  /** Whether this namenode leads now. */
  boolean isLeader();

  /** The epoch of the current leadership. */
  long getEpoch();

  /** The leader's id, or -1. */
  long getLeaderId();

  /** The election period in force, in milliseconds. */
  long getPeriodMillis();

  /** The live namenodes, one a line: id, RPC and web addresses, and "leader" or "-". */
  String getLiveNamenodes();
}
