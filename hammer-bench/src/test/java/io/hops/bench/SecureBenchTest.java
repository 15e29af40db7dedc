package io.hops.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.bench.client.Phase;
import io.hops.bench.cluster.BenchKerberos;
import io.hops.bench.cluster.ClusterSettings;
import io.hops.bench.cluster.HdfsLauncher;
import io.hops.bench.cluster.HopsLauncher;
import io.hops.bench.cluster.Target;
import io.hops.bench.cluster.TargetLauncher;
import io.hops.bench.report.MeasuredPhase;
import io.hops.bench.report.SystemRun;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.PrivilegedExceptionAction;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code bench --secure}: both systems the benchmark starts are kerberized the same way, so the
 * cost of security is compared like for like. Each refuses a caller without credentials, serves the
 * benchmark's logged-in clients (blocks written and read back through SASL data transfer with
 * privacy and block tokens), and runs the benchmark's phases with client processes that log in from
 * the keytab, without a failure.
 */
class SecureBenchTest {
  private final Path dir =
      Path.of("target", "secure-bench", String.valueOf(System.nanoTime())).toAbsolutePath();

  @AfterEach
  void loginAsBefore() {
    // This JVM's login was the run's principal; later tests in the fork expect none.
    UserGroupInformation.reset();
  }

  @Test
  @Timeout(value = 300, unit = TimeUnit.SECONDS)
  void hopsAndHdfsRunKerberizedWithPrivacyAndRefuseACallerWithoutCredentials() throws Exception {
    try (BenchKerberos kerberos = BenchKerberos.start(dir.resolve("work"), "privacy")) {
      ClusterSettings s =
          new ClusterSettings(
              "512m",
              null,
              dir.resolve("work"),
              dir.resolve("logs"),
              System.getProperty("java.class.path"),
              "embedded",
              null,
              null,
              null,
              1,
              null,
              false,
              Map.of(),
              kerberos);
      for (TargetLauncher launcher : List.of(new HopsLauncher(s), new HdfsLauncher(s))) {
        try (Target target = launcher.start()) {
          String system = target.system();
          assertThat(target.facts().get("datanode"))
              .as(system)
              .isEqualTo("stock DataNode, registered");
          assertThat(target.facts().get("security")).as(system).contains("privacy");
          Configuration conf = new Configuration();
          target.clientConf().forEach(conf::set);
          URI uri = URI.create(target.uri());

          byte[] data = new byte[300_000];
          Arrays.fill(data, (byte) 7);
          try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
            org.apache.hadoop.fs.Path file = new org.apache.hadoop.fs.Path("/secure/f");
            try (FSDataOutputStream out = fs.create(file, true)) {
              out.write(data);
            }
            byte[] back = new byte[data.length];
            try (FSDataInputStream in = fs.open(file)) {
              in.readFully(back);
            }
            assertThat(back).as("%s: the bytes read back", system).isEqualTo(data);
          }

          UserGroupInformation nobody = UserGroupInformation.createRemoteUser("mallory");
          assertThatThrownBy(
                  () ->
                      nobody.doAs(
                          (PrivilegedExceptionAction<Object>)
                              () -> {
                                try (FileSystem fs = FileSystem.newInstance(uri, conf)) {
                                  return fs.getFileStatus(new org.apache.hadoop.fs.Path("/"));
                                }
                              }))
              .as("%s: a caller without credentials", system)
              .isInstanceOfAny(AccessControlException.class, IOException.class)
              .hasMessageContaining("Client cannot authenticate via:[TOKEN, KERBEROS]");

          BenchRunner runner =
              new BenchRunner(
                  TestPlans.plan(
                      TestPlans.client(2, null, 10_000),
                      1,
                      List.of(
                          new Phase("raw:create_file", Workload.raw(Op.CREATE_FILE), 0, 1500),
                          new Phase("raw:read_file", Workload.raw(Op.READ_FILE), 0, 1500)),
                      dir.resolve("clients-" + system)),
                  new PrintStream(new ByteArrayOutputStream(), true, StandardCharsets.UTF_8));
          SystemRun run = runner.run(TargetLauncher.of(target));
          assertThat(run.problems()).as(system).isEmpty();
          assertThat(run.setup().failures().errors()).as(system).isEmpty();
          for (MeasuredPhase p : run.phases()) {
            assertThat(p.result().failures())
                .as("%s %s failures: %s", system, p.phase().name(), ApacheHdfsRunTest.errors(p))
                .isZero();
            assertThat(p.result().successes()).as("%s %s", system, p.phase().name()).isPositive();
          }
        }
      }
    }
  }
}
