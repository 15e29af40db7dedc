package io.hops.dal.sql.kit;

import io.hops.dal.Storage;

/** What the fixtures share. */
final class Fixtures {
  private static boolean schemaCreated;

  private Fixtures() {}

  /** Formats a fresh store; the storage is closed if that fails. */
  static Storage formatted(Storage storage) throws Exception {
    try {
      storage.schema().createOrUpgrade();
      return storage;
    } catch (Exception | Error e) {
      storage.close();
      throw e;
    }
  }

  /** Creates the shared database's schema the first time a test of this JVM needs it. */
  static synchronized void createSchemaOnce(Storage storage) throws Exception {
    if (!schemaCreated) {
      storage.schema().createOrUpgrade();
      schemaCreated = true;
    }
  }

  /** An environment variable, else a system property; null when neither is set or both blank. */
  static String setting(String env, String property) {
    String v = System.getenv(env);
    if (v == null || v.isBlank()) {
      v = System.getProperty(property);
    }
    return v == null || v.isBlank() ? null : v.trim();
  }
}
