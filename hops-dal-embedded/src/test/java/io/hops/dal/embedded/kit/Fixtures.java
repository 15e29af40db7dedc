package io.hops.dal.embedded.kit;

import io.hops.dal.Storage;

/** What the fixtures share. */
final class Fixtures {
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
}
