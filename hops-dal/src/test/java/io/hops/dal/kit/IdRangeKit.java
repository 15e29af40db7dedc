package io.hops.dal.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.IdRange;
import io.hops.dal.Storage;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Id ranges never overlap, whatever the concurrency; a new counter starts at 1. */
public abstract class IdRangeKit extends DalKit {
  private static final int THREADS = 8;
  private static final int ALLOCATIONS_PER_THREAD = 1000;

  @Test
  public void aNewCounterStartsAtOneAndHandsOutTheRequestedCount() throws Exception {
    Storage s = storage();
    IdRange first = s.allocateIds("kit-first", 5);
    assertThat(first).isEqualTo(new IdRange(1, 5));
    IdRange second = s.allocateIds("kit-first", 3);
    assertThat(second.count()).isEqualTo(3);
    assertThat(second.first()).isGreaterThanOrEqualTo(first.end());
  }

  @Test
  public void twoCountersAreIndependent() throws Exception {
    Storage s = storage();
    IdRange a1 = s.allocateIds("kit-a", 10);
    IdRange b1 = s.allocateIds("kit-b", 1);
    IdRange a2 = s.allocateIds("kit-a", 2);
    IdRange b2 = s.allocateIds("kit-b", 4);
    assertThat(a1).isEqualTo(new IdRange(1, 10));
    assertThat(b1).isEqualTo(new IdRange(1, 1));
    assertThat(a2.first()).isGreaterThanOrEqualTo(11);
    assertThat(b2.first()).isGreaterThanOrEqualTo(2);
    assertThat(b2.count()).isEqualTo(4);
  }

  @Test
  public void concurrentAllocationsFromOneCounterNeverOverlap() throws Exception {
    Storage s = storage();
    ExecutorService pool = Executors.newFixedThreadPool(THREADS);
    try {
      List<CompletableFuture<List<IdRange>>> threads = new ArrayList<>();
      for (int i = 0; i < THREADS; i++) {
        Random sizes = new Random(i);
        CompletableFuture<List<IdRange>> ranges = new CompletableFuture<>();
        threads.add(ranges);
        pool.execute(
            () -> {
              try {
                List<IdRange> mine = new ArrayList<>();
                for (int n = 0; n < ALLOCATIONS_PER_THREAD; n++) {
                  int size = 1 + sizes.nextInt(10);
                  IdRange r = s.allocateIds("kit-shared", size);
                  if (r.count() != size) {
                    throw new AssertionError("asked for " + size + " ids, got " + r);
                  }
                  mine.add(r);
                }
                ranges.complete(mine);
              } catch (Throwable e) {
                ranges.completeExceptionally(e);
              }
            });
      }
      List<IdRange> all = new ArrayList<>();
      for (CompletableFuture<List<IdRange>> t : threads) {
        all.addAll(TxThread.await(t, 120));
      }
      assertThat(all).hasSize(THREADS * ALLOCATIONS_PER_THREAD);
      all.sort(Comparator.comparingLong(IdRange::first));
      assertThat(all.get(0).first()).isEqualTo(1);
      for (int i = 1; i < all.size(); i++) {
        IdRange previous = all.get(i - 1);
        IdRange next = all.get(i);
        if (next.first() < previous.end()) {
          throw new AssertionError("ranges overlap: " + previous + " and " + next);
        }
      }
    } finally {
      pool.shutdownNow();
      pool.awaitTermination(30, TimeUnit.SECONDS);
    }
  }
}
