package io.hops.namenode.metrics;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.shell.Processes;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 62: {@code /prom} of a namenode started as an operator starts it, {@code bin/hops namenode}
 * or {@code bin/hops cluster} with the repository's {@code conf/hdfs-site.xml} (Hadoop's {@code
 * core-default.xml}, which says {@code hadoop.prometheus.endpoint.enabled=false}, loaded as
 * always), read by Prometheus's own Python parser. Only the ports are added, in a {@code
 * core-site.xml} beside the shipped file, so that the test does not take 8020 and 9870 from
 * whatever else runs on the machine.
 */
class PromWithShippedConfTest {
  private static final long START_SECONDS = 90;

  /** {@code bin/hops namenode}, and {@code bin/hops cluster} (the command), as run. */
  @ParameterizedTest(name = "bin/hops {0}")
  @ValueSource(strings = {"namenode", "cluster"})
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void promIsOnForANamenodeStartedFromTheShippedConf(String command) throws Exception {
    String python = NamenodeMetricsTest.Python.withPrometheusClient();
    assumeTrue(python != null, "python3 is not installed: /prom is not parsed");
    Path work = Files.createDirectories(Path.of("target/prom-shipped-conf/" + System.nanoTime()));
    Path conf = Files.createDirectories(work.resolve("conf"));
    Files.copy(Path.of("../conf/hdfs-site.xml"), conf.resolve("hdfs-site.xml"));
    assertThat(Files.readString(conf.resolve("hdfs-site.xml"))).doesNotContain("prometheus");
    int httpPort = Processes.freePort();
    Files.writeString(
        conf.resolve("core-site.xml"),
        Processes.site(
            "hops.namenode.rpc.port", Integer.toString(Processes.freePort()),
            "hops.namenode.http.port", Integer.toString(httpPort)));

    List<String> cmd = Processes.java(false);
    cmd.addAll(List.of(command, "--conf", conf.toAbsolutePath().toString()));
    if (command.equals("cluster")) {
      cmd.addAll(List.of("--datanodes", "0")); // the namenode's /prom is what is checked
    }
    Path out = work.resolve("namenode.out");
    Path err = work.resolve("namenode.err");
    // The shipped conf keeps the embedded store in ./data/metadata: the namenode's own directory.
    Process namenode =
        new ProcessBuilder(cmd)
            .directory(work.toFile())
            .redirectOutput(out.toFile())
            .redirectError(err.toFile())
            .start();
    try {
      awaitStart(
          namenode, out, err, command.equals("cluster") ? "hops cluster running" : "serving at");
      String prom = scrapeOnceMetricsArePublished("http://127.0.0.1:" + httpPort + "/prom");
      Path text = work.resolve("prom.txt");
      Files.writeString(text, prom);
      String parsed = parse(python, text);
      // The namenode's own sources, published by the JVM's sink since the first metrics period.
      assertThat(parsed).containsPattern("(?m)^fs_namesystem_files_total [0-9]");
      assertThat(parsed).containsPattern("(?m)^hops_namenode_is_leader [0-9]");
    } finally {
      namenode.destroyForcibly().waitFor(30, TimeUnit.SECONDS);
    }
  }

  private static void awaitStart(Process p, Path out, Path err, String ready) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(START_SECONDS);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains(ready)) {
      assertThat(p.isAlive()).as("the namenode died:%n%s", Processes.tail(err)).isTrue();
      assertThat(System.nanoTime())
          .as("the namenode did not start:%n%s", Processes.tail(err))
          .isLessThan(deadline);
      Thread.sleep(100);
    }
  }

  /** {@code /prom} once the metrics system's first period (10 s) has filled the sink. */
  private static String scrapeOnceMetricsArePublished(String uri) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (true) {
      String prom = Scrapes.get(uri); // a 404 fails at once
      if (prom.contains("fs_namesystem_files_total") || System.nanoTime() > deadline) {
        return prom;
      }
      Thread.sleep(500);
    }
  }

  /** Every sample of {@code file} as "name value" lines, by {@code prometheus_client}'s parser. */
  private static String parse(String python, Path file) throws Exception {
    String script =
        "import sys\n"
            + "from prometheus_client.parser import text_string_to_metric_families\n"
            + "for f in text_string_to_metric_families(open(sys.argv[1]).read()):\n"
            + "    for s in f.samples:\n"
            + "        print(s.name, s.value)\n";
    Process p =
        new ProcessBuilder(python, "-c", script, file.toAbsolutePath().toString())
            .redirectErrorStream(true)
            .start();
    String parsed = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
    assertThat(p.exitValue()).as(parsed).isZero();
    return parsed;
  }
}
