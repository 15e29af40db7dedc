package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code hops bench --compare hdfs}, smallest: a hops namenode process and a formatted Apache HDFS
 * NameNode process side by side, each RAW phase on one and then on the other (their order swapped
 * from phase to phase), CPU read from /proc (in all and by thread), and the ratio table; two
 * rounds, so the table gives medians and each round's ratios.
 */
class SideBySideProcessesTest {
  @TempDir Path dir;

  @Test
  void comparesAHopsNamenodeProcessWithAnApacheHdfsNamenodeProcess() {
    ByteArrayOutputStream printed = new ByteArrayOutputStream();
    String[] args = {
      "--compare",
      "hdfs",
      "--no-datanode",
      "--heap",
      "512m",
      "--workload",
      "raw:stat_file,create_file",
      "--duration",
      "1",
      "--rounds",
      "2",
      "--warmup",
      "0",
      "--client-processes",
      "0",
      "--threads",
      "2",
      "--dirs-per-thread",
      "1",
      "--files-per-dir",
      "4",
      "--namenode-set",
      "dfs.namenode.fs-limits.max-directory-items=54321",
      "--out",
      dir.toString()
    };

    int rc =
        assertTimeoutPreemptively(
            Duration.ofSeconds(240),
            () ->
                new CommandLine(
                        new BenchCommand(new PrintStream(printed, true, StandardCharsets.UTF_8)))
                    .execute(args));

    String out = printed.toString(StandardCharsets.UTF_8);
    assertThat(rc).as(out).isZero();
    assertThat(out)
        .contains("== hops: serving at hdfs://127.0.0.1:")
        .contains("== hdfs: serving at hdfs://127.0.0.1:")
        .containsPattern(
            "namenode: 1 hops namenode, pid [0-9]+, -Xms512m -Xmx512m -XX:\\+UseParallelGC")
        .containsPattern("namenode: 1 Apache HDFS NameNode, pid [0-9]+, -Xms512m -Xmx512m\\R")
        // No --handlers: each system's own default, HDFS's 10 and hops' for its embedded store.
        .contains("handlers: 10 (stock default)")
        .contains(
            "handlers: "
                + NamenodeConfig.defaultHandlerCount(
                    "embedded", Runtime.getRuntime().availableProcessors())
                + " (stock default)")
        .contains("hops / hdfs: ratio")
        .containsPattern("hops \\| RAW stat_file .* 0 failures \\| namenode CPU [0-9.,]+ ms")
        .containsPattern("hdfs \\| RAW create_file .* 0 failures \\| namenode CPU [0-9.,]+ ms")
        // The second round of each phase, and each round's ratios after the medians.
        .containsPattern("hops \\| RAW create_file \\(round 2\\) .* 0 failures")
        .containsPattern("hdfs \\| RAW stat_file \\(round 2\\) .* 0 failures")
        .contains("(2 rounds: each value is its system's median")
        .containsPattern("stat_file +\\| [0-9.]+ [0-9.]+ +\\| [0-9.]+ [0-9.]+");
    // Each system's namenode CPU by thread, read from /proc: both have RPC handlers.
    assertThat(
            Pattern.compile("namenode CPU by thread, ms per 1,000 ops: [^\\n]*IPC Server hand")
                .matcher(out)
                .results()
                .count())
        .as(out)
        .isGreaterThanOrEqualTo(2);
    // Both systems are up before the first phase; the phases interleave, the order swapped.
    assertThat(out.indexOf("== hdfs: serving at")).isLessThan(out.indexOf("hops | RAW stat_file"));
    assertThat(
            List.of(
                out.indexOf("hops | RAW stat_file"),
                out.indexOf("hdfs | RAW stat_file"),
                out.indexOf("hdfs | RAW create_file"),
                out.indexOf("hops | RAW create_file")))
        .as(out)
        .doesNotContain(-1)
        .isSorted();
    // --namenode-set reaches both namenodes' configuration, and the report says so.
    assertThat(out)
        .contains("namenode settings: {dfs.namenode.fs-limits.max-directory-items=54321}");
    for (String conf : new String[] {"hops-namenode-conf", "hdfs-namenode-conf"}) {
      assertThat(dir.resolve("logs").resolve(conf).resolve("hdfs-site.xml"))
          .content()
          .contains("dfs.namenode.fs-limits.max-directory-items")
          .contains("54321");
    }
    assertThat(dir.resolve("logs/hdfs-namenode.log")).exists();
    assertThat(dir.resolve("work")).doesNotExist();
    assertThat(dir.resolve("throughput.png")).isNotEmptyFile();
    assertThat(Files.exists(dir.resolve("summary.json"))).isTrue();
  }
}
