package io.hops.namenode.security;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.DelegationKeyRow;
import io.hops.dal.rows.DelegationTokenRow;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayInputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.security.token.delegation.AbstractDelegationTokenSecretManager;
import org.apache.hadoop.security.token.delegation.DelegationKey;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * HDFS's delegation tokens ({@code HDFS_DELEGATION_TOKEN}) with the master keys and the tokens in
 * the database ({@code delegation_keys}, {@code delegation_tokens}), so any namenode issues,
 * verifies, renews and cancels any token. Hadoop's {@link AbstractDelegationTokenSecretManager}
 * keeps the token format, the checks and their messages; this class replaces its storage, as
 * hadoop-common's SQLDelegationTokenSecretManager does for routers.
 *
 * <p>Its threads are never started: only the leader rolls master keys and removes expired tokens
 * ({@link io.hops.namenode.housekeeping.DelegationKeyRoll}, {@link
 * io.hops.namenode.housekeeping.ExpiredDelegationTokens}). Sequence numbers come from a database
 * counter; key ids from the leader's fenced roll. What a namenode holds in memory is a hint: keys
 * are read again when older than the roll interval or when a token names one it does not know; a
 * token read from the database is trusted for {@link NamenodeConfig#DELEGATION_TOKEN_CACHE_MS} at
 * most, so a cancellation on another namenode is seen within that time. A renewal or cancellation
 * always reads the database.
 */
public final class DelegationTokens
    extends AbstractDelegationTokenSecretManager<DelegationTokenIdentifier> {
  private static final Logger LOG = LoggerFactory.getLogger(DelegationTokens.class);

  /** The first key's id; later keys count up from the largest id in the table. */
  public static final int FIRST_KEY_ID = 1;

  /** The database counter of token sequence numbers. */
  static final String SEQUENCE_COUNTER = "delegation_token_sequence";

  private final Storage storage;
  private final String blockPoolId;
  private final long updateIntervalMs;
  private final long maxLifetimeMs;
  private final long cacheMs;
  private final IdPool sequenceNumbers;

  /** When each cached token was read or written (monotonic ms), by sequence number. */
  private final Map<Integer, Long> readAt = new ConcurrentHashMap<>();

  /** When stale cached tokens were last dropped (monotonic ms). */
  private volatile long pruned = Time.monotonicNow();

  /** The current key as last read, and when (monotonic ms). */
  private volatile Keys keys;

  private record Keys(DelegationKey current, long at) {}

  public DelegationTokens(Storage storage, Configuration conf, String blockPoolId) {
    super(
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_DEFAULT),
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_DEFAULT),
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_RENEW_INTERVAL_DEFAULT),
        removerScanIntervalMs(conf));
    this.storage = storage;
    this.blockPoolId = blockPoolId;
    this.updateIntervalMs =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_KEY,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_KEY_UPDATE_INTERVAL_DEFAULT);
    this.maxLifetimeMs =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_KEY,
            DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_MAX_LIFETIME_DEFAULT);
    this.cacheMs =
        conf.getLong(
            NamenodeConfig.DELEGATION_TOKEN_CACHE_MS,
            NamenodeConfig.DELEGATION_TOKEN_CACHE_MS_DEFAULT);
    this.sequenceNumbers = new IdPool(storage, SEQUENCE_COUNTER, 10);
    this.storeTokenTrackingId =
        conf.getBoolean(
            DFSConfigKeys.DFS_NAMENODE_AUDIT_LOG_TOKEN_TRACKING_ID_KEY,
            DFSConfigKeys.DFS_NAMENODE_AUDIT_LOG_TOKEN_TRACKING_ID_DEFAULT);
    // HDFS runs its secret manager with Kerberos, or when a test asks for tokens without it.
    this.running =
        NamenodeLogin.secure(conf)
            || conf.getBoolean(
                DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_KEY,
                DFSConfigKeys.DFS_NAMENODE_DELEGATION_TOKEN_ALWAYS_USE_DEFAULT);
    if (running) {
      LOG.info(
          "delegation tokens on: keys roll every {} ms, tokens live {} ms at most",
          updateIntervalMs,
          maxLifetimeMs);
    }
  }

  /**
   * How often the leader removes expired tokens: {@link
   * NamenodeConfig#DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS} (HDFS's fixed hour by default).
   */
  public static long removerScanIntervalMs(Configuration conf) {
    return conf.getLong(
        NamenodeConfig.DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS,
        NamenodeConfig.DELEGATION_TOKEN_REMOVER_SCAN_INTERVAL_MS_DEFAULT);
  }

  @Override
  public DelegationTokenIdentifier createIdentifier() {
    return new DelegationTokenIdentifier();
  }

  public String blockPoolId() {
    return blockPoolId;
  }

  public long updateIntervalMs() {
    return updateIntervalMs;
  }

  public long maxLifetimeMs() {
    return maxLifetimeMs;
  }

  /**
   * Hadoop's threads roll keys and remove tokens on every instance: here the leader does both, so
   * they are never started.
   */
  @Override
  public void startThreads() {
    throw new UnsupportedOperationException(
        "DelegationTokens.startThreads: the leader's housekeeping rolls keys and removes tokens");
  }

  // ---- master keys ----

  /**
   * At start: makes the first key if the table has none (a new cluster), so that no namenode issues
   * tokens without one. Two namenodes racing insert the same id; the second one's insert fails and
   * it reads the first one's.
   */
  public void ensureKeys() throws IOException {
    if (!running) {
      return;
    }
    try (Transaction tx = storage.begin()) {
      if (tx.findByPartition(DelegationKeyRow.TABLE, blockPoolId, LockMode.READ_COMMITTED)
          .isEmpty()) {
        tx.insert(DelegationKeyRow.TABLE, firstKey(Time.now()));
        tx.commit();
        LOG.info("made the first delegation key of {}", blockPoolId);
      }
    } catch (DuplicateKeyException e) {
      // another namenode made it first
    }
    readKeys();
  }

  /** A new cluster's key. */
  public DelegationKeyRow firstKey(long now) {
    return new DelegationKeyRow(
        blockPoolId, FIRST_KEY_ID, now + updateIntervalMs + maxLifetimeMs, now, newSecret());
  }

  /** A fresh random secret for a new key (Hadoop's key generator: HMAC-SHA1's algorithm). */
  public byte[] newSecret() {
    return generateSecret().getEncoded();
  }

  /** The key new tokens are signed with, read again when older than the roll interval. */
  private DelegationKey currentKey() throws IOException {
    Keys k = keys;
    if (k == null || Time.monotonicNow() - k.at() >= updateIntervalMs) {
      k = readKeys();
    }
    return k.current();
  }

  private Keys readKeys() throws IOException {
    List<DelegationKeyRow> rows;
    try (Transaction tx = storage.begin()) {
      rows = tx.findByPartition(DelegationKeyRow.TABLE, blockPoolId, LockMode.READ_COMMITTED);
      tx.commit();
    }
    return remember(rows);
  }

  /**
   * Takes {@code rows}, every key as just read or written (the leader calls it after a roll), as
   * what this namenode knows.
   */
  public void learn(List<DelegationKeyRow> rows) throws IOException {
    remember(rows);
  }

  private synchronized Keys remember(List<DelegationKeyRow> rows) throws IOException {
    DelegationKeyRow current =
        rows.stream().max(Comparator.comparingInt(DelegationKeyRow::keyId)).orElse(null);
    if (current == null) {
      throw new RetriableException("delegation keys of " + blockPoolId + " are not made yet");
    }
    Set<Integer> ids = rows.stream().map(DelegationKeyRow::keyId).collect(Collectors.toSet());
    allKeys.keySet().retainAll(ids);
    for (DelegationKeyRow r : rows) {
      allKeys.put(r.keyId(), key(r));
    }
    Keys k = new Keys(allKeys.get(current.keyId()), Time.monotonicNow());
    keys = k;
    return k;
  }

  private static DelegationKey key(DelegationKeyRow r) {
    return new DelegationKey(r.keyId(), r.expiryDate(), r.secret());
  }

  /** The key {@code keyId}, read from the database when this namenode does not know it. */
  @Override
  protected DelegationKey getDelegationKey(int keyId) {
    DelegationKey key = allKeys.get(keyId);
    if (key == null) {
      try {
        readKeys();
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
      key = allKeys.get(keyId);
    }
    return key;
  }

  // ---- tokens ----

  /**
   * Signs a new token's identifier as Hadoop's manager does (issue and maximum dates, the current
   * key, a sequence number) and stores it; a token that could not be stored is never returned.
   */
  @Override
  protected byte[] createPassword(DelegationTokenIdentifier id) {
    try {
      DelegationKey key = currentKey();
      long now = Time.now();
      id.setIssueDate(now);
      id.setMaxDate(now + maxLifetimeMs);
      id.setMasterKeyId(key.getKeyId());
      id.setSequenceNumber(nextSequenceNumber());
      byte[] password = createPassword(id.getBytes(), key.getKey());
      storeToken(
          id,
          new DelegationTokenInformation(
              now + getTokenRenewInterval(), password, getTrackingIdIfEnabled(id)));
      LOG.debug("issued delegation token {}", id);
      return password;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private int nextSequenceNumber() throws IOException {
    long n = sequenceNumbers.next();
    if (n > Integer.MAX_VALUE) {
      throw new IOException("delegation token sequence numbers are exhausted: " + n);
    }
    return (int) n;
  }

  /**
   * A new token for {@code ugi} (its real user too, for a proxy user), renewable by {@code
   * renewer}, as HDFS's FSNamesystem.getDelegationToken makes it; null when the manager is not
   * running (simple authentication), as in HDFS.
   */
  public Token<DelegationTokenIdentifier> issue(UserGroupInformation ugi, Text renewer)
      throws IOException {
    if (!running) {
      LOG.warn("trying to get DT with no secret manager running");
      return null;
    }
    Text realUser = ugi.getRealUser() == null ? null : new Text(ugi.getRealUser().getUserName());
    DelegationTokenIdentifier id =
        new DelegationTokenIdentifier(new Text(ugi.getUserName()), renewer, realUser);
    try {
      return new Token<>(id, this);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  @Override
  protected void storeToken(DelegationTokenIdentifier id, DelegationTokenInformation info)
      throws IOException {
    try (Transaction tx = storage.begin()) {
      tx.insert(DelegationTokenRow.TABLE, row(id, info.getRenewDate()));
      tx.commit();
    }
    super.storeToken(id, info);
    readAt.put(id.getSequenceNumber(), Time.monotonicNow());
  }

  private DelegationTokenRow row(DelegationTokenIdentifier id, long renewDate) {
    return new DelegationTokenRow(
        blockPoolId, id.getSequenceNumber(), id.getBytes(), renewDate, id.getMaxDate());
  }

  /** A renewal: the database's row gets the new date, unless another namenode cancelled it. */
  @Override
  protected void updateToken(DelegationTokenIdentifier id, DelegationTokenInformation info)
      throws IOException {
    try (Transaction tx = storage.begin()) {
      if (!issued(id, tx.find(DelegationTokenRow.TABLE, key(id), LockMode.EXCLUSIVE))) {
        forget(id);
        // AbstractDelegationTokenSecretManager.renewToken, for a token it does not hold.
        throw new InvalidToken("Renewal request for unknown token (" + id + ")");
      }
      tx.update(DelegationTokenRow.TABLE, row(id, info.getRenewDate()));
      tx.commit();
    }
    super.updateToken(id, info);
    readAt.put(id.getSequenceNumber(), Time.monotonicNow());
  }

  /** A cancellation: the row goes, unless another namenode removed it first. */
  @Override
  protected void removeStoredToken(DelegationTokenIdentifier id) throws IOException {
    forget(id);
    try (Transaction tx = storage.begin()) {
      DelegationTokenRow row = tx.find(DelegationTokenRow.TABLE, key(id), LockMode.EXCLUSIVE);
      if (!issued(id, row)) {
        // AbstractDelegationTokenSecretManager.cancelToken, for a token it does not hold.
        throw new InvalidToken("Token not found (" + id + ")");
      }
      tx.delete(DelegationTokenRow.TABLE, row);
      tx.commit();
    }
  }

  private io.hops.dal.schema.Key key(DelegationTokenIdentifier id) {
    return DelegationTokenRow.TABLE.key(blockPoolId, id.getSequenceNumber());
  }

  /** Whether {@code row} is the token {@code id} names (a sequence number alone is not enough). */
  private static boolean issued(DelegationTokenIdentifier id, DelegationTokenRow row) {
    return row != null && Arrays.equals(row.identifier(), id.getBytes());
  }

  private void forget(DelegationTokenIdentifier id) {
    currentTokens.remove(id);
    readAt.remove(id.getSequenceNumber());
  }

  /**
   * Drops cached tokens older than the cache time, at most once per cache time, so the hint does
   * not grow without bound.
   */
  private void forgetStaleTokens() {
    long now = Time.monotonicNow();
    if (now - pruned < cacheMs) {
      return;
    }
    pruned = now;
    currentTokens.keySet().removeIf(id -> stale(readAt.get(id.getSequenceNumber()), now));
    readAt.values().removeIf(at -> stale(at, now));
  }

  private boolean stale(Long at, long now) {
    return at == null || now - at >= cacheMs;
  }

  /**
   * The token's renewal date and password: from this namenode's hint when read within the cache
   * time, else from the database (the password is the HMAC of the identifier under its key). Null
   * for a token no namenode issued or that was cancelled or removed.
   */
  @Override
  protected DelegationTokenInformation getTokenInfo(DelegationTokenIdentifier id) {
    DelegationTokenInformation cached = currentTokens.get(id);
    if (cached != null && !stale(readAt.get(id.getSequenceNumber()), Time.monotonicNow())) {
      return cached;
    }
    forgetStaleTokens();
    DelegationTokenRow row;
    try (Transaction tx = storage.begin()) {
      row = tx.find(DelegationTokenRow.TABLE, key(id), LockMode.READ_COMMITTED);
      tx.commit();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    DelegationKey key = issued(id, row) ? getDelegationKey(id.getMasterKeyId()) : null;
    if (key == null) {
      forget(id);
      return null;
    }
    DelegationTokenInformation info =
        new DelegationTokenInformation(
            row.renewDate(),
            createPassword(id.getBytes(), key.getKey()),
            getTrackingIdIfEnabled(id));
    currentTokens.put(id, info);
    readAt.put(id.getSequenceNumber(), Time.monotonicNow());
    return info;
  }

  /** The SASL server's check: a database that does not answer is a retriable error. */
  @Override
  public byte[] retriableRetrievePassword(DelegationTokenIdentifier id)
      throws InvalidToken, RetriableException {
    try {
      return retrievePassword(id);
    } catch (UncheckedIOException e) {
      throw new RetriableException(e.getCause());
    }
  }

  /** HDFS's renewal (renewer checks, messages), always against the database's row. */
  @Override
  public long renewToken(Token<DelegationTokenIdentifier> token, String renewer)
      throws IOException {
    forget(decode(token));
    try {
      return super.renewToken(token, renewer);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  /** HDFS's cancellation (owner or renewer only, messages), always against the database's row. */
  @Override
  public DelegationTokenIdentifier cancelToken(
      Token<DelegationTokenIdentifier> token, String canceller) throws IOException {
    DelegationTokenIdentifier id = decode(token);
    forget(id);
    try {
      getTokenInfo(id); // Hadoop's cancelToken takes the token from the cache
      return super.cancelToken(token, canceller);
    } catch (UncheckedIOException e) {
      throw e.getCause();
    }
  }

  private DelegationTokenIdentifier decode(Token<DelegationTokenIdentifier> token)
      throws IOException {
    DelegationTokenIdentifier id = createIdentifier();
    id.readFields(new DataInputStream(new ByteArrayInputStream(token.getIdentifier())));
    return id;
  }
}
