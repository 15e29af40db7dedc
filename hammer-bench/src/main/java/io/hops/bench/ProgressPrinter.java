package io.hops.bench;

import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.Stage;
import java.io.PrintStream;
import java.util.Locale;

/** Prints a progress line every second: ops/s so far in this stage, and in the last second. */
final class ProgressPrinter implements PhaseListener {
  private final PrintStream out;
  private final String label;
  private final long warmupMillis;
  private final long durationMillis;
  private long nextPrint;
  private long lastMillis;
  private long lastCount;

  ProgressPrinter(PrintStream out, String label, long warmupMillis, long durationMillis) {
    this.out = out;
    this.label = label;
    this.warmupMillis = warmupMillis;
    this.durationMillis = durationMillis;
  }

  @Override
  public void stage(Stage stage) {
    nextPrint = 1000;
    lastMillis = 0;
    lastCount = 0;
  }

  @Override
  public void progress(Stage stage, long millis, long ok, long failed) {
    if (millis < nextPrint || stage == Stage.DRAIN) {
      return;
    }
    nextPrint = (millis / 1000 + 1) * 1000;
    if (stage == Stage.SETUP) {
      out.printf(
          Locale.ROOT,
          "  %s | setup %3d s | %,d mkdirs and creates done | %,d failures%n",
          label,
          millis / 1000,
          ok,
          failed);
      return;
    }
    long total = stage == Stage.WARMUP ? warmupMillis : durationMillis;
    double sinceStart = ok * 1000.0 / Math.max(1, millis);
    double lastSecond = (ok - lastCount) * 1000.0 / Math.max(1, millis - lastMillis);
    lastMillis = millis;
    lastCount = ok;
    out.printf(
        Locale.ROOT,
        "  %s | %-7s %3d/%d s | %,9.0f ops/s so far | last second %,9.0f ops/s | %,d failures%n",
        label,
        stage == Stage.WARMUP ? "warm-up" : "measure",
        millis / 1000,
        total / 1000,
        sinceStart,
        lastSecond,
        failed);
  }
}
