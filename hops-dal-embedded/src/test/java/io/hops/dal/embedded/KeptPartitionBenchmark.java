package io.hops.dal.embedded;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a commit costs a kept partition ({@link KeptRows}) of a directory with {@code rows}
 * children: a new child, a child's row replaced, a child removed; and a point read of a name.
 * Results: docs/benchmarks.md.
 *
 * <p>Run: {@code java -cp <hops-dal-embedded test classpath>
 * io.hops.dal.embedded.KeptPartitionBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class KeptPartitionBenchmark {
  @Param({"16", "128", "1000"})
  public int rows;

  private KeptRows kept;
  private KeyBytes newName;
  private KeyBytes existingName;
  private final Object row = new Object();

  @Setup
  public void fill() {
    List<byte[]> keys = new ArrayList<>();
    List<Object> values = new ArrayList<>();
    for (int i = 0; i < rows; i++) {
      keys.add(key("child-" + (100_000 + 2 * i)));
      values.add(new Object());
    }
    kept = KeptRows.of(keys, values);
    newName = new KeyBytes(key("child-" + (100_000 + rows + 1)));
    existingName = new KeyBytes(keys.get(rows / 2));
  }

  private static byte[] key(String name) {
    return ("inodes/42/" + name).getBytes(StandardCharsets.UTF_8);
  }

  @Benchmark
  public KeptRows insert() {
    return kept.with(Map.of(newName, row));
  }

  @Benchmark
  public KeptRows replace() {
    return kept.with(Map.of(existingName, row));
  }

  @Benchmark
  public KeptRows remove() {
    return kept.with(Map.of(existingName, RowCache.ABSENT));
  }

  @Benchmark
  public Object find() {
    return kept.find(newName.bytes());
  }

  public static void main(String[] args) throws Exception {
    Jmh.run(KeptPartitionBenchmark.class);
  }
}
