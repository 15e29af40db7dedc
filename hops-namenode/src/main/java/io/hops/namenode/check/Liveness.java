package io.hops.namenode.check;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import io.hops.dal.rows.VariableRow;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Which namenodes are alive, seen from outside them (docs/architecture.md, "Many namenodes"): a
 * namenode is alive if its election counter advances within {@code missed} periods, at the period
 * in force: the configured one or the larger one contenders whose rounds ran slow raised it to
 * ({@code le_period_ms}). Asked only when a check meets a mark or a repair is asked for: then it
 * reads the counters twice, that long apart, once.
 */
public final class Liveness implements LongPredicate {
  /** The {@code variables} row of the raised election period (see {@code LeaderElection}). */
  private static final String PERIOD_ROW = "le_period_ms";

  private final Storage storage;
  private final long periodMillis;
  private final int missed;
  private Set<Long> alive;

  public Liveness(Storage storage, long periodMillis, int missed) {
    this.storage = storage;
    this.periodMillis = periodMillis;
    this.missed = missed;
  }

  @Override
  public synchronized boolean test(long namenodeId) {
    return live().contains(namenodeId);
  }

  /** The ids of the namenodes alive now (read once). */
  public synchronized Set<Long> live() {
    if (alive == null) {
      try {
        Map<Long, Long> first = counters();
        Thread.sleep(waitMillis());
        Map<Long, Long> second = counters();
        alive = new HashSet<>();
        second.forEach(
            (id, c) -> {
              if (!c.equals(first.get(id))) {
                alive.add(id);
              }
            });
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new UncheckedIOException(new InterruptedIOException("interrupted"));
      } catch (StorageException e) {
        throw new UncheckedIOException(e);
      }
    }
    return alive;
  }

  /** How long a live namenode's counter surely advances in: {@code missed + 1} periods in force. */
  private long waitMillis() throws StorageException {
    try (Transaction tx = storage.begin()) {
      VariableRow raised =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(PERIOD_ROW), LockMode.READ_COMMITTED);
      tx.commit();
      long period = Math.max(periodMillis, raised == null ? 0 : raised.longValue());
      return period * (missed + 1);
    }
  }

  private Map<Long, Long> counters() throws StorageException {
    Map<Long, Long> out = new HashMap<>();
    try (Transaction tx = storage.begin()) {
      for (LeDescriptorRow r : tx.scanAll(LeDescriptorRow.TABLE, LockMode.READ_COMMITTED)) {
        out.put(r.id(), r.counter());
      }
      tx.commit();
    }
    return out;
  }
}
