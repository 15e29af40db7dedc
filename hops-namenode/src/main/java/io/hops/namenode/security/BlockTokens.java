package io.hops.namenode.security;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockKeyRow;
import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.protocol.datatransfer.InvalidEncryptionKeyException;
import org.apache.hadoop.hdfs.security.token.block.BlockKey;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenIdentifier.AccessMode;
import org.apache.hadoop.hdfs.security.token.block.BlockTokenSecretManager;
import org.apache.hadoop.hdfs.security.token.block.DataEncryptionKey;
import org.apache.hadoop.hdfs.security.token.block.ExportedBlockKeys;
import org.apache.hadoop.hdfs.server.protocol.KeyUpdateCommand;
import org.apache.hadoop.ipc.RetriableException;
import org.apache.hadoop.security.token.SecretManager;
import org.apache.hadoop.security.token.Token;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Block access tokens ({@code dfs.block.access.token.enable}), as HDFS's namenode issues them, with
 * the keys shared through the database ({@code block_keys}): the leader makes and rolls them
 * ({@link io.hops.namenode.housekeeping.BlockKeyRoll}); every namenode signs the located blocks it
 * returns with the current key, exports all keys to the datanodes at registration and in {@code
 * KeyUpdateCommand}s, and checks tokens for the database-file block server. Any namenode's token
 * therefore verifies on any datanode.
 *
 * <p>Signing and checking are Hadoop's own {@link BlockTokenSecretManager} in its worker mode (the
 * balancer's), fed the keys read from the database: the token format is HDFS's by construction.
 * What this namenode read is a hint: it is read again when older than the roll interval, when a
 * token names a key it does not know, and by the leader after each roll.
 */
public final class BlockTokens {
  private static final Logger LOG = LoggerFactory.getLogger(BlockTokens.class);

  /** The first keys' ids; later keys count up from the largest id in the table. */
  public static final int FIRST_KEY_ID = 1;

  private final Storage storage;
  private final String blockPoolId;
  private final boolean enabled;
  private final boolean encryptDataTransfer;
  private final long updateIntervalMs;
  private final long lifetimeMs;
  private final BlockTokenSecretManager manager;
  private final Secrets secrets = new Secrets();

  /** By datanode uuid, the current key id it was last sent (a hint: a resend is harmless). */
  private final Map<String, Integer> sent = new ConcurrentHashMap<>();

  private volatile Keys keys;

  /** What this namenode last read: the rows, exported for datanodes, and when (monotonic ms). */
  private record Keys(List<BlockKeyRow> rows, ExportedBlockKeys exported, int currentId, long at) {}

  public BlockTokens(Storage storage, Configuration conf, String blockPoolId) {
    this.storage = storage;
    this.blockPoolId = blockPoolId;
    this.enabled =
        conf.getBoolean(
            DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY,
            DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_DEFAULT);
    this.encryptDataTransfer =
        conf.getBoolean(
            DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_KEY,
            DFSConfigKeys.DFS_ENCRYPT_DATA_TRANSFER_DEFAULT);
    this.updateIntervalMs = updateIntervalMs(conf);
    this.lifetimeMs = lifetimeMs(conf);
    this.manager =
        enabled
            ? new BlockTokenSecretManager(
                updateIntervalMs,
                lifetimeMs,
                blockPoolId,
                conf.get(DFSConfigKeys.DFS_DATA_ENCRYPTION_ALGORITHM_KEY),
                conf.getBoolean(
                    DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE,
                    DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_PROTOBUF_ENABLE_DEFAULT))
            : null;
    if (enabled) {
      LOG.info(
          "block access tokens on: keys roll every {} ms, tokens live {} ms",
          updateIntervalMs,
          lifetimeMs);
    }
  }

  /**
   * HDFS's {@code dfs.block.access.key.update.interval} (minutes), or {@link
   * NamenodeConfig#BLOCK_KEY_UPDATE_INTERVAL_MS} when set.
   */
  public static long updateIntervalMs(Configuration conf) {
    long ms = conf.getLong(NamenodeConfig.BLOCK_KEY_UPDATE_INTERVAL_MS, -1);
    return ms > 0
        ? ms
        : conf.getLong(
                DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_KEY,
                DFSConfigKeys.DFS_BLOCK_ACCESS_KEY_UPDATE_INTERVAL_DEFAULT)
            * 60_000L;
  }

  /**
   * HDFS's {@code dfs.block.access.token.lifetime} (minutes), or {@link
   * NamenodeConfig#BLOCK_TOKEN_LIFETIME_MS} when set.
   */
  public static long lifetimeMs(Configuration conf) {
    long ms = conf.getLong(NamenodeConfig.BLOCK_TOKEN_LIFETIME_MS, -1);
    return ms > 0
        ? ms
        : conf.getLong(
                DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_KEY,
                DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_LIFETIME_DEFAULT)
            * 60_000L;
  }

  public boolean enabled() {
    return enabled;
  }

