package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.SchemaVersion;
import io.hops.namenode.cli.HopsMainAccess;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A rolling upgrade with two real builds (docs/operations.md, "Upgrade"): a namenode of the
 * previous release ({@link PreviousRelease}: the newest commit of the main line with an older
 * schema, built from its sources) runs over MariaDB; a namenode of this build refuses to start
 * beside it; {@code bin/hops format} of this build upgrades the schema beside the live old
 * namenode, which goes on serving; this build's namenode then serves beside it, each seeing what
 * the other wrote; and once the old one stops, the old release refuses the newer schema.
 */
class UpgradeFromPreviousReleaseTest {
  private static final String DATABASE = "hops_upgrade";

  private final List<Process> daemons = new ArrayList<>();
  private Path work;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : daemons) {
      p.destroyForcibly();
    }
    for (Process p : daemons) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Timeout(value = 20, unit = TimeUnit.MINUTES)
  void oldAndNewNamenodesServeSideBySideThroughAnExplicitUpgrade() throws Exception {
    String url = System.getenv("HOPS_TEST_MYSQL_URL");
    assumeTrue(url != null && !url.isBlank(), "HOPS_TEST_MYSQL_URL is not set");
    Path root = PreviousRelease.repositoryRoot();
    assumeTrue(root != null, "not a git checkout: there is no previous release to build");
    PreviousRelease previous = PreviousRelease.build(root, SchemaVersion.CURRENT);
    work = Files.createTempDirectory("upgrade");
    Map<String, String> db = emptyDatabase(url);

    int oldPort = Processes.freePort();
    int newPort = Processes.freePort();
    Path oldConf = writeConf("old", db, oldPort);
    Path newConf = writeConf("new", db, newPort);

    // The previous release makes the schema and serves.
    Process old = start(previous.java(), "old-1", oldConf);
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(previous.schemaVersion);
    }
    try (FileSystem fs = client(oldPort)) {
      fs.mkdirs(new org.apache.hadoop.fs.Path("/before/dir"));
      fs.create(new org.apache.hadoop.fs.Path("/before/file")).close();
      fs.setPermission(new org.apache.hadoop.fs.Path("/before/file"), new FsPermission("640"));
      fs.setXAttr(
          new org.apache.hadoop.fs.Path("/before/file"),
          "user.release",
          "old".getBytes(StandardCharsets.UTF_8));
    }

    // This build refuses to start beside it, and changes nothing.
    Process refused =
        daemon(Processes.java(false), "new-refused", "namenode", "--conf", newConf.toString());
    assertThat(refused.waitFor(90, TimeUnit.SECONDS)).as("the new namenode exits").isTrue();
    assertThat(refused.exitValue()).isNotZero();
    assertThat(log("new-refused"))
        .contains("the metadata schema is at version " + previous.schemaVersion)
        .contains("of the older release are live");
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(previous.schemaVersion);
    }

    // The explicit upgrade beside the live old namenode, which goes on serving; format keeps the
    // data and says so with exit 1.
    assertThat(HopsMainAccess.execute("format", "--conf", newConf.toString())).isEqualTo(1);
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(SchemaVersion.CURRENT);
    }
    try (FileSystem fs = client(oldPort)) {
      fs.mkdirs(new org.apache.hadoop.fs.Path("/after-upgrade/by-old"));
    }

    // Both releases serve side by side, each seeing what the other wrote.
    start(Processes.java(false), "new-1", newConf);
    try (FileSystem fs = client(newPort)) {
      assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path("/before/file")).getPermission())
          .isEqualTo(new FsPermission("640"));
      assertThat(fs.getXAttr(new org.apache.hadoop.fs.Path("/before/file"), "user.release"))
          .isEqualTo("old".getBytes(StandardCharsets.UTF_8));
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/before/dir"))).isTrue();
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/after-upgrade/by-old"))).isTrue();
      fs.mkdirs(new org.apache.hadoop.fs.Path("/after-upgrade/by-new"));
      fs.create(new org.apache.hadoop.fs.Path("/after-upgrade/by-new/file")).close();
    }
    try (FileSystem fs = client(oldPort)) {
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/after-upgrade/by-new/file"))).isTrue();
      assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/after-upgrade"))).hasSize(2);
    }

    // The old release stops, and will not start again over the newer schema.
    old.destroy();
    assertThat(old.waitFor(30, TimeUnit.SECONDS)).isTrue();
    Process again = daemon(previous.java(), "old-again", "namenode", "--conf", oldConf.toString());
    assertThat(again.waitFor(90, TimeUnit.SECONDS)).as("the old namenode exits").isTrue();
    assertThat(again.exitValue()).isNotZero();
    assertThat(log("old-again"))
        .contains("the metadata schema is at version " + SchemaVersion.CURRENT)
        .contains("newer than this release's");
    try (FileSystem fs = client(newPort)) {
      assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/after-upgrade"))).hasSize(2);
    }
  }

  /** A database of its own on the test MariaDB, empty: the old release makes its schema. */
  private static Map<String, String> emptyDatabase(String url) throws Exception {
    String user = System.getenv().getOrDefault("HOPS_TEST_MYSQL_USER", "hops");
    String password = System.getenv().getOrDefault("HOPS_TEST_MYSQL_PASSWORD", "hops");
    try (Connection c = DriverManager.getConnection(url, user, password);
        Statement st = c.createStatement()) {
      st.execute("DROP DATABASE IF EXISTS " + DATABASE);
      st.execute("CREATE DATABASE " + DATABASE + " CHARACTER SET utf8mb4");
    }
    Map<String, String> db = new LinkedHashMap<>();
    db.put(HopsConfig.METADATA_ENGINE, "mysql");
    db.put(HopsConfig.JDBC_URL, url.replaceFirst("/[^/?]*(\\?|$)", "/" + DATABASE + "$1"));
    db.put(HopsConfig.JDBC_USER, user);
    db.put(HopsConfig.JDBC_PASSWORD, password);
    return db;
  }

  private static Storage storage(Map<String, String> db) throws IOException {
    return Storages.open(DalConfig.of(db));
  }

  private Path writeConf(String name, Map<String, String> db, int rpcPort) throws IOException {
    Path dir = Files.createDirectories(work.resolve("conf-" + name));
    Files.writeString(
        dir.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", "hdfs://127.0.0.1:" + rpcPort),
        StandardCharsets.UTF_8);
    List<String> kv = new ArrayList<>();
    db.forEach(
        (k, v) -> {
          kv.add(k);
          kv.add(v);
        });
    kv.addAll(
        List.of(
            "hops.metadata.pool.size", "20",
            "hops.namenode.rpc.port", Integer.toString(rpcPort),
            "hops.namenode.http.port", Integer.toString(Processes.freePort()),
            "hops.namenode.housekeeping.interval.ms", "500",
            "ipc.client.connect.max.retries", "2",
            "ipc.client.connect.retry.interval", "200"));
    Files.writeString(
        dir.resolve("hdfs-site.xml"),
        Processes.site(kv.toArray(new String[0])),
        StandardCharsets.UTF_8);
    return dir;
  }

  private Process start(List<String> java, String name, Path conf) throws Exception {
    Process p = daemon(java, name, "namenode", "--conf", conf.toString());
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
    while (!Files.readString(work.resolve(name + ".out"), StandardCharsets.UTF_8)
        .contains("namenode serving at")) {
      assertThat(p.isAlive()).as("%s died:%n%s", name, log(name)).isTrue();
      assertThat(System.nanoTime()).as("%s did not start", name).isLessThan(deadline);
      Thread.sleep(100);
    }
    return p;
  }

  private String log(String name) throws IOException {
    return Files.readString(work.resolve(name + ".out"), StandardCharsets.UTF_8)
        + Files.readString(work.resolve(name + ".err"), StandardCharsets.UTF_8);
  }

  private Process daemon(List<String> java, String name, String... args) throws IOException {
    List<String> cmd = new ArrayList<>(java);
    cmd.addAll(List.of(args));
    Process p =
        new ProcessBuilder(cmd)
            .redirectOutput(work.resolve(name + ".out").toFile())
            .redirectError(work.resolve(name + ".err").toFile())
            .start();
    daemons.add(p);
    return p;
  }

  private static FileSystem client(int port) throws IOException {
    Configuration conf = new Configuration();
    conf.setInt("ipc.client.connect.max.retries", 2);
    return FileSystem.newInstance(URI.create("hdfs://127.0.0.1:" + port), conf);
  }
}
