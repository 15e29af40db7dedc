package io.hops.dal.embedded;

import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
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
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One listing page of a big directory: a seek after a random name and 1,001 steps over the
 * directory's inode rows (200,000 children, with the engine's options), the values only copied
 * ({@code iterate}) or also decoded into rows ({@code decode}), as {@link PartitionScans#fromStore}
 * does. With {@code churn}, a twentieth of the children were deleted and as many new ones written
 * after the first flush, in runs of their own, as a directory under creates and deletes holds them.
 * Results: docs/benchmarks.md, "A big directory".
 *
 * <p>Run: {@code java -cp <hops-dal-embedded test classpath>
 * io.hops.dal.embedded.PageScanBenchmark}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class PageScanBenchmark {
  private static final int CHILDREN = 200_000;
  private static final int PAGE = 1_001;
  private static final long DIR = 4242;

  @Param({"false", "true"})
  public boolean churn;

  private final StoredTable<InodeRow> table = StoredTable.of(InodeRow.TABLE);
  private Path dir;
  private Options options;
  private RocksDB db;
  private final Random random = new Random(7);
  private final byte[] buffer = new byte[4 << 10];

  @Setup(Level.Trial)
  public void fill() throws Exception {
    dir = Files.createTempDirectory("page-scan");
    options = RocksOptions.of(Env.getDefault(), RocksOptions.WRITE_BUFFER_BYTES, false);
    db = RocksDB.open(options, dir.toString());
    try (WriteOptions write = new WriteOptions();
        FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
      write(write, 0, CHILDREN, 1);
      db.flush(flush);
      if (churn) {
        for (int run = 0; run < 3; run++) {
          try (WriteBatch batch = new WriteBatch()) {
            for (int i = run; i < CHILDREN; i += 60) {
              batch.delete(key(name(i)));
            }
            db.write(write, batch);
          }
          write(write, CHILDREN + run, CHILDREN + CHILDREN / 20, 3);
          if (run < 2) {
            db.flush(flush);
          }
        }
      }
    }
  }

  private void write(WriteOptions write, int from, int to, int step) throws Exception {
    try (WriteBatch batch = new WriteBatch()) {
      for (int i = from; i < to; i += step) {
        String name = name(i);
        // A closed file's row: its nullable columns (the writer's name and machine, a link) null.
        InodeRow row =
            SampleRows.inPartition(InodeRow.TABLE, SampleRows.withNulls(InodeRow.TABLE, i), DIR);
        row = SampleRows.with(InodeRow.TABLE, row, "parent_id", DIR);
        row = SampleRows.with(InodeRow.TABLE, row, "name", name);
        batch.put(key(name), table.codec.encode(row));
      }
      db.write(write, batch);
    }
  }

  private static String name(int i) {
    return "file-" + i;
  }

  private static byte[] key(String name) {
    byte[] n = name.getBytes(StandardCharsets.UTF_8);
    return ByteBuffer.allocate(17 + n.length)
        .put((byte) 3)
        .putLong(DIR)
        .putLong(DIR)
        .put(n)
        .array();
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    db.close();
    options.close();
    Jmh.deleteTree(dir);
  }

  /** The values of one page, copied into the buffer; answers the bytes seen. */
  @Benchmark
  public long iterate() {
    long bytes = 0;
    try (ReadOptions read = new ReadOptions();
        Slice upper = new Slice(key("\u00ff"));
        RocksIterator it = db.newIterator(read.setIterateUpperBound(upper))) {
      int n = 0;
      for (it.seek(key(name(random.nextInt(CHILDREN)))); it.isValid() && n < PAGE; it.next()) {
        bytes += it.value(buffer);
        n++;
      }
    }
    return bytes;
  }

  /** One page decoded into rows, as a listing reads it. */
  @Benchmark
  public List<InodeRow> decode() {
    List<InodeRow> rows = new ArrayList<>(PAGE);
    try (ReadOptions read = new ReadOptions();
        Slice upper = new Slice(key("\u00ff"));
        RocksIterator it = db.newIterator(read.setIterateUpperBound(upper))) {
      for (it.seek(key(name(random.nextInt(CHILDREN))));
          it.isValid() && rows.size() < PAGE;
          it.next()) {
        it.value(buffer);
        rows.add(table.codec.decode(buffer));
      }
    }
    return rows;
  }

  public static void main(String[] args) throws Exception {
    Jmh.run(PageScanBenchmark.class);
  }
}
