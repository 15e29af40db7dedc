package io.hops.client;

/** The keys of hops-client and their defaults (docs/configuration.md, section "hops-client"). */
public final class HopsClientConfig {
  /** {@code random}, {@code round-robin} or {@code sticky}: see {@link NamenodeSelection}. */
  public static final String NAMENODE_SELECTION = "hops.client.namenode-selection";

  public static final String NAMENODE_SELECTION_DEFAULT = "round-robin";

  /** How often the client asks a namenode for the live namenodes. */
  public static final String MEMBERSHIP_REFRESH_MS = "hops.client.membership-refresh.ms";

  public static final long MEMBERSHIP_REFRESH_MS_DEFAULT = 10_000;

  /** How long a namenode that failed a call is left out of the selection. */
  public static final String DEAD_NAMENODE_TTL_MS = "hops.client.failover.dead-namenode-ttl.ms";

  public static final long DEAD_NAMENODE_TTL_MS_DEFAULT = 10_000;

  private HopsClientConfig() {}
}
