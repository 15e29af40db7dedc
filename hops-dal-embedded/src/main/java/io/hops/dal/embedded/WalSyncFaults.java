package io.hops.dal.embedded;

import io.hops.dal.StorageException;
import java.io.IOException;

/**
 * A fault injected before each sync of an embedded store's write-ahead log, for tests that prove a
 * commit is not acknowledged before its sync (a fault that blocks) and that a failed sync fails it
 * (a fault that throws). Nothing installs one outside tests.
 */
public final class WalSyncFaults {
  /** What runs on the store's sync thread before it syncs the log. */
  @FunctionalInterface
  public interface Fault {
    void beforeSync(String store) throws IOException, InterruptedException;
  }

  private static volatile Fault fault;

  private WalSyncFaults() {}

  /** Runs {@code f} before every later sync of every embedded store in this process. */
  public static void inject(Fault f) {
    fault = f;
  }

  /** Removes the fault. */
  public static void clear() {
    fault = null;
  }

  static void beforeSync(String store) throws StorageException {
    Fault f = fault;
    if (f == null) {
      return;
    }
    try {
      f.beforeSync(store);
    } catch (IOException e) {
      throw new StorageException("sync of the write-ahead log: " + e.getMessage(), e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted before syncing the write-ahead log", e);
    }
  }
}
