package io.hops.namenode.security;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.embedded.HeapEstimate;
import io.hops.dal.rows.LongNameRow;
import io.hops.dal.schema.MaxBytes;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * User, group and client names of any length, as HDFS takes them. A name is stored and compared by
 * its <em>key</em>: the name itself when it fits a key column ({@link MaxBytes#NAME} bytes), else a
 * digest of it; the text of a digested name lives in {@code long_names}, written once before the
 * name is first stored and read back when it is shown. Nobody uses such names, but a caller may
 * send one, and HDFS accepts it (docs/architecture.md, "Names"). The texts read or written are
 * cached, bounded in bytes of heap ({@link HeapEstimate}), the least recently used going first: a
 * single name may be long.
 */
public final class LongNames {
  /** Starts every digest key; no name a key is the name itself can start with it. */
  static final String DIGEST = "\u0000sha256:";

  private static final int PIECE = 8192;

  private final Storage storage;
  private final long maxBytes;
  private final LinkedHashMap<String, String> known = new LinkedHashMap<>(16, 0.75f, true);
  private long bytes;
  private long hits;
  private long misses;

  /** Caching at most {@code maxBytes} of names' texts. */
  public LongNames(Storage storage, long maxBytes) {
    this.storage = storage;
    this.maxBytes = maxBytes;
  }

  /** An entry: the map's entry, the digest key, the name. */
  static long entryBytes(String key, String name) {
    return HeapEstimate.LINKED_MAP_ENTRY + HeapEstimate.string(key) + HeapEstimate.string(name);
  }

  /** The key {@code name} is stored under; null stays null. */
  public static String key(String name) {
    if (name == null) {
      return null;
    }
    if (name.length() <= MaxBytes.NAME / 3 && (name.isEmpty() || name.charAt(0) != '\u0000')) {
      return name; // fits a key however it encodes: the common case, without encoding it
    }
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    if (utf8.length <= MaxBytes.NAME && !name.startsWith("\u0000")) {
      return name;
    }
    try {
      return DIGEST + HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(utf8));
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("every JVM has SHA-256", e);
    }
  }

  /** Whether {@code key} stands for a longer name kept in {@code long_names}. */
  public static boolean isDigest(String key) {
    return key != null && key.startsWith(DIGEST);
  }

  /**
   * Stores the text of {@code name} if its key is a digest, before the key is stored anywhere;
   * returns the key. Idempotent: any namenode may write the same rows, the first one wins.
   */
  public String remember(String name) throws StorageException {
    String key = key(name);
    if (!isDigest(key) || cached(key) != null) {
      return key;
    }
    byte[] utf8 = name.getBytes(StandardCharsets.UTF_8);
    try (Transaction tx = storage.begin()) {
      if (tx.find(LongNameRow.TABLE, LongNameRow.TABLE.key(key, 0), LockMode.READ_COMMITTED)
          == null) {
        for (int piece = 0; piece * PIECE < utf8.length; piece++) {
          int from = piece * PIECE;
          byte[] data = Arrays.copyOfRange(utf8, from, Math.min(utf8.length, from + PIECE));
          tx.insert(LongNameRow.TABLE, new LongNameRow(key, piece, data));
        }
      }
      tx.commit();
    } catch (DuplicateKeyException e) {
      // another call stored the same text first
    }
    learn(key, name);
    return key;
  }

  /** The name a stored key stands for (the key itself unless it is a digest). */
  public String name(String key) throws StorageException {
    if (!isDigest(key)) {
      return key;
    }
    String name = cached(key);
    if (name != null) {
      return name;
    }
    ByteArrayOutputStream text = new ByteArrayOutputStream();
    try (Transaction tx = storage.begin()) {
      for (LongNameRow row : tx.findByPartition(LongNameRow.TABLE, key, LockMode.READ_COMMITTED)) {
        text.writeBytes(row.data());
      }
      tx.commit();
    }
    if (text.size() == 0) {
      return key; // written by nobody: show the key rather than fail the call
    }
    name = text.toString(StandardCharsets.UTF_8);
    learn(key, name);
    return name;
  }

  private synchronized String cached(String key) {
    String name = known.get(key);
    if (name == null) {
      misses++;
    } else {
      hits++;
    }
    return name;
  }

  private synchronized void learn(String key, String name) {
    String old = known.put(key, name);
    if (old != null) {
      bytes -= entryBytes(key, old);
    }
    bytes += entryBytes(key, name);
    Iterator<Map.Entry<String, String>> eldest = known.entrySet().iterator();
    while (bytes > maxBytes && eldest.hasNext()) {
      Map.Entry<String, String> e = eldest.next();
      eldest.remove();
      bytes -= entryBytes(e.getKey(), e.getValue());
    }
  }

  /** The heap the cached texts take, estimated. */
  public synchronized long bytes() {
    return bytes;
  }

  /** Texts cached. */
  public synchronized int size() {
    return known.size();
  }

  /** Texts found in the cache. */
  public synchronized long hits() {
    return hits;
  }

  /** Texts looked for and not in the cache. */
  public synchronized long misses() {
    return misses;
  }
}
