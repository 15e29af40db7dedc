package io.hops.dal.sql.bench;

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
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
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
 * The DAL's access costs on the embedded engine and on MariaDB, side by side (issue 2's targets on
 * the embedded engine, in memory: PK read &lt; 5 µs, batch of 10 &lt; 25 µs, commit of 5 rows &lt;
 * 50 µs). Reads run inside an open transaction, so they measure the access, not begin/commit;
 * {@code commitFiveRowBatch} measures a whole write transaction. Results: docs/benchmarks.md.
 *
 * <p>Engines: {@code mem}; {@code file}, a directory store with fsync on commit, the default;
 * {@code file-nosync}, the same without fsync; {@code mariadb}, the database of {@code
 * HOPS_TEST_MYSQL_URL} (with {@code _USER}, {@code _PASSWORD}) with {@code
 * innodb_flush_log_at_trx_commit = 1} (the log flushed and synced at every commit); {@code
 * mariadb-nosync}, the same with 2 (written at commit, synced once a second). The two MariaDB
 * engines set that global variable (the user needs the privilege) and put it back afterwards.
 *
 * <p>Run (docs/benchmarks.md): {@code java -cp <hops-dal-sql test classpath>
 * io.hops.dal.sql.bench.DalBenchmark [engine...]}.
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

  private String flushBefore;

  @Setup(Level.Trial)
  public void setUp() throws Exception {
    if (engine.startsWith("mariadb")) {
      flushBefore = setFlushAtCommit(engine.equals("mariadb") ? "1" : "2");
    }
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
  public void tearDown() throws SQLException {
    storage.close();
    if (flushBefore != null) {
      setFlushAtCommit(flushBefore);
    }
  }

  /** Sets innodb_flush_log_at_trx_commit on the test server; returns the value it had. */
  private static String setFlushAtCommit(String value) throws SQLException {
    try (Connection c = DriverManager.getConnection(env("URL"), env("USER"), env("PASSWORD"));
        Statement s = c.createStatement()) {
      String before;
      try (ResultSet r = s.executeQuery("SELECT @@GLOBAL.innodb_flush_log_at_trx_commit")) {
        r.next();
        before = r.getString(1);
      }
      s.execute("SET GLOBAL innodb_flush_log_at_trx_commit = " + Integer.parseInt(value));
      return before;
    }
  }

  private static String env(String name) {
    String v = System.getenv("HOPS_TEST_MYSQL_" + name);
    if (v == null || v.isBlank()) {
      throw new IllegalStateException("the mariadb engines need HOPS_TEST_MYSQL_" + name);
    }
    return v;
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
        null,
        false,
        0);
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
        r.symlink(),
        r.snapshottable(),
        r.snapshotId());
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
      case "mariadb", "mariadb-nosync" ->
          DalConfig.of(
              Map.of(
                  HopsConfig.METADATA_ENGINE, "mysql",
                  HopsConfig.JDBC_URL, env("URL"),
                  HopsConfig.JDBC_USER, env("USER"),
                  HopsConfig.JDBC_PASSWORD, env("PASSWORD")));
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
