package io.hops.dal;

import io.hops.common.HopsConfig;
import java.util.HashMap;
import java.util.Map;

/** The settings a driver is opened with: {@code hops.metadata.*} keys of {@link HopsConfig}. */
public final class DalConfig {
  private final Map<String, String> values;

  private DalConfig(Map<String, String> values) {
    this.values = Map.copyOf(values);
  }

  public static DalConfig of(Map<String, String> values) {
    return new DalConfig(values);
  }

  /** The embedded engine over an in-memory store of this name. */
  public static DalConfig embeddedInMemory(String name) {
    return of(Map.of(HopsConfig.EMBEDDED_DIR, "mem:" + name));
  }

  /** A copy with one more setting. */
  public DalConfig with(String key, Object value) {
    Map<String, String> copy = new HashMap<>(values);
    copy.put(key, String.valueOf(value));
    return new DalConfig(copy);
  }

  public String get(String key, String defaultValue) {
    return values.getOrDefault(key, defaultValue);
  }

  /** A required setting. */
  public String require(String key) throws StorageException {
    String v = values.get(key);
    if (v == null || v.isBlank()) {
      throw new StorageException("configuration key " + key + " is not set");
    }
    return v;
  }

  public long getLong(String key, long defaultValue) {
    String v = values.get(key);
    return v == null ? defaultValue : Long.parseLong(v.trim());
  }

  /** The settings whose key starts with {@code prefix}, by the rest of the key. */
  public Map<String, String> withPrefix(String prefix) {
    Map<String, String> out = new HashMap<>();
    values.forEach(
        (k, v) -> {
          if (k.startsWith(prefix)) {
            out.put(k.substring(prefix.length()), v);
          }
        });
    return out;
  }

  public String engine() {
    return get(HopsConfig.METADATA_ENGINE, HopsConfig.METADATA_ENGINE_DEFAULT);
  }

  public long lockWaitTimeoutMillis() {
    return getLong(HopsConfig.LOCK_WAIT_TIMEOUT_MS, HopsConfig.LOCK_WAIT_TIMEOUT_MS_DEFAULT);
  }

  public long idleTransactionTimeoutMillis() {
    return getLong(
        HopsConfig.IDLE_TRANSACTION_TIMEOUT_MS, HopsConfig.IDLE_TRANSACTION_TIMEOUT_MS_DEFAULT);
  }

  public long roundTripTimeoutMillis() {
    return getLong(HopsConfig.ROUND_TRIP_TIMEOUT_MS, HopsConfig.ROUND_TRIP_TIMEOUT_MS_DEFAULT);
  }

  public int poolSize() {
    return (int) getLong(HopsConfig.POOL_SIZE, HopsConfig.POOL_SIZE_DEFAULT);
  }

  @Override
  public String toString() {
    Map<String, String> shown = new HashMap<>(values);
    shown.computeIfPresent(HopsConfig.JDBC_PASSWORD, (k, v) -> "***");
    return shown.toString();
  }
}
