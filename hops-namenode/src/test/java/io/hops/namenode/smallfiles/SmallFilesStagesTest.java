package io.hops.namenode.smallfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.audit.AuditLog;
import java.io.File;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The small-files protocol goes through the stages every {@code ClientProtocol} call goes through
 * (docs/architecture.md, "Small files in the database"): safe mode refuses its writes, the audit
 * log records its calls as the create, append and open they stand for, and reserved paths work.
 */
class SmallFilesStagesTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static SmallFilesProtocolTranslatorPB nn;
  private static File auditFile;
  private static final byte[] DATA = "in the database".getBytes(StandardCharsets.UTF_8);

  @BeforeAll
  static void start() throws Exception {
    File logDir = Files.createTempDirectory("hops-small-audit").toFile();
    auditFile = new File(logDir, "hdfs-audit.log");
    String savedDir = System.getProperty("hadoop.log.dir");
    System.setProperty("hadoop.log.dir", logDir.getPath());
    System.setProperty(AuditLog.LAUNCH_PROPERTY, "INFO,RFAAUDIT");
    try {
      cluster = new HopsTestCluster();
    } finally {
      System.clearProperty(AuditLog.LAUNCH_PROPERTY);
      if (savedDir == null) {
        System.clearProperty("hadoop.log.dir");
      } else {
        System.setProperty("hadoop.log.dir", savedDir);
      }
    }
    fs = cluster.client();
    fs.mkdirs(new Path("/db"));
    fs.setStoragePolicy(new Path("/db"), "DB");
    fs.mkdirs(new Path("/db/private"), new FsPermission((short) 0700));
    nn = new SmallFilesProtocolTranslatorPB(cluster.namenode().address(), cluster.clientConf());
  }

  @AfterAll
  static void stop() throws Exception {
    if (nn != null) {
      nn.close();
    }
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static boolean create(String path) throws Exception {
    return nn.createSmallFile(
        path, (short) 0644, "DFSClient_stages", false, true, (short) 1, 1 << 20, DATA);
  }

  private static List<String> auditLines(String cmd) throws Exception {
    cluster.namenode().auditLog().awaitWritten(5_000);
    return Files.readAllLines(auditFile.toPath()).stream()
        .filter(l -> l.contains("\tcmd=" + cmd + "\t"))
        .toList();
  }

  @Test
  void safeModeRefusesItsWrites() throws Exception {
    assertThat(create("/db/before")).isTrue();
    long id = fs.getClient().getFileInfo("/db/before").getFileId();
    fs.setSafeMode(SafeModeAction.SAFEMODE_ENTER);
    try {
      assertThatThrownBy(() -> create("/db/during"))
          .isInstanceOf(RemoteException.class)
          .satisfies(
              e ->
                  assertThat(((RemoteException) e).getClassName())
                      .isEqualTo("org.apache.hadoop.hdfs.server.namenode.SafeModeException"))
          .hasMessageContaining("Cannot create file/db/during. Name node is in safe mode.");
      assertThatThrownBy(() -> nn.appendSmallFile(id, DATA.length, "DFSClient_stages", DATA))
          .isInstanceOf(RemoteException.class)
          .hasMessageContaining("Name node is in safe mode.");
      assertThat(nn.readSmallFile("/db/before")).as("reads are served").isNotNull();
    } finally {
      fs.setSafeMode(SafeModeAction.SAFEMODE_LEAVE);
    }
    assertThat(fs.exists(new Path("/db/during"))).isFalse();
    assertThat(fs.getFileStatus(new Path("/db/before")).getLen()).isEqualTo(DATA.length);
  }

  @Test
  void theAuditLogRecordsItsCallsAsCreateAppendAndOpen() throws Exception {
    assertThat(create("/db/audited")).isTrue();
    long id = fs.getClient().getFileInfo("/db/audited").getFileId();
    assertThat(nn.appendSmallFile(id, DATA.length, "DFSClient_stages", DATA)).isTrue();
    ByteBuffer read = nn.readSmallFile("/db/audited");
    assertThat(read.remaining()).isEqualTo(2 * DATA.length);

    assertThat(auditLines("create")).anyMatch(l -> l.contains("\tsrc=/db/audited\t"));
    assertThat(auditLines("append"))
        .anyMatch(l -> l.contains("\tsrc=/.reserved/.inodes/" + id + "\t"));
    assertThat(auditLines("open")).anyMatch(l -> l.contains("\tsrc=/db/audited\t"));

    UserGroupInformation eve = UserGroupInformation.createUserForTesting("eve", new String[] {});
    SmallFilesProtocolTranslatorPB asEve =
        eve.doAs(
            (PrivilegedExceptionAction<SmallFilesProtocolTranslatorPB>)
                () ->
                    new SmallFilesProtocolTranslatorPB(
                        cluster.namenode().address(), cluster.clientConf()));
    try {
      assertThatThrownBy(
              () ->
                  asEve.createSmallFile(
                      "/db/private/x",
                      (short) 0644,
                      "DFSClient_eve",
                      false,
                      true,
                      (short) 1,
                      1 << 20,
                      DATA))
          .hasMessageContaining("Permission denied");
    } finally {
      asEve.close();
    }
    assertThat(auditLines("create"))
        .anyMatch(l -> l.contains("allowed=false\tugi=eve") && l.contains("src=/db/private/x"));
  }

  @Test
  void aReservedInodePathReadsTheFile() throws Exception {
    assertThat(create("/db/by-id")).isTrue();
    long id = fs.getClient().getFileInfo("/db/by-id").getFileId();
    ByteBuffer read = nn.readSmallFile("/.reserved/.inodes/" + id);
    assertThat(read).isNotNull();
    byte[] got = new byte[read.remaining()];
    read.get(got);
    assertThat(got).isEqualTo(DATA);
  }
}
