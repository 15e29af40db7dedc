package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.web.webhdfs.WebHdfsSides.Raw;
import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The administrator-only pages as HDFS guards them, with simple authentication ({@code
 * user.name=}): {@code hadoop.security.authorization} on, {@code dfs.cluster.administrators} naming
 * {@code admin}, and {@code hadoop.security.instrumentation.requires.admin} on. {@code /logs/} and
 * {@code /logLevel} need an administrator; {@code /conf}, {@code /jmx} and {@code /stacks} too,
 * with the instrumentation key; {@code /prom} and {@code /fsck} need none (HDFS's FsckServlet runs
 * the walk as the caller). hops and a MiniDFSCluster answer with the same status; hops's own log
 * page {@code /logs.html} is guarded as {@code /logs/}.
 */
class WebAdminPagesLikeHdfsTest {
  private static WebHdfsSides sides;
  private static String logDirBefore;

  @BeforeAll
  static void start() throws IOException {
    // HttpServer2 serves /logs/ only when the JVM names a log directory.
    logDirBefore = System.getProperty("hadoop.log.dir");
    File logs = Files.createTempDirectory("hops-web-admin-logs").toFile();
    Files.writeString(new File(logs, "namenode.log").toPath(), "a line\n", StandardCharsets.UTF_8);
    System.setProperty("hadoop.log.dir", logs.getPath());
    Configuration conf = new Configuration(false);
    conf.setBoolean("hadoop.security.authorization", true);
    conf.set("dfs.cluster.administrators", "admin");
    conf.setBoolean("hadoop.security.instrumentation.requires.admin", true);
    conf.setBoolean("hadoop.prometheus.endpoint.enabled", true);
    conf.set("hops.test.store.password", "hunter2-not-shown");
    sides = new WebHdfsSides("web-admin", conf);
  }

  @AfterAll
  static void stop() throws IOException {
    if (logDirBefore == null) {
      System.clearProperty("hadoop.log.dir");
    } else {
      System.setProperty("hadoop.log.dir", logDirBefore);
    }
    if (sides != null) {
      sides.close();
    }
  }

  @ParameterizedTest(name = "{0} -> {1}")
  @CsvSource({
    "/conf, 403",
    "/conf?user.name=alice, 403",
    "/conf?user.name=admin, 200",
    "/jmx, 403",
    "/jmx?user.name=alice, 403",
    "/jmx?user.name=admin, 200",
    "/stacks?user.name=alice, 403",
    "/stacks?user.name=admin, 200",
    "/logs/, 403",
    "/logs/?user.name=alice, 403",
    "/logs/?user.name=admin, 200",
    "/logs/namenode.log?user.name=alice, 403",
    "/logs/namenode.log?user.name=admin, 200",
    "/logLevel?user.name=alice, 403",
    "/logLevel?user.name=admin, 200",
    "/prom, 200",
    "/fsck?ugi=alice&path=/, 200",
  })
  void sameStatusAsHdfs(String pathAndQuery, int status) throws Exception {
    Raw hdfs = sides.hdfs.raw("GET", pathAndQuery);
    Raw hops = sides.hops.raw("GET", pathAndQuery);
    assertThat(hdfs.status()).as("hdfs " + hdfs.body()).isEqualTo(status);
    assertThat(hops.status()).as("hops " + hops.body()).isEqualTo(status);
  }

  @ParameterizedTest(name = "/logs.html as {0} -> {1}")
  @CsvSource({"'', 403", "?user.name=alice, 403", "?user.name=admin, 200"})
  void hopsLogPageIsForAdministrators(String query, int status) throws Exception {
    Raw hops = sides.hops.raw("GET", "/logs.html" + query);
    assertThat(hops.status()).as(hops.body()).isEqualTo(status);
    if (status == 200) {
      assertThat(hops.body()).contains("a line");
    } else {
      assertThat(hops.body()).doesNotContain("a line");
    }
  }

  @Test
  void confShowsNoPassword() throws Exception {
    for (var s : sides.both()) {
      Raw conf = s.raw("GET", "/conf?user.name=admin");
      assertThat(conf.status()).isEqualTo(200);
      assertThat(conf.body()).as(s.name()).contains("hops.test.store.password");
      assertThat(conf.body()).as(s.name()).doesNotContain("hunter2-not-shown");
    }
  }
}
