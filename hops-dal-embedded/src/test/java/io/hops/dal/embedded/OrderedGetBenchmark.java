package io.hops.dal.embedded;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.rocksdb.Env;
import org.rocksdb.FlushOptions;
import org.rocksdb.Options;
import org.rocksdb.RocksDB;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A batch of 2,500 point reads on a store of 1,000,000 keys in {@code runs} sorted runs (table
 * files, each holding keys from the whole range, left uncompacted), with the engine's options
 * ({@link RocksOptions}): by {@code multiGetAsList}, and by {@link PointReads#orderedGet}, for keys
 * close together ({@code dense}: 2,500 consecutive keys, as a full report's lookup rows), every
 * tenth key ({@code strided}), and keys anywhere ({@code sparse}). Results: docs/benchmarks.md,
 * "Full block reports".
 *
 * <p>Run: {@code java -cp <hops-dal-embedded test classpath>
 * io.hops.dal.embedded.OrderedGetBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class OrderedGetBenchmark {
  private static final int KEYS = 1_000_000;
  private static final int BATCH = 2_500;

  @Param({"dense", "strided", "sparse"})
  public String shape;

  @Param({"1", "6"})
  public int runs;

  private Path dir;
  private Options options;
  private RocksDB db;
  private final Random random = new Random(7);

  @Setup(Level.Trial)
  public void fill() throws Exception {
    dir = Files.createTempDirectory("ordered-get");
    options = RocksOptions.of(Env.getDefault(), RocksOptions.WRITE_BUFFER_BYTES, false);
    options.setDisableAutoCompactions(true);
    db = RocksDB.open(options, dir.toString());
    byte[] value = new byte[40];
    try (WriteOptions write = new WriteOptions();
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      for (int r = 0; r < runs; r++) {
        try (WriteBatch batch = new WriteBatch()) {
          for (int k = r; k < KEYS; k += runs) {
            batch.put(key(k), value);
          }
          db.write(write, batch);
        }
        db.flush(flush);
      }
    }
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    db.close();
    options.close();
    Jmh.deleteTree(dir);
  }

  private List<byte[]> batch() {
    List<byte[]> keys = new ArrayList<>(BATCH);
    switch (shape) {
      case "dense" -> {
        int from = random.nextInt(KEYS - BATCH);
        for (int i = 0; i < BATCH; i++) {
          keys.add(key(from + i));
        }
      }
      case "strided" -> {
        int from = random.nextInt(KEYS - 10 * BATCH);
        for (int i = 0; i < BATCH; i++) {
          keys.add(key(from + 10 * i));
        }
      }
      default -> {
        int[] ids = random.ints(BATCH, 0, KEYS).sorted().toArray();
        for (int id : ids) {
          keys.add(key(id));
        }
      }
    }
    return keys;
  }

  private static byte[] key(int k) {
    return ByteBuffer.allocate(13).put((byte) 3).putInt(77).putLong(k).array();
  }

  @Benchmark
  public int multiGet() throws Exception {
    return count(db.multiGetAsList(batch()));
  }

  @Benchmark
  public int ordered() throws Exception {
    return count(PointReads.orderedGet(db, batch()));
  }

  private static int count(List<byte[]> values) {
    int n = 0;
    for (byte[] v : values) {
      n += v == null ? 0 : 1;
    }
    if (n != BATCH) {
      throw new IllegalStateException("read " + n + " of " + BATCH);
    }
    return n;
  }

  public static void main(String[] args) throws Exception {
    Jmh.run(OrderedGetBenchmark.class);
  }
}
