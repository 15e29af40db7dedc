package io.hops.common;

/**
 * Every configuration key of hops and its default, in one place. Keys are read from Hadoop-style
 * {@code conf/hdfs-site.xml}; docs/configuration.md lists them for operators.
 */
public final class HopsConfig {
  private HopsConfig() {}

  /** The metadata database engine: {@code embedded}, {@code mysql} or {@code ndb}. */
  public static final String METADATA_ENGINE = "hops.metadata.engine";

  public static final String METADATA_ENGINE_DEFAULT = "embedded";

  /**
   * Where the embedded engine keeps its store: a directory, or {@code mem:NAME} for an in-memory
   * store that lives as long as the process (tests).
   */
  public static final String EMBEDDED_DIR = "hops.metadata.embedded.dir";

  public static final String EMBEDDED_DIR_DEFAULT = "./data/metadata";

  /**
   * Whether a commit on the embedded engine returns only after its write-ahead log entry is on disk
   * (fsync; concurrent commits share one). {@code false} is the faster, weaker mode: a commit
   * survives the death of the process but not a power loss or an operating-system crash.
   */
  public static final String EMBEDDED_FSYNC_ON_COMMIT = "hops.metadata.embedded.fsync-on-commit";

  public static final boolean EMBEDDED_FSYNC_ON_COMMIT_DEFAULT = true;

  /** JDBC URL of a MySQL, MariaDB or NDB SQL node database, e.g. {@code jdbc:mariadb://h/hops}. */
  public static final String JDBC_URL = "hops.metadata.jdbc.url";

  public static final String JDBC_USER = "hops.metadata.jdbc.user";
  public static final String JDBC_PASSWORD = "hops.metadata.jdbc.password";

  /** Database connections per namenode. */
  public static final String POOL_SIZE = "hops.metadata.pool.size";

  public static final int POOL_SIZE_DEFAULT = 32;

  /**
   * How long a transaction waits for a row lock before it fails with a retryable error. MySQL and
   * NDB round it up to whole seconds.
   */
  public static final String LOCK_WAIT_TIMEOUT_MS = "hops.metadata.lock-wait-timeout.ms";

  public static final long LOCK_WAIT_TIMEOUT_MS_DEFAULT = 10_000;
}
