package io.hops.namenode.housekeeping;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.ThreadConsole;
import io.hops.namenode.config.NamenodeConfig;
import java.security.PrivilegedExceptionAction;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.Test;

/**
 * The leader empties the trash as HDFS's namenode does when {@code fs.trash.interval} is set in its
 * configuration: {@code hadoop fs -rm} moves a file to {@code .Trash/Current}, the emptier turns
 * Current into a checkpoint on the next checkpoint boundary, and removes the checkpoint once the
 * deletion interval (one minute here) has passed.
 */
class TrashEmptierTest {

  private static List<String> names(FileSystem fs, Path dir) throws Exception {
    List<String> out = new ArrayList<>();
    if (fs.exists(dir)) {
      for (FileStatus st : fs.listStatus(dir)) {
        out.add(st.getPath().getName());
      }
    }
    return out;
  }

  /**
   * {@code -rm} then {@code -expunge} with the trash on, as FsShell prints them, and what is left.
   */
  private static String rmThenExpunge(java.net.URI uri, Configuration conf) throws Exception {
    Configuration client = new Configuration(conf);
    client.set("fs.defaultFS", uri.toString());
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    String home = "/user/" + UserGroupInformation.getCurrentUser().getShortUserName();
    StringBuilder out = new StringBuilder();
    try (FileSystem fs = FileSystem.newInstance(uri, client)) {
      fs.mkdirs(new Path(home));
      fs.create(new Path(home + "/f")).close();
      ThreadConsole.Captured c =
          ThreadConsole.capture(
              () -> {
                out.append(ToolRunner.run(new FsShell(client), new String[] {"-rm", home + "/f"}));
                out.append(names(fs, new Path(home + "/.Trash")));
                out.append(ToolRunner.run(new FsShell(client), new String[] {"-expunge"}));
                out.append(names(fs, new Path(home + "/.Trash")).size());
                return 0;
              });
      out.append(c.out().replace(uri.getAuthority(), "NN").replaceAll("\\d{12}", "CKPT"));
    }
    return out.toString();
  }

  @Test
  void rmAndExpungeWithTheTrashOnAreAsOnHdfs() throws Exception {
    Configuration c = new Configuration(false);
    c.set("fs.trash.interval", "1");
    org.apache.hadoop.hdfs.MiniDFSCluster hdfs = io.hops.namenode.ApacheHdfs.start("trash", c);
    String expected;
    try {
      expected =
          rmThenExpunge(
              hdfs.getURI(),
              io.hops.namenode.ApacheHdfs.clientConf(
                  hdfs, org.apache.hadoop.hdfs.DFSConfigKeys.DFS_REPLICATION_DEFAULT));
    } finally {
      hdfs.shutdown();
    }
    assertThat(expected).startsWith("0[Current]0");
    try (HopsTestCluster hops = new HopsTestCluster(c)) {
      assertThat(rmThenExpunge(hops.uri(), hops.clientConf())).isEqualTo(expected);
    }
  }

  @Test
  void rmGoesToTheTrashAndTheLeaderCheckpointsAndDeletesIt() throws Exception {
    Configuration c = new Configuration(false);
    // Whole minutes: the namenode reports it to clients as a long, as HDFS's does.
    c.set("fs.trash.interval", "1");
    c.set("fs.trash.checkpoint.interval", "0.03"); // 1.8 s
    c.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 200);
    try (HopsTestCluster hops = new HopsTestCluster(c);
        DistributedFileSystem admin = hops.client()) {
      admin.mkdirs(new Path("/user/alice"));
      admin.setOwner(new Path("/user/alice"), "alice", "staff");
      UserGroupInformation alice =
          UserGroupInformation.createUserForTesting("alice", new String[] {"staff"});
      Configuration client = new Configuration(hops.clientConf());
      alice.doAs(
          (PrivilegedExceptionAction<Void>)
              () -> {
                try (FileSystem fs = FileSystem.newInstance(hops.uri(), client)) {
                  fs.create(new Path("/user/alice/f")).close();
                }
                client.set("fs.defaultFS", hops.uri().toString());
                assertThat(
                        ToolRunner.run(new FsShell(client), new String[] {"-rm", "/user/alice/f"}))
                    .isZero();
                return null;
              });
      Path trash = new Path("/user/alice/.Trash");
      assertThat(admin.exists(new Path(trash, "Current/user/alice/f"))).isTrue();
      assertThat(admin.exists(new Path("/user/alice/f"))).isFalse();

      // The next checkpoint boundary turns Current into a checkpoint holding the file.
      long deadline = System.currentTimeMillis() + 15_000;
      List<String> inTrash = names(admin, trash);
      while (inTrash.contains("Current") && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
        inTrash = names(admin, trash);
      }
      assertThat(inTrash).hasSize(1).doesNotContain("Current");
      String checkpoint = inTrash.get(0);
      assertThat(checkpoint).matches("\\d{12}");
      assertThat(admin.exists(new Path(trash, checkpoint + "/user/alice/f"))).isTrue();

      // Past the deletion interval, the checkpoint goes. Rather than wait a minute, the cluster
      // clock the leader ages checkpoints by jumps past it.
      hops.namenode()
          .namesystem()
          .blocks()
          .clock()
          .skewForTesting(java.time.Duration.ofSeconds(61));
      deadline = System.currentTimeMillis() + 15_000;
      while (admin.exists(new Path(trash, checkpoint)) && System.currentTimeMillis() < deadline) {
        Thread.sleep(200);
      }
      assertThat(admin.exists(new Path(trash, checkpoint))).isFalse();
    }
  }

  /**
   * The leader's wall clock runs 30 s behind the database's (the cluster clock), which the next
   * leader measures with: a checkpoint is named by the cluster clock, and one that another leader
   * made 70 s ago by that clock goes (the deletion interval is a minute), where the leader's own
   * clock would call it 40 s old and keep it.
   */
  @Test
  void checkpointsAreNamedAndAgedByTheClusterClock() throws Exception {
    Configuration c = new Configuration(false);
    c.set("fs.trash.interval", "1");
    c.set("fs.trash.checkpoint.interval", "0.03"); // 1.8 s
    c.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 200);
    try (HopsTestCluster hops = new HopsTestCluster(c);
        DistributedFileSystem admin = hops.client()) {
      io.hops.election.ClusterClock clock = hops.namenode().namesystem().blocks().clock();
      clock.skewForTesting(java.time.Duration.ofSeconds(30));
      String home = "/user/" + UserGroupInformation.getCurrentUser().getShortUserName();
      Path trash = new Path(home + "/.Trash");
      java.text.SimpleDateFormat checkpointName = new java.text.SimpleDateFormat("yyMMddHHmmss");
      String earlier = checkpointName.format(new java.util.Date(clock.now() - 70_000));
      admin.mkdirs(new Path(trash, earlier));
      admin.create(new Path(trash, "Current/f")).close();

      long deadline = System.currentTimeMillis() + 15_000;
      while (admin.exists(new Path(trash, "Current")) && System.currentTimeMillis() < deadline) {
        Thread.sleep(100);
      }
      List<String> inTrash = names(admin, trash);
      assertThat(inTrash).doesNotContain("Current", earlier).hasSize(1);
      long madeAt = checkpointName.parse(inTrash.get(0)).getTime();
      assertThat(madeAt).isBetween(clock.now() - 10_000, clock.now() + 1_000);
    }
  }
}
