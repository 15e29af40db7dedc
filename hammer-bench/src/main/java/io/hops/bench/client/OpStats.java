package io.hops.bench.client;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;
import java.util.regex.Pattern;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * Successes, failures and the latency histogram (microseconds, 3 significant digits) of one
 * operation. A client thread records into its own; results are merged across threads and client
 * processes. The most frequent error messages are kept, so a report says what failed.
 */
public final class OpStats {
  static final int MAX_ERROR_KINDS = 8;
  private static final String OTHER_ERRORS = "(other errors)";
  private static final Pattern PATH = Pattern.compile("(?<![\\w/])/[^\\s\"',:;]+");

  private final Histogram latencyMicros = new Histogram(3);
  private long successes;
  private long failures;
  private final Map<String, Long> errors = new LinkedHashMap<>();

  public synchronized void success(long micros) {
    successes++;
    latencyMicros.recordValue(Math.max(0, micros));
  }

  public synchronized void failure(String message) {
    failures++;
    String key =
        errors.containsKey(message) || errors.size() < MAX_ERROR_KINDS - 1 ? message : null;
    errors.merge(key == null ? OTHER_ERRORS : key, 1L, Long::sum);
  }

  /**
   * An error as a report shows it: its type and the first line of its message, paths replaced by
   * {@code <path>} so that one kind of error on many files counts as one.
   */
  public static String describe(Throwable e) {
    String message = e.getMessage() == null ? "" : e.getMessage();
    int newline = message.indexOf('\n');
    if (newline >= 0) {
      message = message.substring(0, newline);
    }
    message = PATH.matcher(message).replaceAll("<path>");
    if (message.length() > 200) {
      message = message.substring(0, 200) + "...";
    }
    return e.getClass().getSimpleName() + (message.isEmpty() ? "" : ": " + message);
  }

  public synchronized void add(OpStats other) {
    OpStats copy = other.copy();
    successes += copy.successes;
    failures += copy.failures;
    latencyMicros.add(copy.latencyMicros);
    copy.errors.forEach(
        (message, count) -> {
          if (errors.containsKey(message) || errors.size() < MAX_ERROR_KINDS) {
            errors.merge(message, count, Long::sum);
          } else {
            errors.merge(OTHER_ERRORS, count, Long::sum);
          }
        });
  }

  public synchronized OpStats copy() {
    OpStats c = new OpStats();
    c.successes = successes;
    c.failures = failures;
    c.latencyMicros.add(latencyMicros);
    c.errors.putAll(errors);
    return c;
  }

  public synchronized long successes() {
    return successes;
  }

  public synchronized long failures() {
    return failures;
  }

  /** A copy of the latency histogram, in microseconds. */
  public synchronized Histogram latencyMicros() {
    return latencyMicros.copy();
  }

  /** Error message to occurrences, most frequent first. */
  public synchronized Map<String, Long> errors() {
    Map<String, Long> sorted = new LinkedHashMap<>();
    errors.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue().reversed())
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** Writes this under {@code prefix} into {@code p} (a client process hands results over so). */
  public synchronized void encode(Properties p, String prefix) {
    p.setProperty(prefix + "successes", String.valueOf(successes));
    p.setProperty(prefix + "failures", String.valueOf(failures));
    ByteBuffer buffer = ByteBuffer.allocate(latencyMicros.getNeededByteBufferCapacity());
    int length = latencyMicros.encodeIntoCompressedByteBuffer(buffer);
    p.setProperty(
        prefix + "histogram",
        Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length)));
    int i = 0;
    for (Map.Entry<String, Long> e : errors.entrySet()) {
      p.setProperty(prefix + "error." + i + ".count", String.valueOf(e.getValue()));
      p.setProperty(prefix + "error." + i + ".message", e.getKey());
      i++;
    }
  }

  public static OpStats decode(Properties p, String prefix) {
    OpStats s = new OpStats();
    s.successes = Long.parseLong(p.getProperty(prefix + "successes", "0"));
    s.failures = Long.parseLong(p.getProperty(prefix + "failures", "0"));
    String histogram = p.getProperty(prefix + "histogram");
    if (histogram != null) {
      try {
        s.latencyMicros.add(
            Histogram.decodeFromCompressedByteBuffer(
                ByteBuffer.wrap(Base64.getDecoder().decode(histogram)), 0));
      } catch (DataFormatException e) {
        throw new IllegalArgumentException("corrupt latency histogram under " + prefix, e);
      }
    }
    for (int i = 0; p.containsKey(prefix + "error." + i + ".count"); i++) {
      s.errors.put(
          p.getProperty(prefix + "error." + i + ".message"),
          Long.parseLong(p.getProperty(prefix + "error." + i + ".count")));
    }
    return s;
  }
}
