package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.MessageDigest;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Spark from PyPI ({@code pyspark}, local mode, its own bundled Hadoop client) against hops with a
 * real DataNode, once with that stock client and once with hops-client as {@code fs.hdfs.impl}, its
 * jars given as a user gives them ({@code spark.jars}, i.e. {@code --jars}): DataFrames written as
 * Parquet, CSV and text (FileOutputCommitter's rename-based commit) into a plain and a {@code DB}
 * directory and read back, a user's rename of an output, and a directory of database files written
 * here with hops-client read whole, as bytes and as lines. The script ({@code
 * spark/spark_on_hops.py}) checks what Spark reads; this class checks what hops holds afterwards
 * and where its bytes are.
 *
 * <p>Python comes from {@code HOPS_TEST_PYSPARK_PYTHON}, else .ci/run's venv ({@code
 * target/py-venv}, which installs pyspark), else {@code python3}. Without pyspark the test is
 * skipped, except under CI ({@code CI=true}) or when {@code HOPS_TEST_PYSPARK_PYTHON} is set, where
 * it fails.
 */
class SparkOnHopsTest {
  private static final int MAX = HopsConfig.SMALL_FILE_MAX_SIZE_DEFAULT;
  private static final int[] PREMADE_SIZES = {0, 1, 1024, 1025, 4096, MAX, MAX + 1};

  @Test
  void sparkWritesAndReadsDatabaseFilesWithBothClients() throws Exception {
    String python = Pyspark.python();
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    try (HopsTestCluster cluster = new HopsTestCluster(nn)) {
      cluster.startDatanodes(1);
      cluster.waitForLive(1);
      try (DistributedFileSystem stock = cluster.client();
          FileSystem hops = hopsClient(cluster)) {
        Hops h = new Hops(cluster, stock);
        for (String dir : List.of("/spark-hops/db", "/spark-stock/db", "/premade")) {
          stock.mkdirs(new Path(dir));
          stock.setStoragePolicy(new Path(dir), "DB");
        }
        Map<String, byte[]> premade = new LinkedHashMap<>();
        for (int size : PREMADE_SIZES) {
          byte[] data = text(size);
          premade.put("f" + size, data);
          SmallFilesTest.write(hops, new Path("/premade/f" + size), data);
        }

        String hopsOut = runSpark(python, cluster, "hops", "/spark-hops", null);
        assertThat(hopsOut).contains("FILESYSTEM " + HopsDistributedFileSystem.class.getName());
        assertPremadeRead(hopsOut, premade);
        h.assertSparkOutput("/spark-hops", true);

        // The stock client also reads the Parquet that Spark wrote as database files through
        // hops-client (the namenode's data-transfer endpoint serves them).
        String stockOut =
            runSpark(python, cluster, "stock", "/spark-stock", "/spark-hops/db/parquet");
        assertThat(stockOut)
            .contains(
                "FILESYSTEM " + DistributedFileSystem.class.getName(),
                "CHECK other.parquet.rows ok");
        assertPremadeRead(stockOut, premade);
        h.assertSparkOutput("/spark-stock", false);

        for (Map.Entry<String, byte[]> e : premade.entrySet()) {
          Path p = new Path("/premade/" + e.getKey());
          assertThat(SmallFilesTest.read(stock, p)).as(p.toString()).isEqualTo(e.getValue());
          assertThat(h.inDatabase(p)).as(p.toString()).isEqualTo(e.getValue().length <= MAX);
        }
      }
    }
  }

  private static FileSystem hopsClient(HopsTestCluster cluster) throws IOException {
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setInt("dfs.replication", 1);
    return FileSystem.get(cluster.uri(), c);
  }

