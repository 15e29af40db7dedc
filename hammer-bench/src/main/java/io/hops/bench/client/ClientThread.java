package io.hops.bench.client;

import io.hops.bench.namespace.ThreadNamespace;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.MixSampler;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/**
 * One client thread's state across phases (its file system instance and its part of the namespace)
 * and its loop: draw an operation, time it, record it.
 */
final class ClientThread {
  final String name;

  /** The thread's number among all the run's client threads (all processes). */
  final int index;

  final ThreadNamespace namespace;
  FileSystem fs;
  FileOps ops;

  /** The operation running now, for the report of a thread that does not come back. */
  volatile Op inFlight;

  /** Given up: an operation did not return in time. Left out of later phases. */
  volatile boolean stuck;

  ClientThread(String name, int index, ThreadNamespace namespace) {
    this.name = name;
    this.index = index;
    this.namespace = namespace;
  }

  boolean usable() {
    return ops != null && !stuck;
  }

  /** Counters the whole session shares, read by the progress ticks. */
  record Counters(LongAdder ok, LongAdder failed) {
    Counters() {
      this(new LongAdder(), new LongAdder());
    }
  }

  /**
   * What one thread measured in one phase. Once {@link #close() closed} it takes no more records: a
   * thread given up as stuck may still return from its operation later.
   */
  static final class Outcome {
    private final Map<Op, OpStats> stats = new EnumMap<>(Op.class);
    private long pausedNanos;
    private boolean closed;

    synchronized void success(Op op, long micros) {
      if (!closed) {
        stats.computeIfAbsent(op, o -> new OpStats()).success(micros);
      }
    }

    synchronized void failure(Op op, String message) {
      if (!closed) {
        stats.computeIfAbsent(op, o -> new OpStats()).failure(message);
      }
    }

    synchronized void pause(long nanos) {
      if (!closed) {
        pausedNanos += nanos;
      }
    }

    synchronized Map<Op, OpStats> close() {
      closed = true;
      return stats;
    }

    synchronized long pausedNanos() {
      return pausedNanos;
    }
  }

  /**
   * Runs {@code workload} until {@code endNanos}; operations that start before {@code
   * measureStartNanos} are the warm-up and are only counted for progress.
   */
  void loop(
      Workload workload,
      long seed,
      long measureStartNanos,
      long endNanos,
      Counters warm,
      Counters measured,
      Outcome outcome,
      CompletionClock clock) {
    MixSampler sampler = workload.isRaw() ? null : new MixSampler(workload.mix(), seed);
    Mix mix = workload.isRaw() ? null : workload.mix();
    if (mix != null && mix.bigDirectory()) {
      ops.useBigDirectory(mix.bigDirectoryFiles(), index, mix.bigDirectoryThreads());
    } else {
      ops.shareDirectory(
          mix != null && mix.sharedDirectory()
              ? new Path(namespace.root().getParent(), Mix.SHARED_DIRECTORY)
              : null);
    }
    long nextRefill = 0;
    while (!Thread.currentThread().isInterrupted()) {
      long now = System.nanoTime();
      if (now - endNanos >= 0) {
        break;
      }
      Op op = sampler == null ? workload.rawOp() : sampler.next();
      if (op.needsFile() && ops.fileCount() == 0 && now - nextRefill >= 0) {
        if (ops.refill() == 0) {
          nextRefill = now + TimeUnit.SECONDS.toNanos(1);
        }
        long after = System.nanoTime();
        if (after - measureStartNanos > 0) {
          outcome.pause(after - Math.max(now, measureStartNanos));
        }
        now = after;
      }
      boolean inWindow = now - measureStartNanos >= 0;
      Counters counters = inWindow ? measured : warm;
      inFlight = op;
      long start = System.nanoTime();
      try {
        ops.run(op);
        long done = System.nanoTime();
        long micros = (done - start) / 1000;
        if (inWindow) {
          outcome.success(op, micros);
        }
        clock.completed(done);
        counters.ok().increment();
      } catch (Exception | LinkageError | AssertionError e) {
        if (inWindow) {
          outcome.failure(op, OpStats.describe(e));
        }
        counters.failed().increment();
      } finally {
        inFlight = null;
      }
    }
  }
}
