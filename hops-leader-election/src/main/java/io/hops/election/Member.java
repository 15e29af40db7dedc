package io.hops.election;

/**
 * A live namenode as the election sees it: its id, where clients ({@code rpcAddress}, {@code
 * host:port}) and operators ({@code httpAddress}) reach it, when it joined (database time), and
 * whether it is the leader.
 */
public record Member(
    long id,
    String hostname,
    String rpcAddress,
    String httpAddress,
    long startTime,
    boolean leader) {}