  /**
   * {@code dfs.encrypt.data.transfer}, which the server defaults report as HDFS's FSNamesystem
   * reports it (whether or not block tokens are on): a client that sees it asks for a {@link
   * #dataEncryptionKey}.
   */
  public boolean encryptsDataTransfer() {
    return encryptDataTransfer;
  }

  public String blockPoolId() {
    return blockPoolId;
  }

  public long updateIntervalMs() {
    return updateIntervalMs;
  }

  public long lifetimeMs() {
    return lifetimeMs;
  }

  /**
   * At start: makes the first two keys if the table has none (a new cluster), so that no namenode
   * ever serves without keys. Two namenodes racing insert the same ids; the second one's insert
   * fails and it reads the first one's.
   */
  public void ensureKeys() throws IOException {
    if (!enabled) {
      return;
    }
    try (Transaction tx = storage.begin()) {
      if (tx.findByPartition(BlockKeyRow.TABLE, blockPoolId, LockMode.READ_COMMITTED).isEmpty()) {
        long now = Time.now();
        for (BlockKeyRow row : firstKeys(now)) {
          tx.insert(BlockKeyRow.TABLE, row);
        }
        tx.commit();
        LOG.info("made the first block keys of {}", blockPoolId);
      }
    } catch (DuplicateKeyException e) {
      // another namenode made them first
    }
    read();
  }

  /** A new cluster's keys: a current one and the next. */
  public List<BlockKeyRow> firstKeys(long now) {
    return List.of(
        new BlockKeyRow(
            blockPoolId, FIRST_KEY_ID, now + 2 * updateIntervalMs + lifetimeMs, now, newSecret()),
        new BlockKeyRow(
            blockPoolId,
            FIRST_KEY_ID + 1,
            now + 3 * updateIntervalMs + lifetimeMs,
            0,
            newSecret()));
  }

  /** A fresh random secret for a new key (Hadoop's {@code SecretManager} key generator). */
  public byte[] newSecret() {
    return secrets.next();
  }

  /** The keys as this namenode knows them, read again when older than the roll interval. */
  private Keys keys() throws IOException {
    Keys k = keys;
    if (k == null || Time.monotonicNow() - k.at() >= updateIntervalMs) {
      k = read();
    }
    return k;
  }

  private Keys read() throws IOException {
    List<BlockKeyRow> rows;
    try (Transaction tx = storage.begin()) {
      rows = tx.findByPartition(BlockKeyRow.TABLE, blockPoolId, LockMode.READ_COMMITTED);
      tx.commit();
    }
    return remember(rows);
  }

  /**
   * Takes {@code rows}, every key of the block pool as just read or written (the leader calls it
   * after a roll), as what this namenode knows.
   */
  public void learn(List<BlockKeyRow> rows) throws IOException {
    remember(rows);
  }

  private synchronized Keys remember(List<BlockKeyRow> rows) throws IOException {
    BlockKeyRow current =
        rows.stream()
            .filter(r -> r.madeCurrent() > 0)
            .max(Comparator.comparingLong(BlockKeyRow::madeCurrent))
            .orElse(null);
    if (current == null) {
      throw new RetriableException("block keys of " + blockPoolId + " are not made yet");
    }
    BlockKey[] all = rows.stream().map(BlockTokens::key).toArray(BlockKey[]::new);
    ExportedBlockKeys exported =
        new ExportedBlockKeys(true, updateIntervalMs, lifetimeMs, key(current), all);
    manager.addKeys(exported, true);
    Keys k = new Keys(List.copyOf(rows), exported, current.keyId(), Time.monotonicNow());
    keys = k;
    return k;
  }

  private static BlockKey key(BlockKeyRow r) {
    return new BlockKey(r.keyId(), r.expiryDate(), r.secret());
  }

  /** The keys a datanode receives at registration; HDFS's dummy keys when tokens are off. */
  public ExportedBlockKeys exportKeys() throws IOException {
    return enabled ? keys().exported() : ExportedBlockKeys.DUMMY_KEYS;
  }

  /** At a datanode's registration: it gets the keys with its answer. */
  public ExportedBlockKeys registered(String datanodeUuid) throws IOException {
    if (!enabled) {
      return ExportedBlockKeys.DUMMY_KEYS;
    }
    Keys k = keys();
    sent.put(datanodeUuid, k.currentId());
    return k.exported();
  }

  /**
   * At a heartbeat: the keys, if the current key changed since this namenode last sent them to the
   * datanode (HDFS sends them after each roll), else null.
   */
  public KeyUpdateCommand commandFor(String datanodeUuid) throws IOException {
    if (!enabled) {
      return null;
    }
    Keys k = keys();
    Integer had = sent.put(datanodeUuid, k.currentId());
    return had != null && had == k.currentId() ? null : new KeyUpdateCommand(k.exported());
  }

  /** Signs {@code b} for {@code user} with {@code mode}, as HDFS's BlockManager.setBlockToken. */
  public void sign(LocatedBlock b, AccessMode mode, String user) throws IOException {
    if (!enabled || b == null) {
      return;
    }
    keys();
    b.setBlockToken(
        manager.generateToken(
            user, b.getBlock(), EnumSet.of(mode), b.getStorageTypes(), b.getStorageIDs()));
  }

