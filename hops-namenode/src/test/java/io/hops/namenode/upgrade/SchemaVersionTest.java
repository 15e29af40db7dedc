package io.hops.namenode.upgrade;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.HopsConfig;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.cli.HopsMainAccess;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.junit.jupiter.api.Test;

/**
 * The schema's version in the database (docs/operations.md, "Upgrade"): a namenode refuses a newer
 * schema; over an older one it upgrades only when no namenode of the older release is live, and
 * refuses beside one; {@code bin/hops format} upgrades explicitly beside live namenodes.
 */
class SchemaVersionTest {
  private static Configuration conf(String store) {
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, store);
    conf.setLong(HopsConfig.ELECTION_PERIOD_MS, 200);
    conf.setInt(NamenodeConfig.RPC_PORT, 0);
    return conf;
  }

  /** A configuration directory naming {@code conf}'s store, for {@code bin/hops}. */
  private static Path confDir(Configuration conf) throws Exception {
    Path dir = Files.createTempDirectory("schema-conf");
    Files.writeString(
        dir.resolve("hdfs-site.xml"),
        "<configuration><property><name>"
            + HopsConfig.METADATA_ENGINE
            + "</name><value>embedded</value></property><property><name>"
            + HopsConfig.EMBEDDED_DIR
            + "</name><value>"
            + conf.get(HopsConfig.EMBEDDED_DIR)
            + "</value></property></configuration>");
    return dir;
  }

  private static void setVersion(Storage storage, long version) throws Exception {
    try (Transaction tx = storage.begin()) {
      VariableRow row = new VariableRow(SchemaVersion.ROW, version, null);
      if (tx.find(VariableRow.TABLE, VariableRow.TABLE.key(SchemaVersion.ROW), LockMode.EXCLUSIVE)
          == null) {
        tx.insert(VariableRow.TABLE, row);
      } else {
        tx.update(VariableRow.TABLE, row);
      }
      tx.commit();
    }
  }

  @Test
  void aNewStoreIsRecordedAtThisReleasesVersionAndANewerOneIsRefused() throws Exception {
    Configuration conf = conf("mem:schema-newer-" + System.nanoTime());
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      assertThat(SchemaVersion.stored(storage)).isEqualTo(SchemaVersion.CURRENT);
      setVersion(storage, SchemaVersion.CURRENT + 1);
      assertThatThrownBy(() -> HopsNameNode.start(conf))
          .hasMessageContaining(
              "the metadata schema is at version "
                  + (SchemaVersion.CURRENT + 1)
                  + ", newer than this release's");
      Path confDir = confDir(conf);
      assertThat(HopsMainAccess.execute("format", "--conf", confDir.toString())).isNotZero();
      assertThat(SchemaVersion.stored(storage)).isEqualTo(SchemaVersion.CURRENT + 1);
    }
  }

  @Test
  void anOlderSchemaIsUpgradedOnlyWhenNoOlderNamenodeLivesOrByFormat() throws Exception {
    Configuration conf = conf("mem:schema-older-" + System.nanoTime());
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      Storage storage = cluster.namenode().namesystem().storage();
      cluster.client().mkdirs(new org.apache.hadoop.fs.Path("/kept"));
      // As a store of the release before versions, with one of its namenodes live.
      setVersion(storage, 0);
      assertThatThrownBy(() -> HopsNameNode.start(conf))
          .hasMessageContaining("the metadata schema is at version 0 and this release needs")
          .hasMessageContaining("of the older release are live");
      assertThat(SchemaVersion.stored(storage)).isZero();

      // The explicit upgrade beside it.
      Path confDir = confDir(conf);
      HopsMainAccess.execute("format", "--conf", confDir.toString());
      assertThat(SchemaVersion.stored(storage)).isEqualTo(SchemaVersion.CURRENT);
      HopsNameNode second = HopsNameNode.start(conf);
      second.close();

      // Older again, and now no namenode lives: the next start upgrades it.
      setVersion(storage, 0);
      cluster.namenode().close();
      HopsNameNode upgrader = HopsNameNode.start(conf);
      try {
        assertThat(SchemaVersion.stored(upgrader.namesystem().storage()))
            .isEqualTo(SchemaVersion.CURRENT);
      } finally {
        upgrader.close();
      }
    }
  }
}
