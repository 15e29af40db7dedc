package io.hops.namenode.check;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.LeDescriptorRow;
import java.io.InterruptedIOException;
import java.io.UncheckedIOException;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.LongPredicate;

/**
 * Which namenodes are alive, seen from outside them (DESIGN.md §9): a namenode is alive if its
 * election counter advances within {@code missed} periods. Asked only when a check meets a mark:
 * then it reads the counters twice, that long apart, once.
 */
public final class Liveness implements LongPredicate {
  private final Storage storage;
  private final long waitMillis;
  private Set<Long> alive;

  public Liveness(Storage storage, long periodMillis, int missed) {
    this.storage = storage;
    this.waitMillis = periodMillis * (missed + 1);
  }

  @Override
  public synchronized boolean test(long namenodeId) {
    if (alive == null) {
      try {
        Map<Long, Long> first = counters();
        Thread.sleep(waitMillis);
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
    return alive.contains(namenodeId);
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
