package io.hops.dal.embedded;

import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * How this module's JMH benchmarks run from their {@code main}: one fork, 3 + 5 one-second rounds.
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
}
