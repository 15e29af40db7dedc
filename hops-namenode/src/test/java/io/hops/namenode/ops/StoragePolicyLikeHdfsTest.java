package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.BlockStoragePolicySpi;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.tools.StoragePolicyAdmin;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Storage policies against hops and Apache HDFS (a MiniDFSCluster) in the same run: set, get,
 * unset, inheritance, the policy in file status and listings, errors, and {@code hdfs
 * storagepolicies} through {@link StoragePolicyAdmin}. hops lists one more policy, {@code DB}.
 */
class StoragePolicyLikeHdfsTest {
  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;
  private static Configuration hdfsConf;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster();
    hdfs = ApacheHdfs.start("policies");
    hdfsConf = ApacheHdfs.clientConf(hdfs, 1);
    hopsFs = hops.client();
    hdfsFs = (DistributedFileSystem) org.apache.hadoop.fs.FileSystem.get(hdfs.getURI(), hdfsConf);
  }

  @AfterAll
  static void stop() throws Exception {
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  /** What a sequence of calls observed, outcome by outcome. */
  private static List<String> script(DistributedFileSystem fs) throws Exception {
    List<String> out = new ArrayList<>();
    fs.mkdirs(new Path("/sp/a/b"));
    fs.create(new Path("/sp/a/b/f")).close();
    out.add("unset: " + name(fs, "/sp/a/b/f") + " " + status(fs, "/sp/a/b/f"));
    fs.setStoragePolicy(new Path("/sp/a"), "COLD");
    out.add("inherited: " + name(fs, "/sp/a/b/f") + " " + status(fs, "/sp/a/b/f"));
    out.add("dir: " + name(fs, "/sp/a") + " " + status(fs, "/sp/a"));
    out.add("listing: " + listing(fs, "/sp/a/b"));
    out.add("listing of a: " + listing(fs, "/sp/a"));
    out.add("listing of sp: " + listing(fs, "/sp"));
    fs.setStoragePolicy(new Path("/sp/a/b/f"), "all_ssd");
    out.add("own: " + name(fs, "/sp/a/b/f") + " " + status(fs, "/sp/a/b/f"));
    out.add("listing own: " + listing(fs, "/sp/a/b"));
    fs.unsetStoragePolicy(new Path("/sp/a/b/f"));
    out.add("unset file: " + name(fs, "/sp/a/b/f"));
    fs.unsetStoragePolicy(new Path("/sp/a"));
    out.add("unset dir: " + name(fs, "/sp/a/b/f") + " " + status(fs, "/sp/a/b/f"));
    out.add(
        "lazy on file: "
            + outcome(() -> fs.setStoragePolicy(new Path("/sp/a/b/f"), "LAZY_PERSIST")));
    out.add("unknown: " + outcome(() -> fs.setStoragePolicy(new Path("/sp/a"), "TEPID")));
    out.add("missing set: " + outcome(() -> fs.setStoragePolicy(new Path("/sp/nope"), "HOT")));
    out.add("missing get: " + outcome(() -> fs.getStoragePolicy(new Path("/sp/nope"))));
    out.add("missing unset: " + outcome(() -> fs.unsetStoragePolicy(new Path("/sp/nope"))));
    out.add("satisfy: " + outcome(() -> fs.satisfyStoragePolicy(new Path("/sp/a"))));
    fs.create(new Path("/sp/lazy"), true, 4096, (short) 1, 1 << 20).close();
    return out;
  }

  @FunctionalInterface
  private interface Call {
    void run() throws Exception;
  }

  private static String outcome(Call c) {
    try {
      c.run();
      return "ok";
    } catch (Exception e) {
      Exception u =
          e instanceof org.apache.hadoop.ipc.RemoteException r ? r.unwrapRemoteException() : e;
      return u.getClass().getName() + ": " + u.getMessage().split("\n")[0];
    }
  }

  private static String name(DistributedFileSystem fs, String p) throws Exception {
    BlockStoragePolicySpi policy = fs.getStoragePolicy(new Path(p));
    return policy == null ? "null" : policy.getName();
  }

  private static String status(DistributedFileSystem fs, String p) throws Exception {
    return Byte.toString(
        ((org.apache.hadoop.hdfs.protocol.HdfsFileStatus) fs.getClient().getFileInfo(p))
            .getStoragePolicy());
  }

  private static String listing(DistributedFileSystem fs, String p) throws Exception {
    StringBuilder b = new StringBuilder();
    for (var s :
        fs.getClient()
            .listPaths(p, org.apache.hadoop.hdfs.protocol.HdfsFileStatus.EMPTY_NAME)
            .getPartialListing()) {
      b.append(s.getLocalName()).append('=').append(s.getStoragePolicy()).append(' ');
    }
    return b.toString().trim();
  }

  @Test
  void setGetUnsetAndInheritanceLikeHdfs() throws Exception {
    List<String> expected = script(hdfsFs);
    assertThat(script(hopsFs)).containsExactlyElementsOf(expected);
    assertThat(expected).contains("inherited: COLD 2");
  }

  @Test
  void listsHdfsPoliciesPlusDb() throws Exception {
    List<String> hdfsNames = new ArrayList<>();
    for (BlockStoragePolicySpi p : hdfsFs.getAllStoragePolicies()) {
      hdfsNames.add(p.toString());
    }
    List<String> hopsNames = new ArrayList<>();
    for (BlockStoragePolicySpi p : hopsFs.getAllStoragePolicies()) {
      if (!p.getName().equals("DB")) {
        hopsNames.add(p.toString());
      }
    }
    assertThat(hopsNames).containsExactlyElementsOf(hdfsNames);
    assertThat(hopsFs.getAllStoragePolicies()).anyMatch(p -> p.getName().equals("DB"));
  }

  @Test
  void storagePolicyAdminLikeHdfs() throws Exception {
    String[][] commands = {
      {"-setStoragePolicy", "-path", "/cli", "-policy", "WARM"},
      {"-getStoragePolicy", "-path", "/cli"},
      {"-getStoragePolicy", "-path", "/cli/f"},
      {"-unsetStoragePolicy", "-path", "/cli"},
      {"-getStoragePolicy", "-path", "/cli"},
      {"-setStoragePolicy", "-path", "/cli", "-policy", "NOPE"},
      {"-getStoragePolicy", "-path", "/missing"},
    };
    hopsFs.mkdirs(new Path("/cli"));
    hopsFs.create(new Path("/cli/f")).close();
    hdfsFs.mkdirs(new Path("/cli"));
    hdfsFs.create(new Path("/cli/f")).close();
    for (String[] c : commands) {
      String hdfsOut = admin(hdfsConf, c);
      String hopsOut = admin(hops.clientConf(), c);
      assertThat(hopsOut).as(String.join(" ", c)).isEqualTo(hdfsOut);
    }
    String list = admin(hops.clientConf(), new String[] {"-listPolicies"});
    String hdfsList = admin(hdfsConf, new String[] {"-listPolicies"});
    assertThat(list).contains("DB").contains("HOT").contains("PROVIDED");
    assertThat(
            list.replace(
                " BlockStoragePolicy{DB:9, storageTypes=[DISK], creationFallbacks=[],"
                    + " replicationFallbacks=[ARCHIVE]}",
                ""))
        .isEqualTo(hdfsList);
    // hops's policy switch, as an HDFS user sets it.
    assertThat(
            admin(
                hops.clientConf(),
                new String[] {"-setStoragePolicy", "-path", "/cli", "-policy", "DB"}))
        .startsWith("0 Set storage policy DB on /cli");
    assertThat(admin(hops.clientConf(), new String[] {"-getStoragePolicy", "-path", "/cli/f"}))
        .contains("DB");
  }

  /** Exit code and output of {@code hdfs storagepolicies ARGS}. */
  private static String admin(Configuration conf, String[] args) throws Exception {
    ThreadConsole.Captured c =
        ThreadConsole.captureMerged(
            () -> ToolRunner.run(new StoragePolicyAdmin(new Configuration(conf)), args));
    // The client logs to the same streams: leave out its log lines and stack traces.
    StringBuilder b = new StringBuilder().append(c.exit());
    for (String line : c.out().split("\n")) {
      if (!line.isBlank()
          && !line.matches("^\\d\\d:\\d\\d.*")
          && !line.matches("^\\s+(at |\\.\\.\\.).*")
          && !line.matches("^[a-z]+\\.[a-z.]+\\.[A-Za-z]+(Exception|Error).*")
          && !line.startsWith("Caused by")) {
        b.append(' ').append(line.trim());
      }
    }
    return b.toString();
  }
}
