package io.hops.dal.embedded;

import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import java.nio.file.Files;
import java.nio.file.Path;
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
import org.rocksdb.FlushOptions;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksIterator;
import org.rocksdb.Slice;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * One listing page of a big directory: a seek after a random name and 1,001 steps over the
 * directory's inode rows (200,000 children, in a store opened as the engine opens one), the values
 * only copied ({@code iterate}) or read into rows by the engine's own scan ({@code decode}: {@link
 * PartitionScans#fromStore}, as a listing's page that the partition cache does not hold). With
 * {@code churn}, a twentieth of the children were deleted and as many new ones written after the
 * first flush, in runs of their own, as a directory under creates and deletes holds them. Results:
 * docs/benchmarks.md, "A big directory".
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
  private final byte[] prefix =
      table.layout.rowPrefix(List.of(InodeRow.TABLE.partitionColumn().orElseThrow()), List.of(DIR));
  private final byte[] prefixEnd = OrderedBytes.prefixEnd(prefix);
  private Path dir;
  private RocksStore store;
  private PartitionScans scans;
  private final Random random = new Random(7);
  private final byte[] buffer = new byte[4 << 10];

  @Setup(Level.Trial)
  public void fill() throws Exception {
    dir = Files.createTempDirectory("page-scan");
    store = RocksStore.openDirectory(dir, false, 1_000, CacheBounds.of(1 << 20));
    scans = new PartitionScans(store, new PrefixReads(store));
    write(0, CHILDREN, 1, false);
    flush();
    if (churn) {
      for (int run = 0; run < 3; run++) {
        write(run, CHILDREN, 60, true);
        write(CHILDREN + run, CHILDREN + CHILDREN / 20, 3, false);
        if (run < 2) {
          flush();
        }
      }
    }
  }

  /** Writes (or with {@code delete}, deletes) every {@code step}th child from {@code from}. */
  private void write(int from, int to, int step, boolean delete) throws Exception {
    store.use(
        "write",
        db -> {
          try (WriteOptions write = new WriteOptions();
              WriteBatch batch = new WriteBatch()) {
            for (int i = from; i < to; i += step) {
              if (delete) {
                batch.delete(key(i));
              } else {
                batch.put(key(i), table.codec.encode(row(i)));
              }
            }
            db.write(write, batch);
          }
          return null;
        });
  }

  private void flush() throws Exception {
    store.use(
        "flush",
        db -> {
          try (FlushOptions flush = new FlushOptions().setWaitForFlush(true)) {
            db.flush(flush);
          }
          return null;
        });
  }

  /** A closed file's row: its nullable columns (the writer's name and machine, a link) null. */
  private static InodeRow row(int i) {
    InodeRow row =
        SampleRows.inPartition(InodeRow.TABLE, SampleRows.withNulls(InodeRow.TABLE, i), DIR);
    row = SampleRows.with(InodeRow.TABLE, row, "parent_id", DIR);
    return SampleRows.with(InodeRow.TABLE, row, "name", "file-" + i);
  }

  private byte[] key(int i) {
    return table.rowKey(row(i));
  }

  @TearDown(Level.Trial)
  public void close() throws Exception {
    store.close();
    Jmh.deleteTree(dir);
  }

  /** The values of one page, copied into the buffer; answers the bytes seen. */
  @Benchmark
  public long iterate() throws Exception {
    byte[] after = key(random.nextInt(CHILDREN));
    return store.use(
        "page",
        db -> {
          long bytes = 0;
          try (ReadOptions read = new ReadOptions();
              Slice upper = new Slice(prefixEnd);
              RocksIterator it = db.newIterator(read.setIterateUpperBound(upper))) {
            int n = 0;
            for (it.seek(after); it.isValid() && n < PAGE; it.next()) {
              bytes += it.value(buffer);
              n++;
            }
          }
          return bytes;
        });
  }

  /** One page read into rows by the engine's scan, as a listing reads it. */
  @Benchmark
  public List<InodeRow> decode() throws Exception {
    return scans.fromStore(table, prefix, key(random.nextInt(CHILDREN)), PAGE, null);
  }

  public static void main(String[] args) throws Exception {
    Jmh.run(PageScanBenchmark.class);
  }
}
