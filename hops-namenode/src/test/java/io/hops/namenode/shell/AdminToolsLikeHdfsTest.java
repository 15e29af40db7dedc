package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import java.io.File;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The operator and user tools of issue 13, each run as a separate process as {@code bin/hdfs} runs
 * it, against hops and against Apache HDFS (a MiniDFSCluster without datanodes), in order: the same
 * exit code, stdout and stderr once the addresses, times, client names and trash checkpoint names
 * are masked. Both namespaces start the same (a directory with two empty files, and a file held
 * open by a client of this JVM).
 */
class AdminToolsLikeHdfsTest {
  private static final String DB_POLICY =
      "BlockStoragePolicy{DB:9, storageTypes=[DISK], creationFallbacks=[],"
          + " replicationFallbacks=[ARCHIVE]}";

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static DistributedFileSystem hopsFs;
  private static DistributedFileSystem hdfsFs;
  private static final List<FSDataOutputStream> open = new ArrayList<>();
  private static ToolProcess tools;
  private static String home;

  /** One side: its RPC and HTTP addresses. */
  private record Side(String tag, String uri, InetSocketAddress http) {}

  @BeforeAll
  static void start() throws Exception {
    File dir = new File("target/admin-tools-like-hdfs");
    dir.mkdirs();
    tools = new ToolProcess(dir);
    hops = new HopsTestCluster();
    Configuration conf = new HdfsConfiguration();
    conf.set(
        MiniDFSCluster.HDFS_MINIDFS_BASEDIR,
        new File(dir, "hdfs-" + System.nanoTime()).getAbsolutePath());
    hdfs = new MiniDFSCluster.Builder(conf).numDataNodes(0).build();
    hdfs.waitClusterUp();
    Configuration client = new Configuration();
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    hopsFs = (DistributedFileSystem) FileSystem.get(hops.uri(), client);
    hdfsFs = (DistributedFileSystem) FileSystem.get(hdfs.getURI(), client);
    home = "/user/" + UserGroupInformation.getCurrentUser().getShortUserName();
    for (DistributedFileSystem fs : List.of(hopsFs, hdfsFs)) {
      fs.mkdirs(new Path("/t/d"));
      fs.mkdirs(new Path(home));
      fs.create(new Path("/t/d/f")).close();
      fs.create(new Path("/t/d/g")).close();
      open.add(fs.create(new Path("/t/open")));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (FSDataOutputStream out : open) {
      out.close();
    }
    for (DistributedFileSystem fs : new DistributedFileSystem[] {hopsFs, hdfsFs}) {
      if (fs != null) {
        fs.close();
      }
    }
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  @ParameterizedTest(name = "{0}")
  @ValueSource(
      strings = {
        "fs -rm /t/d/f",
        "fs -ls -R HOME/.Trash",
        "fs -expunge",
        "fs -ls -R HOME/.Trash",
        "fs -count -u /t",
        "fs -count -q -u -v /t",
        "fs -setfattr -n user.k -v v1 /t/d",
        "fs -getfattr -d /t/d",
        "fs -setfacl -m user:bob:r-x /t/d",
        "fs -getfacl /t/d",
        "fs -ls /t",
        "fs -setfacl -b /t/d",
        "fs -getfacl /t/d",
        "storagepolicies -setStoragePolicy -path /t/d -policy COLD",
        "storagepolicies -getStoragePolicy -path /t/d",
        "storagepolicies -getStoragePolicy -path /t/d/g",
        "storagepolicies -listPolicies",
        "ec -listPolicies",
        "ec -getPolicy -path /t/d",
        "dfsadmin -listOpenFiles",
        "dfsadmin -listOpenFiles -path /t",
        "fsck / -list-corruptfileblocks",
        "lsSnapshottableDir",
      })
  void sameAsHdfs(String command) throws Exception {
    String[] words = command.replace("HOME", home).split(" ");
    Side h = new Side("hops", hops.uri().toString(), hops.namenode().httpAddress());
    Side a = new Side("hdfs", hdfs.getURI().toString(), hdfs.getNameNode().getHttpAddress());
    CompletableFuture<ToolProcess.Result> onHdfs =
        CompletableFuture.supplyAsync(() -> runUnchecked(a, words));
    ToolProcess.Result hopsRun = normalize(run(h, words), h);
    ToolProcess.Result hdfsRun =
        normalize(onHdfs.get(ToolProcess.TIMEOUT_SECONDS + 10, TimeUnit.SECONDS), a);
    String hopsOut = hopsRun.out();
    String hdfsOut = hdfsRun.out();
    if (command.equals("storagepolicies -listPolicies")) {
      // hops lists one more policy: DB, the small-files switch.
      assertThat(hopsOut).contains(DB_POLICY);
      hopsOut =
          hopsOut
              .lines()
              .filter(l -> !l.contains(DB_POLICY))
              .map(l -> l + "\n")
              .collect(Collectors.joining());
    }
    if (command.equals("ec -listPolicies")) {
      // hops has no erasure coding: as the issue asks, every policy is listed as disabled, where
      // HDFS enables its default one (RS-6-3-1024k).
      assertThat(hdfsOut).contains("Id=1], State=ENABLED");
      hdfsOut = hdfsOut.replace("Id=1], State=ENABLED", "Id=1], State=DISABLED");
    }
    System.out.printf("$ %s%n%s%s[exit %d]%n", command, hopsOut, hopsRun.err(), hopsRun.exit());
    assertThat(hopsOut).as(command + ": stdout (hops vs hdfs)").isEqualTo(hdfsOut);
    assertThat(hopsRun.err()).as(command + ": stderr (hops vs hdfs)").isEqualTo(hdfsRun.err());
    assertThat(hopsRun.exit()).as(command + ": exit code (hops vs hdfs)").isEqualTo(hdfsRun.exit());
  }

  private static ToolProcess.Result runUnchecked(Side side, String[] words) {
    try {
      return run(side, words);
    } catch (Exception e) {
      throw new IllegalStateException(e);
    }
  }

  /** {@code hdfs TOOL ARGS} against one side: the stock tool's main class in its own JVM. */
  private static ToolProcess.Result run(Side side, String[] words) throws Exception {
    String main =
        switch (words[0]) {
          case "fs" -> "org.apache.hadoop.fs.FsShell";
          case "storagepolicies" -> "org.apache.hadoop.hdfs.tools.StoragePolicyAdmin";
          case "ec" -> "org.apache.hadoop.hdfs.tools.ECAdmin";
          case "dfsadmin" -> "org.apache.hadoop.hdfs.tools.DFSAdmin";
          case "fsck" -> "org.apache.hadoop.hdfs.tools.DFSck";
          case "lsSnapshottableDir" -> "org.apache.hadoop.hdfs.tools.snapshot.LsSnapshottableDir";
          default -> throw new IllegalArgumentException(words[0]);
        };
    List<String> defs =
        List.of(
            "fs.defaultFS=" + side.uri(),
            "ipc.client.connect.max.retries=2",
            "fs.trash.interval=1",
            DFSConfigKeys.DFS_NAMENODE_HTTP_ADDRESS_KEY + "=127.0.0.1:" + side.http().getPort());
    String[] args = new String[words.length - 1];
    System.arraycopy(words, 1, args, 0, args.length);
    return tools.run(main, defs, side.tag(), args);
  }

  /** Masks what legitimately differs between the two systems. */
  private static ToolProcess.Result normalize(ToolProcess.Result r, Side side) {
    return new ToolProcess.Result(r.exit(), mask(r.out(), side), mask(r.err(), side));
  }

  private static String mask(String text, Side side) {
    String authority = side.uri().substring("hdfs://".length());
    return text.replace(side.uri(), "hdfs://NAMENODE")
        .replace(authority, "NAMENODE")
        .replace("127.0.0.1:" + side.http().getPort(), "HTTP")
        .replace(side.http().getHostString() + ":" + side.http().getPort(), "HTTP")
        .replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}", "TIME")
        .replaceAll("DFSClient_\\S+", "CLIENT")
        // trash checkpoints are named by the time they were made
        .replaceAll("\\.Trash/\\d{12}", ".Trash/CHECKPOINT")
        // listOpenFiles pads its columns to the client name's length
        .replaceAll("[ \\t]+", " ");
  }
}
