package io.hops.election;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The leader's removal of dead contenders' rows: in a transaction of its own, off the round's
 * thread, one at a time. A contender that only stalls may still hold the lock on its row, and
 * waiting for it must not delay the leader's rounds (and so its lease). A failed eviction is tried
 * again next round.
 */
final class ContenderEvictions {
  private static final Logger LOG = LoggerFactory.getLogger(LeaderElection.class);

  private final Storage storage;
  private final ElectionRows rows;
  private final AtomicBoolean evicting = new AtomicBoolean();
  private volatile long injectedDelayMillis;

  ContenderEvictions(Storage storage, ElectionRows rows) {
    this.storage = storage;
    this.rows = rows;
  }

  /** Starts removing the rows of {@code dead}, unless none are dead or a removal still runs. */
  void evict(long me, List<Long> dead) {
    if (dead.isEmpty() || !evicting.compareAndSet(false, true)) {
      return;
    }
    Thread t =
        new Thread(
            () -> {
              LeaderElection.sleep(injectedDelayMillis);
              try (Transaction tx = storage.begin()) {
                rows.remove(tx, dead);
                tx.commit();
                LOG.info("leader {} evicted namenodes {}: their counters stood still", me, dead);
              } catch (StorageException | RuntimeException e) {
                LOG.info("leader {} could not evict {} yet: {}", me, dead, e.toString());
              } finally {
                evicting.set(false);
              }
            },
            "leader-election-evict");
    t.setDaemon(true);
    t.start();
  }

  /** See {@link LeaderElection#injectEvictionDelay}. */
  void injectDelay(Duration delay) {
    injectedDelayMillis = delay.toMillis();
  }
}
