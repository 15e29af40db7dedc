package io.hops.dal.embedded;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How this module's JMH benchmarks run from their {@code main}: one fork, 3 + 5 one-second rounds;
 * and the removal of a benchmark's store directory after its trial.
 */
final class Jmh {
  private Jmh() {}

  static void run(Class<?> benchmark) throws Exception {
    new Runner(
            new OptionsBuilder()
                .include(benchmark.getSimpleName())
                .forks(1)
                .warmupIterations(3)
                .warmupTime(TimeValue.seconds(1))
                .measurementIterations(5)
                .measurementTime(TimeValue.seconds(1))
                .build())
        .run();
  }

  /** Deletes {@code dir} and everything under it, deepest first. */
  static void deleteTree(Path dir) throws IOException {
    try (var files = Files.walk(dir)) {
      for (Path p : files.sorted((a, b) -> b.compareTo(a)).toList()) {
        Files.delete(p);
      }
    }
  }
}
