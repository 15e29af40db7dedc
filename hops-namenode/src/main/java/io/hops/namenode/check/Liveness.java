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
 * ({@code le_period_ms}); its id and its process's incarnation (what subtree marks carry) then
 * count as alive. Asked only when a check meets a mark or a tool must know: then it reads the
 * counters twice, that long apart, once.
 */
public final class Liveness implements LongPredicate {
  /** The {@code variables} row of the raised election period (see {@code LeaderElection}). */
  private static final String PERIOD_ROW = "le_period_ms";

  private final Storage storage;
  private final long periodMillis;
  private final int missed;
  private Set<Long> alive;

  /** Liveness at the election period and missed heartbeats {@code conf} sets. */
  public static Liveness of(Storage storage, org.apache.hadoop.conf.Configuration conf) {
    return new Liveness(
        storage,
        conf.getLong(
            io.hops.common.HopsConfig.ELECTION_PERIOD_MS,
            io.hops.common.HopsConfig.ELECTION_PERIOD_MS_DEFAULT),
        conf.getInt(
            io.hops.common.HopsConfig.ELECTION_MISSED_HEARTBEATS,
            io.hops.common.HopsConfig.ELECTION_MISSED_HEARTBEATS_DEFAULT));
  }

  public Liveness(Storage storage, long periodMillis, int missed) {
    this.storage = storage;
    this.periodMillis = periodMillis;
    this.missed = missed;
  }

  @Override
  public synchronized boolean test(long namenodeId) {
    return live().contains(namenodeId);
  }

  /** The ids and incarnations of the namenodes alive now (read once). */
  public synchronized Set<Long> live() {
    if (alive == null) {
      try {
        Map<Long, long[]> first = counters();
        Thread.sleep(waitMillis());
        Map<Long, long[]> second = counters();
        alive = new HashSet<>();
        second.forEach(
            (id, c) -> {
              if (c[0] != first.getOrDefault(id, new long[] {-1, 0})[0]) {
                alive.add(id);
                alive.add(c[1]); // marks carry the process's incarnation
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

  /** Each row's counter and its process's incarnation (the id in a row that has none). */
  private Map<Long, long[]> counters() throws StorageException {
    Map<Long, long[]> out = new HashMap<>();
    try (Transaction tx = storage.begin()) {
      for (LeDescriptorRow r : tx.scanAll(LeDescriptorRow.TABLE, LockMode.READ_COMMITTED)) {
        out.put(r.id(), new long[] {r.counter(), r.incarnation() == 0 ? r.id() : r.incarnation()});
      }
      tx.commit();
    }
    return out;
  }
}