  /** Signs every block of a read's answer, the last one included, for reading. */
  public void signForRead(LocatedBlocks blocks, String user) throws IOException {
    if (!enabled || blocks == null) {
      return;
    }
    for (LocatedBlock b : blocks.getLocatedBlocks()) {
      sign(b, AccessMode.READ, user);
    }
    sign(blocks.getLastLocatedBlock(), AccessMode.READ, user);
  }

  /**
   * Checks a token presented for {@code mode} access to {@code block} by {@code user} (null: any
   * user), as a datanode checks it; a key this namenode does not know yet is read first.
   */
  public void checkAccess(
      Token<BlockTokenIdentifier> token, String user, ExtendedBlock block, AccessMode mode)
      throws IOException {
    if (!enabled) {
      return;
    }
    keys();
    BlockTokenIdentifier id = new BlockTokenIdentifier();
    try {
      id.readFields(
          new java.io.DataInputStream(new java.io.ByteArrayInputStream(token.getIdentifier())));
      if (!knows(id.getKeyId())) {
        read();
      }
    } catch (IOException e) {
      // not a block token: the check below refuses it with HDFS's message
    }
    manager.checkAccess(token, user, block, mode);
  }

  /**
   * The password of the token {@code id} names, as a datanode computes it for the SASL handshake of
   * data transfer protection; a key this namenode does not know yet is read first. An expired
   * identifier or an unknown key is an {@code InvalidToken}, with the DataNode's message.
   */
  public byte[] retrievePassword(BlockTokenIdentifier id) throws IOException {
    if (!enabled) {
      throw new SecretManager.InvalidToken(
          "block access tokens are off (" + DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY + ")");
    }
    keys();
    if (!knows(id.getKeyId())) {
      read();
    }
    return manager.retrievePassword(id);
  }

  /**
   * {@code getDataEncryptionKey}, as HDFS's BlockManager answers it: with block tokens and {@code
   * dfs.encrypt.data.transfer} on, a key made from the current block key (a random nonce, its HMAC
   * under the key, expiring after a token lifetime, for {@code
   * dfs.encrypt.data.transfer.algorithm}); else null. Every datanode holds every block key of the
   * database (see {@link #registered}), so it recomputes the key from the key id and nonce
   * whichever namenode made it.
   */
  public DataEncryptionKey dataEncryptionKey() throws IOException {
    if (!enabled || !encryptDataTransfer) {
      return null;
    }
    keys();
    return manager.generateDataEncryptionKey();
  }

  /**
   * The encryption key of the encrypted handshake, recomputed from the client's key id and nonce as
   * a DataNode recomputes it; a key this namenode does not know yet is read first. A key no longer
   * in the database is HDFS's {@link InvalidEncryptionKeyException}, on which the stock client
   * fetches a new key and connects again.
   */
  public byte[] retrieveDataEncryptionKey(int keyId, String blockPool, byte[] nonce)
      throws IOException {
    if (!enabled) {
      throw new InvalidEncryptionKeyException(
          "block access tokens are off (" + DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY + ")");
    }
    if (!blockPoolId.equals(blockPool)) {
      // BlockPoolTokenSecretManager's message for a block pool it does not serve.
      throw new IOException("Block pool " + blockPool + " is not found");
    }
    keys();
    if (!knows(keyId)) {
      read();
    }
    if (expired(keyId)) {
      // A datanode drops a block key at its expiry (BlockTokenSecretManager.removeExpiredKeys);
      // the rows stay until the leader deletes them, so the block server answers as it would.
      throw new InvalidEncryptionKeyException(
          "Can't re-compute encryption key for nonce, since the required block key (keyID="
              + keyId
              + ") doesn't exist. Current key: "
              + manager.getCurrentKey().getKeyId());
    }
    return manager.retrieveDataEncryptionKey(keyId, nonce);
  }

  private boolean expired(int keyId) {
    Keys k = keys;
    long now = org.apache.hadoop.util.Time.now();
    return k != null && k.rows().stream().anyMatch(r -> r.keyId() == keyId && r.expiryDate() < now);
  }

  private boolean knows(int keyId) {
    Keys k = keys;
    return k != null && k.rows().stream().anyMatch(r -> r.keyId() == keyId);
  }

  /** Hadoop's key generator, whose algorithm and length the datanodes' HMAC expects. */
  private static final class Secrets extends SecretManager<BlockTokenIdentifier> {
    byte[] next() {
      return generateSecret().getEncoded();
    }

    @Override
    protected byte[] createPassword(BlockTokenIdentifier identifier) {
      throw new UnsupportedOperationException(
          "BlockTokens.Secrets.createPassword: only generates keys; BlockTokenSecretManager signs");
    }

    @Override
    public byte[] retrievePassword(BlockTokenIdentifier identifier) {
      throw new UnsupportedOperationException(
          "BlockTokens.Secrets.retrievePassword: only generates keys; BlockTokenSecretManager checks");
    }

    @Override
    public BlockTokenIdentifier createIdentifier() {
      return new BlockTokenIdentifier();
    }
  }
}
