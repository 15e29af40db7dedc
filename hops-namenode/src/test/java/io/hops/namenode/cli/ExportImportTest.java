package io.hops.namenode.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.common.HopsConfig;
import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileUtil;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.junit.jupiter.api.Test;

/**
 * {@code hops export} of a namespace on the embedded store and {@code hops import} into another
 * store (MariaDB when HOPS_TEST_MYSQL_URL names one, else a fresh embedded store), as an operator
 * moves a cluster: the same datanodes then serve the imported namespace, and every file reads back
 * byte for byte through the stock client, with its owner, permission, xattrs, ACL and quota.
 */
class ExportImportTest {
  private static final Random RANDOM = new Random(42);

  private static org.apache.hadoop.fs.Path p(String path) {
    return new org.apache.hadoop.fs.Path(path);
  }

  private static Path confDir(Map<String, String> settings) throws Exception {
    Path dir = Files.createTempDirectory("hops-dump-conf");
    StringBuilder xml = new StringBuilder("<configuration>\n");
    settings.forEach(
        (k, v) ->
            xml.append("<property><name>")
                .append(k)
                .append("</name><value>")
                .append(v)
                .append("</value></property>\n"));
    Files.writeString(dir.resolve("hdfs-site.xml"), xml + "</configuration>\n");
    return dir;
  }

  private static byte[] bytes(int n) {
    byte[] b = new byte[n];
    RANDOM.nextBytes(b);
    return b;
  }

