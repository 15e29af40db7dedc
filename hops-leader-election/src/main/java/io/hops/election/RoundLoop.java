package io.hops.election;

import java.util.function.LongSupplier;

/**
 * The thread that runs a contender's rounds after its first: one a period, and sooner when a
 * contender ahead of it in line would count as dead, so that a new leader is elected within period
 * x (missed heartbeats + 1) of the old one's death.
 */
final class RoundLoop {
  private final Runnable round;
  private final LongSupplier periodMillis;
  private final LongSupplier nextDeadlineNanos;
  private final Thread thread;
  private volatile boolean stopped;

  /**
   * {@code round} runs one round and throws nothing; {@code nextDeadlineNanos} is when the next
   * contender ahead in line would count as dead, {@link Long#MAX_VALUE} if none.
   */
  RoundLoop(Runnable round, LongSupplier periodMillis, LongSupplier nextDeadlineNanos) {
    this.round = round;
    this.periodMillis = periodMillis;
    this.nextDeadlineNanos = nextDeadlineNanos;
    this.thread = new Thread(this::loop, "leader-election");
    thread.setDaemon(true);
  }

  void start() {
    thread.start();
  }

  /** No round starts from now on, and one under way commits nothing. */
  void stop() {
    stopped = true;
  }

  boolean stopped() {
    return stopped;
  }

  /** Wakes the thread from its sleep between rounds (after {@link #stop()}: to end). */
  void interrupt() {
    thread.interrupt();
  }

  void join(long millis) throws InterruptedException {
    thread.join(millis);
  }

  private void loop() {
    while (!stopped) {
      long start = System.nanoTime();
      round.run();
      long sleepNanos = start + periodMillis.getAsLong() * 1_000_000L - System.nanoTime();
      long deadline = nextDeadlineNanos.getAsLong();
      if (deadline != Long.MAX_VALUE) {
        sleepNanos = Math.min(sleepNanos, deadline + 1_000_000L - System.nanoTime());
      }
      long sleep = sleepNanos / 1_000_000L;
      if (sleep > 0) {
        try {
          Thread.sleep(sleep);
        } catch (InterruptedException e) {
          return;
        }
      }
    }
  }
}
