package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.cli.HopsMainAccess;
import io.hops.namenode.upgrade.SchemaVersion;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
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

  /** The namenode of the previous release, and the one of this build. */
  private static final int OLD = 0;

  private static final int NEW = 1;

  private ProcessCluster cluster;

  @AfterEach
  void stopAll() throws Exception {
    if (cluster != null) {
      cluster.close();
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
    Map<String, String> db = emptyDatabase(url);
    cluster =
        new ProcessCluster(
            Files.createTempDirectory("upgrade"), db, 2, Map.of("hops.metadata.pool.size", "20"));

    // The previous release makes the schema and serves.
    cluster.startNamenode(OLD, previous.java());
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(previous.schemaVersion);
    }
    try (FileSystem fs = client(OLD)) {
      fs.mkdirs(new org.apache.hadoop.fs.Path("/before/dir"));
      fs.create(new org.apache.hadoop.fs.Path("/before/file")).close();
      fs.setPermission(new org.apache.hadoop.fs.Path("/before/file"), new FsPermission("640"));
      fs.setXAttr(
          new org.apache.hadoop.fs.Path("/before/file"),
          "user.release",
          "old".getBytes(StandardCharsets.UTF_8));
    }

    // This build refuses to start beside it, and changes nothing.
    Process refused = cluster.launchNamenode(NEW, Processes.java(false));
    assertThat(refused.waitFor(90, TimeUnit.SECONDS)).as("the new namenode exits").isTrue();
    assertThat(refused.exitValue()).isNotZero();
    assertThat(cluster.output(NEW))
        .contains("the metadata schema is at version " + previous.schemaVersion)
        .contains("of the older release are live");
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(previous.schemaVersion);
    }

    // The explicit upgrade beside the live old namenode, which goes on serving; format keeps the
    // data and says so with exit 1.
    assertThat(HopsMainAccess.execute("format", "--conf", cluster.conf(NEW).toString()))
        .isEqualTo(1);
    try (Storage s = storage(db)) {
      assertThat(SchemaVersion.stored(s)).isEqualTo(SchemaVersion.CURRENT);
    }
    try (FileSystem fs = client(OLD)) {
      fs.mkdirs(new org.apache.hadoop.fs.Path("/after-upgrade/by-old"));
    }

    // Both releases serve side by side, each seeing what the other wrote.
    cluster.startNamenode(NEW);
    try (FileSystem fs = client(NEW)) {
      assertThat(fs.getFileStatus(new org.apache.hadoop.fs.Path("/before/file")).getPermission())
          .isEqualTo(new FsPermission("640"));
      assertThat(fs.getXAttr(new org.apache.hadoop.fs.Path("/before/file"), "user.release"))
          .isEqualTo("old".getBytes(StandardCharsets.UTF_8));
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/before/dir"))).isTrue();
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/after-upgrade/by-old"))).isTrue();
      fs.mkdirs(new org.apache.hadoop.fs.Path("/after-upgrade/by-new"));
      fs.create(new org.apache.hadoop.fs.Path("/after-upgrade/by-new/file")).close();
    }
    try (FileSystem fs = client(OLD)) {
      assertThat(fs.exists(new org.apache.hadoop.fs.Path("/after-upgrade/by-new/file"))).isTrue();
      assertThat(fs.listStatus(new org.apache.hadoop.fs.Path("/after-upgrade"))).hasSize(2);
    }

    // The old release stops, and will not start again over the newer schema.
    cluster.stop(OLD);
    Process again = cluster.launchNamenode(OLD, previous.java());
    assertThat(again.waitFor(90, TimeUnit.SECONDS)).as("the old namenode exits").isTrue();
    assertThat(again.exitValue()).isNotZero();
    assertThat(cluster.output(OLD))
        .contains("the metadata schema is at version " + SchemaVersion.CURRENT)
        .contains("newer than this release's");
    try (FileSystem fs = client(NEW)) {
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

  private FileSystem client(int namenode) throws IOException {
    return FileSystem.get(cluster.clientOf(namenode));
  }
}