  /** Lines of text, cut to exactly {@code size} bytes (the last line may lack its newline). */
  private static byte[] text(int size) {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; sb.length() < size; i++) {
      sb.append("premade ").append(size).append(" line ").append(i).append('\n');
    }
    return sb.substring(0, size).getBytes(StandardCharsets.US_ASCII);
  }

  private static long lines(byte[] data) {
    long n = 0;
    for (byte b : data) {
      n += b == '\n' ? 1 : 0;
    }
    return n + (data.length > 0 && data[data.length - 1] != '\n' ? 1 : 0);
  }

  /** Spark read each pre-made file whole, as bytes and as text, with the bytes written. */
  private static void assertPremadeRead(String out, Map<String, byte[]> premade) throws Exception {
    long lines = 0;
    for (Map.Entry<String, byte[]> e : premade.entrySet()) {
      String digest =
          HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(e.getValue()));
      String expected = e.getKey() + " " + e.getValue().length + " " + digest;
      assertThat(out).contains("BINARY " + expected, "WHOLE " + expected);
      lines += lines(e.getValue());
    }
    assertThat(out).contains("LINES " + lines);
  }

  /**
   * Runs the script with one client; asserts it exited 0, printed every check as ok and none as
   * failed, and returns its output.
   */
  private static String runSpark(
      String python, HopsTestCluster cluster, String client, String root, String other)
      throws Exception {
    File work = Files.createTempDirectory("hops-spark-" + client).toFile();
    File script = new File(work, "spark_on_hops.py");
    try (InputStream in = SparkOnHopsTest.class.getResourceAsStream("/spark/spark_on_hops.py")) {
      Files.copy(in, script.toPath());
    }
    List<String> cmd = new ArrayList<>();
    cmd.addAll(
        List.of(python, script.getPath(), cluster.uri().toString(), client, root, "/premade"));
    if (other != null) {
      cmd.add(other);
    }
    ProcessBuilder pb = new ProcessBuilder(cmd).directory(work).redirectErrorStream(true);
    pb.environment().put("JAVA_HOME", System.getProperty("java.home"));
    pb.environment().put("SPARK_LOCAL_IP", "127.0.0.1");
    pb.environment().put("SPARK_LOCAL_DIRS", new File(work, "local").getPath());
    pb.environment().put("HOPS_CLIENT_JARS", hopsClientJars(work));
    File log = new File("target/spark-on-hops-" + client + ".log");
    pb.redirectOutput(log);
    long t0 = System.nanoTime();
    Process p = pb.start();
    boolean exited = p.waitFor(10, TimeUnit.MINUTES);
    if (!exited) {
      p.destroyForcibly();
    }
    String out = Files.readString(log.toPath());
    String shown = out.length() > 20_000 ? out.substring(out.length() - 20_000) : out;
    assertThat(exited).as("spark (%s) did not finish in 10 minutes:%n%s", client, shown).isTrue();
    assertThat(p.exitValue()).as("spark (%s) exit code; output:%n%s", client, shown).isZero();
    System.out.printf(
        "spark with the %s client took %d s%n",
        client, TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - t0));
    assertThat(out).as(shown).doesNotContain(" FAIL").contains("DONE 0 failed");
    for (String kind : List.of("plain", "db")) {
      for (String check :
          List.of(
              ".parquet.rows",
              ".parquet.success",
              ".parquet.no-temporary",
              ".parquet.append",
              ".parquet.overwrite.rows",
              ".csv.rows",
              ".text.rows",
              ".rdd.lines",
              ".rdd.success",
              ".rename.rows",
              ".big.count")) {
        assertThat(out).as(shown).contains("CHECK " + kind + check + " ok");
      }
    }
    org.apache.hadoop.fs.FileUtil.fullyDelete(work);
    return out;
  }

  /**
   * hops-client's and hops-common's jars, comma-separated as {@code spark.jars} takes them; a class
   * directory (the build's {@code target/classes}) is packed into a jar in {@code work} first.
   */
  private static String hopsClientJars(File work) throws Exception {
    List<String> jars = new ArrayList<>();
    for (Class<?> c : List.of(HopsDistributedFileSystem.class, HopsConfig.class)) {
      java.nio.file.Path from =
          java.nio.file.Path.of(c.getProtectionDomain().getCodeSource().getLocation().toURI());
      if (Files.isRegularFile(from)) {
        jars.add(from.toString());
        continue;
      }
      java.nio.file.Path jar =
          work.toPath().resolve(c == HopsConfig.class ? "hops-common.jar" : "hops-client.jar");
      try (var out = new JarOutputStream(Files.newOutputStream(jar));
          var files = Files.walk(from)) {
        for (java.nio.file.Path f : (Iterable<java.nio.file.Path>) files.sorted()::iterator) {
          if (Files.isRegularFile(f)) {
            out.putNextEntry(
                new JarEntry(from.relativize(f).toString().replace(File.separatorChar, '/')));
            Files.copy(f, out);
            out.closeEntry();
          }
        }
      }
      jars.add(jar.toString());
    }
    return String.join(",", jars);
  }

  /** What hops holds after a Spark run, read with the stock client and the DAL. */
  private record Hops(HopsTestCluster cluster, DistributedFileSystem fs) {
    boolean inDatabase(Path p) throws IOException {
      long id = fs.getClient().getFileInfo(p.toUri().getPath()).getFileId();
      try (Transaction tx = cluster.namenode().namesystem().storage().begin()) {
        return tx.findByIndex(InodeRow.TABLE, "id", id, LockMode.READ_COMMITTED)
            .get(0)
            .fileStoredInDb();
      }
    }

    /**
     * Every output Spark committed under {@code root}: only part files and {@code _SUCCESS}, no
     * {@code _temporary}; each file's bytes as long as its length; Parquet framed by {@code PAR1};
     * database files exactly where hops-client wrote small files under {@code DB}.
     */
    void assertSparkOutput(String root, boolean hopsClient) throws IOException {
      int files = 0;
      for (String kind : List.of("plain", "db")) {
        for (String out : List.of("parquet", "csv-renamed", "text", "rdd", "big")) {
          Path dir = new Path(root + "/" + kind + "/" + out);
          assertThat(fs.exists(new Path(dir, "_temporary"))).as(dir.toString()).isFalse();
          assertThat(fs.getFileStatus(new Path(dir, "_SUCCESS")).getLen()).isZero();
          int parts = 0;
          for (FileStatus st : fs.listStatus(dir)) {
            String name = st.getPath().getName();
            assertThat(st.isFile()).as(st.getPath().toString()).isTrue();
            assertThat(name).matches("_SUCCESS|part-.*");
            byte[] data = SmallFilesTest.read(fs, st.getPath());
            assertThat(data).as(st.getPath().toString()).hasSize((int) st.getLen());
            if (out.equals("parquet") && name.startsWith("part-")) {
              assertThat(new String(data, 0, 4, StandardCharsets.US_ASCII)).isEqualTo("PAR1");
              assertThat(new String(data, data.length - 4, 4, StandardCharsets.US_ASCII))
                  .isEqualTo("PAR1");
            }
            boolean expectDb = hopsClient && kind.equals("db") && st.getLen() <= MAX;
            assertThat(inDatabase(st.getPath()))
                .as("%s (%d bytes) stored in the database", st.getPath(), st.getLen())
                .isEqualTo(expectDb);
            parts += name.startsWith("part-") ? 1 : 0;
            files++;
          }
          assertThat(parts).as(dir.toString()).isPositive();
          if (out.equals("parquet")) {
            // four partitions; the appended four went with the overwrite
            assertThat(parts).as(dir.toString()).isEqualTo(4);
          }
          if (out.equals("big")) {
            assertThat(fs.getContentSummary(dir).getLength()).isGreaterThan(MAX);
          }
        }
        assertThat(fs.exists(new Path(root + "/" + kind + "/csv"))).isFalse();
      }
      assertThat(files).isGreaterThan(20);
    }
  }

  /** A Python 3 with pyspark, or null (skip) where none is required. */
  static final class Pyspark {
    static String python() throws Exception {
      String configured = System.getenv("HOPS_TEST_PYSPARK_PYTHON");
      boolean required = configured != null || "true".equals(System.getenv("CI"));
      List<String> candidates =
          configured != null
              ? List.of(configured)
              : List.of("../target/py-venv/bin/python3", "target/py-venv/bin/python3", "python3");
      for (String candidate : candidates) {
        if (run(candidate, "-c", "import pyspark")) {
          // absolute: the script runs in a directory of its own
          return candidate.contains("/") ? new File(candidate).getAbsolutePath() : candidate;
        }
      }
      String why =
          "no Python with pyspark among "
              + candidates
              + " (.ci/run installs it into target/py-venv: pip install 'pyspark>=3.5,<3.6')";
      if (required) {
        throw new AssertionError(why + "; required under CI or with HOPS_TEST_PYSPARK_PYTHON");
      }
      assumeTrue(false, why);
      return null;
    }

    private static boolean run(String... command) throws Exception {
      try {
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        return p.waitFor(120, TimeUnit.SECONDS) && p.exitValue() == 0;
      } catch (IOException e) {
        return false;
      }
    }
  }
}
