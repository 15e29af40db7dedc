package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.fail;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import org.junit.jupiter.api.AfterEach;
import org.opentest4j.TestAbortedException;

/**
 * What every kit class shares: the storages and transaction threads of a test, closed after it
 * whatever happened, and small helpers to write and read committed rows.
 */
public abstract class DalKit implements StorageFixture {
  /** How long a call that must not wait for anyone may take (slow CI machines included). */
  public static final long PROMPT_SECONDS = 5;

  /** How long a call must still be waiting to count as blocked. */
  protected static final long BLOCK_PROOF_MILLIS = 300;

  private final List<Storage> storages = new ArrayList<>();
  private final List<TxThread> threads = new ArrayList<>();
  private Storage storage;

  /** The test's storage with the fixture's default settings, opened on first use. */
  protected final Storage storage() throws Exception {
    if (storage == null) {
      storage = openStorage(Map.of());
    }
    return storage;
  }

  /** A storage with extra settings; closed after the test. */
  protected final Storage openStorage(Map<String, String> settings) throws Exception {
    Storage s = open(settings);
    storages.add(s);
    return s;
  }

  /** A storage whose lock waits give up after {@code millis}. */
  protected final Storage openStorageWithLockWaitTimeout(long millis) throws Exception {
    return openStorage(Map.of(HopsConfig.LOCK_WAIT_TIMEOUT_MS, Long.toString(millis)));
  }

  /** Begins a transaction on a thread of its own; closed after the test. */
  protected final TxThread onThread(String name, Storage s) throws Exception {
    TxThread t = TxThread.begin(name, s, PROMPT_SECONDS);
    threads.add(t);
    return t;
  }

  @AfterEach
  public final void closeEverything() throws Exception {
    // Start every rollback before waiting for any, so a thread blocked on another's lock is freed.
    threads.forEach(TxThread::startClose);
    for (TxThread t : threads) {
      t.awaitClosed(30);
    }
    threads.clear();
    RuntimeException failure = null;
    for (int i = storages.size() - 1; i >= 0; i--) {
      try {
        storages.get(i).close();
      } catch (RuntimeException e) {
        failure = failure == null ? e : failure;
      }
    }
    storages.clear();
    storage = null;
    if (failure != null) {
      throw failure;
    }
  }

  /** A check of one table, run by {@link #forEveryTable} for each table of the schema. */
  @FunctionalInterface
  protected interface TableCheck {
    void check(Table<?> table) throws Exception;
  }

  /**
   * Runs a check on every table, going on after a table fails, and then fails naming every table
   * that did, so one run shows how widespread a bug is.
   */
  protected static void forEveryTable(TableCheck check) {
    List<String> failed = new ArrayList<>();
    List<Throwable> causes = new ArrayList<>();
    for (Table<?> t : Tables.ALL) {
      try {
        check.check(t);
      } catch (TestAbortedException e) {
        throw e; // a skipped test (no database configured) stays skipped
      } catch (Exception | AssertionError e) {
        failed.add(t.name() + ": " + e);
        causes.add(e);
      }
    }
    if (!failed.isEmpty()) {
      AssertionError error =
          new AssertionError(
              "failed for "
                  + failed.size()
                  + " of "
                  + Tables.ALL.size()
                  + " tables:\n  "
                  + String.join("\n  ", failed));
      causes.forEach(error::addSuppressed);
      throw error;
    }
  }

  /** Inserts rows in one committed transaction. */
  @SafeVarargs
  protected static <R extends Record> void insertCommitted(Storage s, Table<R> table, R... rows)
      throws Exception {
    insertCommitted(s, table, List.of(rows));
  }

  protected static <R extends Record> void insertCommitted(Storage s, Table<R> table, List<R> rows)
      throws Exception {
    try (Transaction tx = s.begin()) {
      for (R row : rows) {
        tx.insert(table, row);
      }
      tx.commit();
    }
  }

  /** Updates rows in one committed transaction. */
  @SafeVarargs
  protected static <R extends Record> void updateCommitted(Storage s, Table<R> table, R... rows)
      throws Exception {
    try (Transaction tx = s.begin()) {
      for (R row : rows) {
        tx.update(table, row);
      }
      tx.commit();
    }
  }

  /** The committed row of a key, read in a transaction of its own, or null. */
  protected static <R extends Record> R readCommitted(Storage s, Table<R> table, Key key)
      throws Exception {
    try (Transaction tx = s.begin()) {
      R row = tx.find(table, key, LockMode.READ_COMMITTED);
      tx.commit();
      return row;
    }
  }

  /** Every committed row of a table, as cells in primary-key order. */
  protected static <R extends Record> List<List<Object>> readAll(Storage s, Table<R> table)
      throws Exception {
    try (Transaction tx = s.begin()) {
      List<R> rows = tx.scanAll(table, LockMode.READ_COMMITTED);
      tx.commit();
      return Cells.ofAll(table, rows);
    }
  }

  /** Every committed row of every table, by table name, to show that nothing changed. */
  protected static Map<String, List<List<Object>>> snapshot(Storage s) throws Exception {
    Map<String, List<List<Object>>> out = new LinkedHashMap<>();
    try (Transaction tx = s.begin()) {
      for (Table<?> t : Tables.ALL) {
        out.put(t.name(), scanAll(tx, t));
      }
      tx.commit();
    }
    return out;
  }

  private static <R extends Record> List<List<Object>> scanAll(Transaction tx, Table<R> t)
      throws Exception {
    return Cells.ofAll(t, tx.scanAll(t, LockMode.READ_COMMITTED));
  }

  /** The row as cells (byte arrays compared by content). */
  protected static <R extends Record> List<Object> cells(Table<R> table, R row) {
    return Cells.of(table, row);
  }

  /** Asserts the call is still waiting after {@link #BLOCK_PROOF_MILLIS}. */
  protected static void assertStillWaiting(CompletableFuture<?> call, String what)
      throws InterruptedException {
    Thread.sleep(BLOCK_PROOF_MILLIS);
    if (call.isDone()) {
      fail(
          what
              + " should still wait for a lock after "
              + BLOCK_PROOF_MILLIS
              + " ms, but "
              + outcome(call));
    }
  }

  /** The call's result; it must come within {@link #PROMPT_SECONDS}. */
  protected static <T> T awaitPromptly(CompletableFuture<T> call) throws Exception {
    return TxThread.await(call, PROMPT_SECONDS);
  }

  private static String outcome(CompletableFuture<?> call) {
    try {
      return "it returned " + call.get();
    } catch (ExecutionException e) {
      return "it failed with " + e.getCause();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return "interrupted";
    }
  }
}
