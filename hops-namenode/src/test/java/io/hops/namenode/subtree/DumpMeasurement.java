package io.hops.namenode.subtree;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.dal.dump.NamespaceDump;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.cli.FsckNamespaceCommand;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.junit.jupiter.api.Test;

/**
 * Issue 58's measurement, run by hand ({@code -Dtest=DumpMeasurement}, with HOPS_TEST_MYSQL_URL): a
 * namespace of {@code hops.measure.dump.dirs} x 1000 files ({@link BulkTree}) on the embedded store
 * (on disk) exported, imported into MariaDB, checked ({@code fsck-namespace}) and sampled through
 * the stock client on a namenode over the imported store; prints inodes per second.
 */
class DumpMeasurement {
  @Test
  void exportEmbeddedImportMariadb() throws Exception {
    int dirs = Integer.getInteger("hops.measure.dump.dirs", 1000);
    Map<String, String> target = HopsTestCluster.emptyMariadbOrNull();
    org.junit.jupiter.api.Assumptions.assumeTrue(target != null, "needs HOPS_TEST_MYSQL_URL");
    Path work = Files.createTempDirectory("hops-dump-measure");
    Configuration source = new Configuration(false);
    source.set(HopsConfig.METADATA_ENGINE, "embedded");
    source.set(HopsConfig.EMBEDDED_DIR, work.resolve("store").toString());
    Path dump = work.resolve("dump");
    long inodes;
    try (HopsTestCluster a = new HopsTestCluster(source)) {
      DistributedFileSystem fs = a.client();
      long t0 = System.nanoTime();
      inodes =
          BulkTree.build(
              a.namenode().namesystem().storage(),
              fs,
              new org.apache.hadoop.fs.Path("/big"),
              dirs,
              1000);
      System.out.printf("built %d inodes in %.1f s%n", inodes, (System.nanoTime() - t0) / 1e9);
      fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
      long t1 = System.nanoTime();
      NamespaceDump.Counts out =
          NamespaceDump.export(a.namenode().namesystem().storage(), dump, line -> {});
      double s1 = (System.nanoTime() - t1) / 1e9;
      System.out.printf(
          "EXPORT %d inodes (%d rows) in %.1f s: %.0f inodes/s, %d bytes on disk%n",
          out.rows().get("inodes"),
          out.total(),
          s1,
          out.rows().get("inodes") / s1,
          FileUtil.getDU(dump.toFile()));
    }
    Configuration targetConf = new Configuration(false);
    target.forEach(targetConf::set);
    try (Storage into = Storages.open(NamenodeConfig.dalConfig(targetConf))) {
      into.schema().createOrUpgrade();
      long t2 = System.nanoTime();
      NamespaceDump.Counts in = NamespaceDump.importInto(into, dump, line -> {});
      double s2 = (System.nanoTime() - t2) / 1e9;
      System.out.printf(
          "IMPORT %d inodes (%d rows) into MariaDB in %.1f s: %.0f inodes/s%n",
          in.rows().get("inodes"), in.total(), s2, in.rows().get("inodes") / s2);
      assertThat(in.rows().get("inodes")).isGreaterThanOrEqualTo(inodes);
      ByteArrayOutputStream report = new ByteArrayOutputStream();
      long t3 = System.nanoTime();
      int exit = FsckNamespaceCommand.run(into, 10_000, false, id -> true, new PrintStream(report));
      System.out.printf(
          "fsck-namespace on MariaDB: exit %d in %.1f s%n", exit, (System.nanoTime() - t3) / 1e9);
      assertThat(exit).as(report.toString()).isZero();
    }
    try (HopsTestCluster b = new HopsTestCluster(targetConf)) {
      DistributedFileSystem fs = b.client();
      fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
      for (int d = 0; d < dirs; d += Math.max(1, dirs / 100)) {
        org.apache.hadoop.fs.Path file =
            new org.apache.hadoop.fs.Path("/big/d" + d + "/f" + d % 1000);
        assertThat(fs.getFileStatus(file).getLen()).isZero();
        try (var stream = fs.open(file)) {
          assertThat(stream.read()).isEqualTo(-1);
        }
      }
      assertThat(fs.getContentSummary(new org.apache.hadoop.fs.Path("/big")).getFileCount())
          .isEqualTo((long) dirs * 1000);
    } finally {
      FileUtil.fullyDelete(work.toFile());
    }
  }
}
