package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * A round that fails with an {@link Error} (a class that fails to load, as when a namenode's jars
 * are replaced under it) is logged and the rounds go on: before, the scheduler cancelled every
 * later round without a word, and the leader never re-replicated again. The error is injected
 * through the round's safe-mode question, which the real namenode asks at the start of each round.
 */
class HousekeepingErrorsTest {
  @Test
  void aRoundThatFailsWithAnErrorDoesNotStopTheLaterOnes() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      Housekeeping housekeeping = cluster.namenode().housekeeping();
      AtomicInteger asked = new AtomicInteger();
      housekeeping.whileInSafeMode(
          () -> {
            if (asked.incrementAndGet() == 1) {
              throw new NoClassDefFoundError("injected by the test");
            }
            return false;
          });
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
      while (asked.get() < 4 && System.nanoTime() < deadline) {
        Thread.sleep(50);
      }
      assertThat(asked.get())
          .as("rounds that asked after the failing one")
          .isGreaterThanOrEqualTo(4);
    }
  }
}
