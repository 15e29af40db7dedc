package io.hops.dal.embedded.bench;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * The DAL's access costs on the embedded engine (issue 2's targets, in memory: PK read &lt; 5 µs,
 * batch of 10 &lt; 25 µs, commit of 5 rows &lt; 50 µs). Reads run inside an open transaction, so
 * they measure the access, not begin/commit; {@code commitFiveRowBatch} measures a whole write
 * transaction. Results: docs/benchmarks.md.
 *
 * <p>Run: {@code java -cp <test classpath> io.hops.dal.embedded.bench.DalBenchmark [engine...]}
 * (engines: {@code mem}; {@code file}, a directory store with fsync on commit, the default; {@code
 * file-nosync}, the same without fsync).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
public class DalBenchmark {
  private static final Table<InodeRow> INODES = InodeRow.TABLE;
  private static final long PARENT = 42;

  @Param({"mem"})
  public String engine;

  private Storage storage;
  private Transaction open;
  private List<Key> ten;
  private List<InodeRow> five;
  private int next;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    storage = Storages.open(config(engine));
    storage.schema().createOrUpgrade();
    storage.schema().clearAll();
    try (Transaction tx = storage.begin()) {
      for (int i = 0; i < 16; i++) {
        tx.insert(INODES, inode(i, 0));
      }
      tx.commit();
    }
    ten = new ArrayList<>();
    for (int i = 0; i < 10; i++) {
      ten.add(INODES.key(PARENT, PARENT, "child-" + i));
    }
    five = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      five.add(inode(i, 0));
    }
  }

  @Setup(Level.Iteration)
  public void openTransaction() throws StorageException {
    open = storage.begin();
  }

  @TearDown(Level.Iteration)
  public void closeTransaction() {
    open.close();
  }

  @TearDown(Level.Trial)
  public void tearDown() {
    storage.close();
  }

  @Benchmark
  public InodeRow pkReadCommitted() throws StorageException {
    return open.find(INODES, ten.get(0), LockMode.READ_COMMITTED);
  }

  @Benchmark
  public InodeRow pkReadShared() throws StorageException {
    return open.find(INODES, ten.get(1), LockMode.SHARED);
  }

  @Benchmark
  public InodeRow pkReadExclusive() throws StorageException {
    return open.find(INODES, ten.get(2), LockMode.EXCLUSIVE);
  }

  @Benchmark
  public List<InodeRow> batchedReadOfTen() throws StorageException {
    return open.findBatch(INODES, ten, LockMode.READ_COMMITTED);
  }

  @Benchmark
  public List<InodeRow> partitionScanOfSixteen() throws StorageException {
    return open.findByPartition(INODES, PARENT, LockMode.READ_COMMITTED);
  }

  @Benchmark
  public void commitFiveRowBatch() throws StorageException {
    next++;
    try (Transaction tx = storage.begin()) {
      for (InodeRow r : five) {
        tx.update(INODES, withTime(r, next));
      }
      tx.commit();
    }
  }

  private static InodeRow inode(int i, long time) {
    return new InodeRow(
        PARENT,
        PARENT,
        "child-" + i,
        1000 + i,
        false,
        (short) 0644,
        1,
        1,
        time,
        time,
        0,
        (short) 3,
        128L << 20,
        false,
        null,
        null,
        false,
        0,
        false,
        (byte) 0,
        0,
        false,
        null);
  }

  private static InodeRow withTime(InodeRow r, long time) {
    return new InodeRow(
        r.partitionId(),
        r.parentId(),
        r.name(),
        r.id(),
        r.isDir(),
        r.permission(),
        r.userId(),
        r.groupId(),
        time,
        time,
        r.size(),
        r.replication(),
        r.preferredBlockSize(),
        r.underConstruction(),
        r.clientName(),
        r.clientMachine(),
        r.subtreeLocked(),
        r.subtreeLockOwner(),
        r.fileStoredInDb(),
        r.storagePolicy(),
        r.childrenCount(),
        r.hasQuota(),
        r.symlink());
  }

  static DalConfig config(String engine) throws Exception {
    return switch (engine) {
      case "mem" -> DalConfig.embeddedInMemory("bench");
      case "file" ->
          DalConfig.of(
              Map.of(HopsConfig.EMBEDDED_DIR, Files.createTempDirectory("hops-bench").toString()));
      case "file-nosync" ->
          DalConfig.of(
                  Map.of(
                      HopsConfig.EMBEDDED_DIR, Files.createTempDirectory("hops-bench").toString()))
              .with(HopsConfig.EMBEDDED_FSYNC_ON_COMMIT, false);
      default -> throw new IllegalArgumentException("unknown engine " + engine);
    };
  }

  public static void main(String[] args) throws Exception {
    String[] engines = args.length == 0 ? new String[] {"mem", "file", "file-nosync"} : args;
    new Runner(
            new OptionsBuilder()
                .include(DalBenchmark.class.getSimpleName())
                .param("engine", engines)
                .forks(1)
                .warmupIterations(3)
                .warmupTime(org.openjdk.jmh.runner.options.TimeValue.seconds(2))
                .measurementIterations(5)
                .measurementTime(org.openjdk.jmh.runner.options.TimeValue.seconds(2))
                .build())
        .run();
  }
}
