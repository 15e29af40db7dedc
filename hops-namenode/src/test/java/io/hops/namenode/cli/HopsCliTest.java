package io.hops.namenode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.DalConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Storages;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.dal.schema.Table;
import io.hops.dal.schema.Tables;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code bin/hops} in process, on an embedded store configured through a conf directory. */
@Timeout(120)
class HopsCliTest {
  @TempDir Path conf;
  @TempDir Path data;
  private Path store;

  private record Run(int status, String out, String err) {}

  @BeforeEach
  void writeConf() throws IOException {
    store = data.resolve("metadata");
    writeSite(Map.of(HopsConfig.EMBEDDED_DIR, store.toString()));
  }

  @Test
  void formatOnAnEmptyDirectoryCreatesEveryTable() throws Exception {
    Run run = hops("format", "--conf", conf.toString());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.out())
        .contains("engine:  embedded", "store:   " + store, "created: " + Tables.ALL.size());
    try (Storage storage = open()) {
      assertThat(storage.schema().existingTables())
          .containsExactlyElementsOf(Tables.ALL.stream().map(Table::name).toList());
    }
  }

  @Test
  void formatTwiceIsIdempotent() throws Exception {
    hops("format", "--conf", conf.toString());
    Run again = hops("format", "--conf", conf.toString());

    assertThat(again.status()).as(again.toString()).isZero();
    assertThat(again.out()).doesNotContain("created:").contains("empty and ready");
  }

  @Test
  void formatKeepsDataAndExitsOneWithoutForce() throws Exception {
    hops("format", "--conf", conf.toString());
    putRow();

    Run run = hops("format", "--conf", conf.toString());

    assertThat(run.status()).as(run.toString()).isEqualTo(HopsCli.EXIT_KEPT_DATA);
    assertThat(run.out()).contains("already holds data; it was kept", "hops format --force");
    assertThat(rowIsThere()).isTrue();
  }

  @Test
  void formatForceWipesTheData() throws Exception {
    hops("format", "--conf", conf.toString());
    putRow();

    Run run = hops("format", "--force", "--conf", conf.toString());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.out()).contains("dropped " + Tables.ALL.size() + " tables");
    assertThat(rowIsThere()).isFalse();
    try (Storage storage = open()) {
      assertThat(storage.schema().existingTables()).hasSize(Tables.ALL.size());
    }
  }

  @Test
  void dalDemoShowsEachAccessKindAndLeavesNoTrace() throws Exception {
    hops("format", "--conf", conf.toString());

    Run run = hops("dal-demo", "--conf", conf.toString());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.out())
        .containsPattern("allocate ids +PK\\(EXCLUSIVE\\) \\+ W ")
        .containsPattern("insert a directory and its files +W ")
        .containsPattern("read the directory by primary key +PK\\(SHARED\\) ")
        .containsPattern("read the files in one batch +B ")
        .containsPattern("list the directory +PPIS ")
        .containsPattern("delete them and the counter +W ");
    assertThat(run.out()).contains("a.txt", "b.txt", "c.txt");
    try (Storage storage = open()) {
      assertThat(storage.schema().hasData()).isFalse();
    }
    assertThat(hops("format", "--conf", conf.toString()).status()).isZero();
  }

  @Test
  void dbInfoCountsRowsPerTable() throws Exception {
    hops("format", "--conf", conf.toString());
    putRow();

    Run run = hops("db-info", "--conf", conf.toString());

    assertThat(run.status()).as(run.toString()).isZero();
    assertThat(run.out())
        .containsPattern("variables +1 rows")
        .containsPattern("inodes +0 rows")
        .contains("accesses: FTS x" + Tables.ALL.size());
  }

  @Test
  void errorsAreOneLineOnStderr() throws Exception {
    writeSite(Map.of(HopsConfig.METADATA_ENGINE, "no-such-engine"));

    Run run = hops("format", "--conf", conf.toString());

    assertThat(run.status()).isEqualTo(HopsCli.EXIT_ERROR);
    assertThat(run.err().strip())
        .startsWith("hops format: no driver for metadata engine 'no-such-engine'")
        .doesNotContain("\n");
  }

  @Test
  void aMissingConfDirectoryIsAUsageError() {
    Run run = hops("format", "--conf", conf.resolve("nope").toString());

    assertThat(run.status()).isEqualTo(HopsCli.EXIT_ERROR);
    assertThat(run.err()).contains("does not exist");
  }

  @Test
  void passwordsNeverShow() {
    assertThat(MetadataConf.withoutPassword("jdbc:mariadb://h:3306/hops?user=u&password=s3&x=1"))
        .isEqualTo("jdbc:mariadb://h:3306/hops?user=u&password=***&x=1");
    assertThat(MetadataConf.withoutPassword("jdbc:mysql://u:s3@h/hops"))
        .isEqualTo("jdbc:mysql://u:***@h/hops");
  }

  private Run hops(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    CommandLine cmd = HopsCli.commandLine();
    cmd.setOut(new PrintWriter(out, true));
    cmd.setErr(new PrintWriter(err, true));
    int status = cmd.execute(args);
    return new Run(status, out.toString(), err.toString());
  }

  private void writeSite(Map<String, String> settings) throws IOException {
    StringBuilder xml = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    settings.forEach(
        (k, v) ->
            xml.append("  <property><name>")
                .append(k)
                .append("</name><value>")
                .append(v)
                .append("</value></property>\n"));
    Files.writeString(conf.resolve(MetadataConf.SITE_FILE), xml.append("</configuration>\n"));
  }

  private Storage open() throws StorageException {
    return Storages.open(DalConfig.of(Map.of(HopsConfig.EMBEDDED_DIR, store.toString())));
  }

  private void putRow() throws StorageException {
    try (Storage storage = open();
        Transaction tx = storage.begin()) {
      tx.insert(VariableRow.TABLE, new VariableRow("kept", 42, null));
      tx.commit();
    }
  }

  private boolean rowIsThere() throws StorageException {
    try (Storage storage = open();
        Transaction tx = storage.begin()) {
      return tx.find(VariableRow.TABLE, VariableRow.TABLE.key("kept"), LockMode.READ_COMMITTED)
          != null;
    }
  }
}