  @Test
  void aNamespaceMovesToAnotherStoreAndReadsBackByteForByte() throws Exception {
    Map<String, String> source =
        Map.of(
            HopsConfig.METADATA_ENGINE,
            "embedded",
            HopsConfig.EMBEDDED_DIR,
            "mem:export-" + System.nanoTime(),
            HopsConfig.ELECTION_PERIOD_MS,
            "200");
    Path dataRoot = Files.createTempDirectory("hops-dump-dn");
    Path dump = Files.createTempDirectory("hops-dump").resolve("dump");
    Map<String, byte[]> written = new TreeMap<>();
    Configuration sourceConf = new Configuration(false);
    source.forEach(sourceConf::set);
    try (HopsTestCluster a = new HopsTestCluster(sourceConf).withDataRoot(dataRoot)) {
      a.startDatanodes(3);
      DistributedFileSystem fs = a.client();
      fs.mkdirs(p("/data/deep/er"));
      int[] sizes = {0, 1, 4096, 100_000, 1 << 20, 3 * (1 << 20) + 17};
      for (int i = 0; i < sizes.length; i++) {
        String path = (i % 2 == 0 ? "/data/f" : "/data/deep/er/f") + i;
        byte[] b = bytes(sizes[i]);
        try (FSDataOutputStream out =
            fs.create(p(path), true, 4096, (short) (1 + i % 3), 1 << 20)) {
          out.write(b);
        }
        written.put(path, b);
      }
      fs.mkdirs(p("/db"));
      fs.setStoragePolicy(p("/db"), "DB");
      try (SmallFilesProtocolTranslatorPB small =
          new SmallFilesProtocolTranslatorPB(a.namenode().address(), a.clientConf())) {
        for (int size : new int[] {10, 1500, 3000, 9000, 60_000}) {
          byte[] b = bytes(size);
          String path = "/db/small" + size;
          assertThat(
                  small.createSmallFile(
                      path, (short) 0644, "DFSClient_dump", false, true, (short) 3, 1 << 20, b))
              .isTrue();
          written.put(path, b);
        }
      }
      fs.setOwner(p("/data/deep"), "alice", "analysts");
      fs.setPermission(p("/data/deep"), new FsPermission((short) 0750));
      fs.setXAttr(p("/data/f0"), "user.origin", "exported".getBytes(StandardCharsets.UTF_8));
      fs.modifyAclEntries(p("/data"), AclEntry.parseAclSpec("user:bob:r-x", true));
      fs.setQuota(p("/data"), 100, 1L << 40);

      Path from = confDir(source);
      // Live and writable: refused, nothing written.
      ThreadConsole.Captured refused =
          ThreadConsole.capture(
              () -> HopsMainAccess.execute("export", "--conf", from.toString(), dump.toString()));
      assertThat(refused.exit()).isEqualTo(2);
      assertThat(refused.err()).contains("is not in safe mode");
      assertThat(Files.exists(dump)).isFalse();

      fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
      ThreadConsole.Captured exported =
          ThreadConsole.capture(
              () -> HopsMainAccess.execute("export", "--conf", from.toString(), dump.toString()));
      assertThat(exported.exit()).as(exported.err()).isZero();
      assertThat(exported.out()).contains("inodes: ").contains("exported ");
    }

    Map<String, String> target = HopsTestCluster.emptyMariadbOrNull();
    if (target == null) {
      target =
          Map.of(
              HopsConfig.METADATA_ENGINE,
              "embedded",
              HopsConfig.EMBEDDED_DIR,
              "mem:import-" + System.nanoTime());
    }
    Path to = confDir(target);
    ThreadConsole.Captured imported =
        ThreadConsole.capture(
            () -> HopsMainAccess.execute("import", "--conf", to.toString(), dump.toString()));
    assertThat(imported.exit()).as(imported.err()).isZero();
    assertThat(imported.out()).contains("imported ");
    // A second load into the same store is refused: it holds data now.
    ThreadConsole.Captured again =
        ThreadConsole.capture(
            () -> HopsMainAccess.execute("import", "--conf", to.toString(), dump.toString()));
    assertThat(again.exit()).isEqualTo(2);
    assertThat(again.err()).contains("holds data");

    Configuration targetConf = new Configuration(false);
    target.forEach(targetConf::set);
    try (HopsTestCluster b = new HopsTestCluster(targetConf).withDataRoot(dataRoot)) {
      b.startDatanodes(3);
      DistributedFileSystem fs = b.client();
      // Exported in safe mode, imported in safe mode: the operator leaves it.
      assertThat(fs.setSafeMode(SafeModeAction.SAFEMODE_GET)).isTrue();
      fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
      for (var e : written.entrySet()) {
        ByteArrayOutputStream got = new ByteArrayOutputStream();
        try (FSDataInputStream in = fs.open(p(e.getKey()))) {
          in.transferTo(got);
        }
        assertThat(got.toByteArray()).as(e.getKey()).isEqualTo(e.getValue());
      }
      assertThat(fs.getFileStatus(p("/data/deep")).getOwner()).isEqualTo("alice");
      assertThat(fs.getFileStatus(p("/data/deep")).getGroup()).isEqualTo("analysts");
      assertThat(fs.getFileStatus(p("/data/deep")).getPermission().toShort())
          .isEqualTo((short) 0750);
      assertThat(new String(fs.getXAttr(p("/data/f0"), "user.origin"), StandardCharsets.UTF_8))
          .isEqualTo("exported");
      assertThat(fs.getAclStatus(p("/data")).getEntries().toString()).contains("user:bob:r-x");
      assertThat(fs.getQuotaUsage(p("/data")).getQuota()).isEqualTo(100);
      // The imported cluster writes on, with ids that do not clash with the exported ones.
      try (FSDataOutputStream out = fs.create(p("/data/after"))) {
        out.write(bytes(5000));
      }
      assertThat(fs.listStatus(p("/data"))).hasSize(5); // f0, f2, f4, deep, after
      try (Storage storage = Storages.open(NamenodeConfig.dalConfig(targetConf))) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int exit =
            FsckNamespaceCommand.run(
                storage, 1000, false, id -> true, new java.io.PrintStream(out, true));
        assertThat(exit).as(out.toString()).isZero();
      }
    } finally {
      FileUtil.fullyDelete(dataRoot.toFile());
      FileUtil.fullyDelete(dump.getParent().toFile());
    }
    assertThat(written).hasSize(11);
  }
}
