package io.hops.namenode.metrics;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;
import org.apache.hadoop.metrics2.MetricsInfo;
import org.apache.hadoop.metrics2.MetricsRecordBuilder;
import org.apache.hadoop.metrics2.lib.Interns;

/**
 * One operation's latency percentiles over the last interval, under the names Hadoop's {@code
 * MutableQuantiles} gives them ({@code <Name>NumOps}, {@code <Name>50thPercentileMicros}, and the
 * 75th, 90th, 95th and 99th), so dashboards built for HDFS read them unchanged.
 *
 * <p>Recording is wait-free (an HdrHistogram {@link Recorder}): every RPC records its latency, and
 * {@code MutableQuantiles} would make all handlers take one monitor per operation kind. Once per
 * interval the recorder hands over its histogram, and the snapshot is what is published until the
 * next one. Values are kept to 2 significant digits, up to one hour.
 */
final class LatencyPercentiles implements AutoCloseable {
  private static final int[] PERCENTILES = {50, 75, 90, 95, 99};
  private static final long MAX_MICROS = TimeUnit.HOURS.toMicros(1);

  private static final ScheduledExecutorService ROLLOVER =
      Executors.newSingleThreadScheduledExecutor(
          r -> {
            Thread t = new Thread(r, "latency-percentiles");
            t.setDaemon(true);
            return t;
          });

  private final Recorder recorder = new Recorder(MAX_MICROS, 2);
  private final MetricsInfo numInfo;
  private final MetricsInfo[] percentileInfos = new MetricsInfo[PERCENTILES.length];
  private final ScheduledFuture<?> rollover;
  private volatile Histogram last;

  /**
   * @param name e.g. {@code CreateLatency60s}
   * @param description e.g. {@code create latency}
   */
  LatencyPercentiles(String name, String description, int intervalSeconds) {
    numInfo =
        Interns.info(
            name + "NumOps",
            String.format("Number of ops for %s with %ds interval", description, intervalSeconds));
    for (int i = 0; i < PERCENTILES.length; i++) {
      percentileInfos[i] =
          Interns.info(
              name + PERCENTILES[i] + "thPercentileMicros",
              PERCENTILES[i]
                  + " percentile micros with "
                  + intervalSeconds
                  + " second interval for "
                  + description);
    }
    rollover =
        ROLLOVER.scheduleWithFixedDelay(
            this::roll, intervalSeconds, intervalSeconds, TimeUnit.SECONDS);
  }

  void add(long micros) {
    recorder.recordValue(Math.min(Math.max(micros, 0), MAX_MICROS));
  }

  private void roll() {
    // A new histogram each time: a snapshot may still be reading the previous one.
    last = recorder.getIntervalHistogram();
  }

  /** The last interval's count and percentiles (zeros before the first interval ends). */
  void snapshot(MetricsRecordBuilder r) {
    Histogram h = last;
    r.addGauge(numInfo, h == null ? 0 : h.getTotalCount());
    for (int i = 0; i < PERCENTILES.length; i++) {
      r.addGauge(percentileInfos[i], h == null ? 0 : h.getValueAtPercentile(PERCENTILES[i]));
    }
  }

  @Override
  public void close() {
    rollover.cancel(false);
  }
}
