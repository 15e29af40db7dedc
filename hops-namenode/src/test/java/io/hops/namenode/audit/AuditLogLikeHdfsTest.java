package io.hops.namenode.audit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Options;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.XAttrSetFlag;
import org.apache.hadoop.fs.permission.AclEntry;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The same calls, allowed and denied, against hops and against Apache HDFS (a MiniDFSCluster in the
 * same JVM, which logs its audit lines on the same SLF4J logger): the audit lines of the calling
 * user must be the same, field by field, with only the client's address normalised.
 */
class AuditLogLikeHdfsTest {
  private static final String USER = "auditor";
  private static final String MARK = "allowed=";

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsAdmin;
  private static DistributedFileSystem hdfsAdmin;
  private static DistributedFileSystem hopsUser;
  private static DistributedFileSystem hdfsUser;
  private static PrintStream originalErr;
  private static final ByteArrayOutputStream CAPTURED = new ByteArrayOutputStream();

  private static java.io.File auditFile;
  private static int savedLevel;

  @BeforeAll
  static void start() throws Exception {
    // HDFS's launch setting, read when the namenode starts: lines to
    // ${hadoop.log.dir}/hdfs-audit.log.
    java.io.File logDir = java.nio.file.Files.createTempDirectory("hops-audit").toFile();
    auditFile = new java.io.File(logDir, "hdfs-audit.log");
    String savedDir = System.getProperty("hadoop.log.dir");
    System.setProperty("hadoop.log.dir", logDir.getPath());
    System.setProperty(AuditLog.LAUNCH_PROPERTY, "INFO,RFAAUDIT");
    try {
      hops = new HopsTestCluster();
    } finally {
      System.clearProperty(AuditLog.LAUNCH_PROPERTY);
      if (savedDir == null) {
        System.clearProperty("hadoop.log.dir");
      } else {
        System.setProperty("hadoop.log.dir", savedDir);
      }
    }
    // HDFS writes its lines only while its logger is at INFO (the build keeps org.apache.hadoop at
    // WARN); slf4j-simple has no API to change a level, so the test sets the field.
    savedLevel = auditLevel(org.slf4j.spi.LocationAwareLogger.INFO_INT);
    hdfs = ApacheHdfs.start("audit");
    UserGroupInformation auditor =
        UserGroupInformation.createUserForTesting(USER, new String[] {"staff"});
    Configuration hdfsClient = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    hopsAdmin = hops.client();
    hdfsAdmin = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), hdfsClient);
    hopsUser = as(auditor, () -> FileSystem.get(hops.uri(), hops.clientConf()));
    hdfsUser = as(auditor, () -> FileSystem.get(hdfs.getURI(), hdfsClient));
    originalErr = System.err;
    OutputStream tee =
        new OutputStream() {
          @Override
          public void write(int b) {
            synchronized (CAPTURED) {
              CAPTURED.write(b);
            }
            originalErr.write(b);
          }

          @Override
          public void write(byte[] b, int off, int len) {
            synchronized (CAPTURED) {
              CAPTURED.write(b, off, len);
            }
            originalErr.write(b, off, len);
          }
        };
    System.setErr(new PrintStream(tee, true, StandardCharsets.UTF_8));
  }

  private static DistributedFileSystem as(
      UserGroupInformation ugi, PrivilegedExceptionAction<FileSystem> get) throws Exception {
    return (DistributedFileSystem) ugi.doAs(get);
  }

  private static int auditLevel(int level) throws Exception {
    org.slf4j.Logger audit = org.slf4j.LoggerFactory.getLogger(AuditLog.LOGGER_NAME);
    java.lang.reflect.Field f =
        org.slf4j.simple.SimpleLogger.class.getDeclaredField("currentLogLevel");
    f.setAccessible(true);
    int old = f.getInt(audit);
    f.setInt(audit, level);
    return old;
  }

  @AfterAll
  static void stop() throws Exception {
    auditLevel(savedLevel);
    if (originalErr != null) {
      System.setErr(originalErr);
    }
    for (FileSystem fs : new FileSystem[] {hopsUser, hdfsUser, hopsAdmin, hdfsAdmin}) {
      if (fs != null) {
        fs.close();
      }
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (hops != null) {
      hops.close();
    }
  }

  /** The admin's preparation: a directory the user owns and one the user may not write. */
  private static void setUp(DistributedFileSystem admin) throws Exception {
    admin.mkdirs(new Path("/audit/locked"));
    admin.setOwner(new Path("/audit"), USER, "staff");
    admin.setOwner(new Path("/audit/locked"), "root", "supergroup");
  }

  /** What the user does: allowed calls of most kinds, and denied ones. */
  private static void run(DistributedFileSystem fs) throws Exception {
    Path d = new Path("/audit/d");
    Path f = new Path("/audit/d/f");
    Path g = new Path("/audit/d/g");
    fs.mkdirs(d);
    fs.createNewFile(f);
    fs.setPermission(f, new FsPermission((short) 0640));
    fs.setTimes(f, 1000L, 2000L);
    long id = ((org.apache.hadoop.hdfs.protocol.HdfsFileStatus) fs.getFileStatus(f)).getFileId();
    fs.setPermission(new Path("/.reserved/.inodes/" + id), new FsPermission((short) 0644));
    fs.setReplication(f, (short) 2);
    fs.open(f).close();
    fs.getFileStatus(f);
    fs.listStatus(d);
    fs.getContentSummary(d);
    fs.setXAttr(f, "user.tag", new byte[] {1}, java.util.EnumSet.of(XAttrSetFlag.CREATE));
    fs.getXAttrs(f);
    fs.listXAttrs(f);
    fs.removeXAttr(f, "user.tag");
    fs.modifyAclEntries(f, AclEntry.parseAclSpec("user:bob:r--", true));
    fs.getAclStatus(f);
    fs.removeAcl(f);
    fs.access(f, FsAction.READ);
    fs.rename(f, g);
    fs.rename(g, f, Options.Rename.NONE);
    fs.rename(new Path("/audit/d/missing"), g); // false: no line
    fs.exists(new Path("/audit/missing")); // getfileinfo of nothing: allowed=true
    fs.delete(new Path("/audit/missing"), false); // false: allowed=false
    assertThatThrownBy(() -> fs.mkdirs(new Path("/audit/locked/x")))
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.rename(f, new Path("/audit/locked/f")))
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.setPermission(new Path("/audit/locked"), FsPermission.getDefault()))
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.setQuota(d, 10, HdfsConstants.QUOTA_DONT_SET))
        .isInstanceOf(AccessControlException.class);
    assertThatThrownBy(() -> fs.setPermission(new Path("/audit/none"), FsPermission.getDefault()))
        .isInstanceOf(java.io.FileNotFoundException.class); // no line
    fs.delete(d, true);
  }

  /** The user's calls through WebHDFS at {@code http} ({@code host:port}): raw REST requests. */
  private static void web(String http) throws Exception {
    String[][] calls = {
      {"PUT", "/audit/w?op=MKDIRS"},
      {"GET", "/audit/w?op=GETFILESTATUS"},
      {"GET", "/audit/w?op=LISTSTATUS"},
      {"PUT", "/audit/w?op=SETPERMISSION&permission=700"},
      {"PUT", "/audit/locked/x?op=MKDIRS"},
      {"GET", "/audit/missing?op=GETFILESTATUS"},
      {"DELETE", "/audit/w?op=DELETE&recursive=true"},
    };
    for (String[] c : calls) {
      java.net.HttpURLConnection h =
          (java.net.HttpURLConnection)
              new java.net.URL("http://" + http + "/webhdfs/v1" + c[1] + "&user.name=" + USER)
                  .openConnection();
      h.setRequestMethod(c[0]);
      h.getResponseCode();
      h.disconnect();
    }
  }

  private static String http(java.net.InetSocketAddress a) {
    return a.getHostString() + ":" + a.getPort();
  }

  private static List<String> auditLinesSince(int from) {
    String out;
    synchronized (CAPTURED) {
      out = CAPTURED.toString(StandardCharsets.UTF_8);
    }
    List<String> lines = new ArrayList<>();
    for (String line : out.substring(from).split("\n")) {
      int at = line.indexOf(MARK);
      if (at >= 0 && line.contains("ugi=" + USER + " ")) {
        lines.add(normalised(line.substring(at)));
      }
    }
    return lines;
  }

  private static String normalised(String line) {
    return line.replaceAll("ip=/[0-9.:a-f]+", "ip=/IP")
        .replaceAll("/\\.reserved/\\.inodes/\\d+", "/.reserved/.inodes/ID")
        .stripTrailing();
  }

  private static int capturedLength() {
    synchronized (CAPTURED) {
      return CAPTURED.toString(StandardCharsets.UTF_8).length();
    }
  }

  @Test
  void auditLinesAreHdfsLines() throws Exception {
    setUp(hdfsAdmin);
    int hdfsFrom = capturedLength();
    run(hdfsUser);
    web(http(hdfs.getNameNode().getHttpAddress()));
    List<String> hdfsLines = auditLinesSince(hdfsFrom);

    setUp(hopsAdmin);
    run(hopsUser);
    web(http(hops.namenode().httpAddress()));
    assertThat(hops.namenode().auditLog().awaitWritten(10_000)).isTrue();
    hops.namenode().auditLog().close(); // flushes the file
    List<String> hopsLines = new ArrayList<>();
    for (String line : java.nio.file.Files.readAllLines(auditFile.toPath())) {
      assertThat(line)
          .matches(
              "\\d{4}-\\d\\d-\\d\\d \\d\\d:\\d\\d:\\d\\d,\\d{3} INFO FSNamesystem.audit: allowed=.*");
      if (line.contains("ugi=" + USER + " ")) {
        hopsLines.add(normalised(line.substring(line.indexOf(MARK))));
      }
    }

    assertThat(hdfsLines).as("HDFS's own audit lines were captured").hasSizeGreaterThan(25);
    assertThat(hdfsLines).anyMatch(l -> l.startsWith("allowed=false\tugi=auditor (auth:SIMPLE)"));
    assertThat(hdfsLines).anyMatch(l -> l.contains("cmd=mkdirs") && l.endsWith("proto=webhdfs"));
    assertThat(String.join("\n", hopsLines)).isEqualTo(String.join("\n", hdfsLines));
  }
}
