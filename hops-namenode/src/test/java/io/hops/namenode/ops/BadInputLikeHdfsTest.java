package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsTestCluster;
import java.security.PrivilegedExceptionAction;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Bad input where hops differed from HDFS, against both in the same run: the reserved name, block
 * sizes beyond HDFS's 48 bits, user, group and client names of any length (wider than a key column
 * too), directory access times, quotas of the root, empty paths and abandoned blocks. The outcome
 * (result, or exception class and first message line) must be the same, and no DAL class may reach
 * the client.
 */
class BadInputLikeHdfsTest {
  private static final String LONG = "u".repeat(300);
  private static final String LONG_UTF8 = "é".repeat(400); // 800 bytes

  /** As long as hops stores a name: {@link io.hops.dal.schema.MaxBytes#NAME} bytes. */
  private static final String WIDEST = "w".repeat(io.hops.dal.schema.MaxBytes.NAME);

  private static final String WIDEST_UTF8 = "é".repeat(io.hops.dal.schema.MaxBytes.NAME / 2);

  /** Wider than any key column: stored under a digest, its text in {@code long_names}. */
  private static final String HUGE = "h".repeat(20_000);

  private static final String HUGE_UTF8 = "é".repeat(6_000) + "x"; // 12,001 bytes

  private record Side(DistributedFileSystem admin, Configuration conf, String pool) {
    ClientProtocol nn() {
      return admin.getClient().getNamenode();
    }
  }

  @FunctionalInterface
  private interface Call {
    Object run(Side s) throws Exception;
  }

  private static HopsTestCluster hops;
  private static MiniDFSCluster hdfs;
  private static Side hopsSide;
  private static Side hdfsSide;

  @BeforeAll
  static void start() throws Exception {
    hops = new HopsTestCluster();
    hdfs = ApacheHdfs.start("bad-input");
    hopsSide =
        new Side(
            hops.client(), hops.clientConf(), hops.namenode().namesystem().blocks().blockPoolId());
    Configuration hdfsConf = ApacheHdfs.clientConf(hdfs, DFSConfigKeys.DFS_REPLICATION_DEFAULT);
    hdfsSide =
        new Side(
            (DistributedFileSystem) FileSystem.get(hdfs.getURI(), hdfsConf),
            hdfsConf,
            hdfs.getNamesystem().getBlockPoolId());
    for (Side s : List.of(hopsSide, hdfsSide)) {
      s.admin.mkdirs(new Path("/b"));
      s.admin.setPermission(new Path("/b"), new FsPermission((short) 0777));
    }
  }

  @AfterAll
  static void stop() throws Exception {
    for (Side s : new Side[] {hopsSide, hdfsSide}) {
      if (s != null) {
        s.admin.close();
      }
    }
    if (hops != null) {
      hops.close();
    }
    if (hdfs != null) {
      hdfs.shutdown();
    }
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  private static String owner(Side s, String path) throws Exception {
    FileStatus st = s.admin.getFileStatus(p(path));
    return st.getOwner() + ":" + st.getGroup();
  }

  /** A directory made by {@code user}, through a client of its own. */
  private static String mkdirsAs(Side s, String user, String path) throws Exception {
    UserGroupInformation ugi = UserGroupInformation.createUserForTesting(user, new String[] {user});
    try (FileSystem fs =
        ugi.doAs(
            (PrivilegedExceptionAction<FileSystem>)
                () -> FileSystem.newInstance(s.admin.getUri(), s.conf))) {
      fs.mkdirs(p(path));
    }
    return owner(s, path);
  }

  private static String create(Side s, String path, String client, long blockSize)
      throws Exception {
    s.nn()
        .create(
            path,
            FsPermission.getFileDefault(),
            client,
            new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
            false,
            (short) 1,
            blockSize,
            org.apache.hadoop.crypto.CryptoProtocolVersion.supported(),
            null,
            null);
    FileStatus st = s.admin.getFileStatus(p(path));
    return st.getLen() + " " + st.getBlockSize() + " " + s.admin.isFileClosed(p(path));
  }

  static Stream<Arguments> calls() {
    return Stream.of(
        call("mkdirs /.reserved", s -> s.admin.mkdirs(p("/.reserved"))),
        call("mkdirs below /.reserved", s -> s.admin.mkdirs(p("/.reserved/x"))),
        call("mkdirs /.reserved/.inodes", s -> s.admin.mkdirs(p("/.reserved/.inodes"))),
        call("create /.reserved", s -> s.admin.create(p("/.reserved")).getPos()),
        call("rename onto /.reserved", s -> s.admin.rename(p("/b"), p("/.reserved"))),
        call("block size at 2^48 - 1", s -> create(s, "/b/max", "c1", (1L << 48) - 1)),
        call("block size at 2^48", s -> create(s, "/b/over", "c1", 1L << 48)),
        call("block size far over", s -> create(s, "/b/far", "c1", Long.MAX_VALUE)),
        call("after a refused block size", s -> s.admin.exists(p("/b/over"))),
        call("a client name of 300 bytes", s -> create(s, "/b/long-client", LONG, 1 << 20)),
        call("a client name of 800 bytes", s -> create(s, "/b/utf8-client", LONG_UTF8, 1 << 20)),
        call("a user of 300 bytes", s -> mkdirsAs(s, LONG, "/b/long-user")),
        call(
            "chown to a user and group of 300 bytes",
            s -> {
              s.admin.mkdirs(p("/b/chown"));
              s.admin.setOwner(p("/b/chown"), LONG, LONG + "g");
              return owner(s, "/b/chown");
            }),
        call("a client name of 3064 bytes", s -> create(s, "/b/widest-client", WIDEST, 1 << 20)),
        call(
            "a client name of 3064 bytes of UTF-8",
            s -> create(s, "/b/widest-utf8-client", WIDEST_UTF8, 1 << 20)),
        call("a user of 3064 bytes", s -> mkdirsAs(s, WIDEST, "/b/widest-user")),
        call(
            "chown to names of 3064 bytes",
            s -> {
              s.admin.mkdirs(p("/b/chown-widest"));
              s.admin.setOwner(p("/b/chown-widest"), WIDEST_UTF8, WIDEST);
              return owner(s, "/b/chown-widest");
            }),
        call(
            "a writer of 3064 bytes, its lease and its open file listed",
            s -> {
              create(s, "/b/widest-open", WIDEST, 1 << 20);
              return s.nn()
                  .listOpenFiles(
                      0,
                      EnumSet.of(
                          org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType
                              .ALL_OPEN_FILES),
                      "/b/widest-open")
                  .get(0)
                  .getClientName()
                  .equals(WIDEST);
            }),
        call("a client name of 20,000 bytes", s -> create(s, "/b/huge-client", HUGE, 1 << 20)),
        call("a user of 20,000 bytes", s -> mkdirsAs(s, HUGE, "/b/huge-user")),
        call(
            "chown to names of 20,000 and 12,001 bytes",
            s -> {
              s.admin.mkdirs(p("/b/chown-huge"));
              s.admin.setOwner(p("/b/chown-huge"), HUGE_UTF8, HUGE);
              return owner(s, "/b/chown-huge") + " " + owner(s, "/b/huge-user");
            }),
        call(
            "a writer of 12,001 bytes: its open file listed, its lease renewed, its file closed",
            s -> {
              create(s, "/b/huge-open", HUGE_UTF8, 1 << 20);
              String listed =
                  s.nn()
                      .listOpenFiles(
                          0,
                          EnumSet.of(
                              org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType
                                  .ALL_OPEN_FILES),
                          "/b/huge-open")
                      .get(0)
                      .getClientName();
              s.nn().renewLease(HUGE_UTF8, null);
              long id = s.admin.getClient().getFileInfo("/b/huge-open").getFileId();
              boolean someoneElse;
              try {
                s.nn().complete("/b/huge-open", HUGE_UTF8 + "y", null, id);
                someoneElse = true;
              } catch (org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException e) {
                someoneElse = false;
              }
              return listed.equals(HUGE_UTF8)
                  + " "
                  + someoneElse
                  + " "
                  + s.nn().complete("/b/huge-open", HUGE_UTF8, null, id)
                  + " "
                  + s.admin.isFileClosed(p("/b/huge-open"));
            }),
        call(
            "chown to names of 800 bytes",
            s -> {
              s.admin.mkdirs(p("/b/chown8"));
              s.admin.setOwner(p("/b/chown8"), LONG_UTF8, LONG_UTF8);
              return owner(s, "/b/chown8");
            }),
        call(
            "a directory's access time",
            s -> s.admin.getFileStatus(mkdirs(s, "/b/at")).getAccessTime()),
        call(
            "a directory's access time in a listing",
            s -> {
              mkdirs(s, "/b/atl/d");
              return s.admin.listStatus(p("/b/atl"))[0].getAccessTime();
            }),
        call(
            "a directory's access time after setTimes",
            s -> {
              s.admin.setTimes(mkdirs(s, "/b/ats"), -1, 12345L);
              return s.admin.getFileStatus(p("/b/ats")).getAccessTime();
            }),
        call("resetting both quotas of /", s -> quota(s, "/", QUOTA_RESET, QUOTA_RESET)),
        call("resetting the namespace quota of /", s -> quota(s, "/", QUOTA_RESET, DONT_SET)),
        call("resetting the space quota of /", s -> quota(s, "/", DONT_SET, QUOTA_RESET)),
        call("leaving the quotas of / as they are", s -> quota(s, "/", DONT_SET, DONT_SET)),
        call(
            "raw mkdirs of an empty path",
            s -> s.nn().mkdirs("", FsPermission.getDirDefault(), true)),
        call("raw delete of an empty path", s -> s.nn().delete("", true)),
        call("abandonBlock of an unknown block", s -> abandon(s, "/b/ab1", s.pool(), true)),
        call("abandonBlock of another pool's block", s -> abandon(s, "/b/ab2", "BP-1-2-3", true)),
        call("abandonBlock on a closed file", s -> abandon(s, "/b/ab3", s.pool(), false)),
        call(
            "abandonBlock on a missing file",
            s -> {
              s.nn()
                  .abandonBlock(
                      new org.apache.hadoop.hdfs.protocol.ExtendedBlock(s.pool(), 987_654_321L),
                      org.apache.hadoop.hdfs.protocol.HdfsConstants.GRANDFATHER_INODE_ID,
                      "/b/no-such-file",
                      "ab-client");
              return "abandoned";
            }));
  }

  private static final long QUOTA_RESET = org.apache.hadoop.hdfs.protocol.HdfsConstants.QUOTA_RESET;
  private static final long DONT_SET = org.apache.hadoop.hdfs.protocol.HdfsConstants.QUOTA_DONT_SET;

  private static Path mkdirs(Side s, String path) throws Exception {
    s.admin.mkdirs(p(path));
    return p(path);
  }

  private static String quota(Side s, String path, long ns, long ds) throws Exception {
    s.nn().setQuota(path, ns, ds, null);
    return "set";
  }

  /** abandonBlock of a block id no file has, by the writer of {@code path} (open or closed). */
  private static String abandon(Side s, String path, String pool, boolean open) throws Exception {
    create(s, path, "ab-client", 1 << 20);
    if (!open) {
      s.nn().complete(path, "ab-client", null, s.nn().getFileInfo(path).getFileId());
    }
    long fileId = s.nn().getFileInfo(path).getFileId();
    s.nn()
        .abandonBlock(
            new org.apache.hadoop.hdfs.protocol.ExtendedBlock(pool, 987_654_321L),
            fileId,
            path,
            "ab-client");
    return "abandoned";
  }

  private static String outcome(Call call, Side s) {
    try {
      return "returned " + call.run(s);
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      return e.getClassName() + ": " + firstLine(e);
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e);
    }
  }

  /** The first line of the message, inode ids left out (each system numbers its own). */
  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage())
        .lines()
        .findFirst()
        .orElse("")
        .replaceAll("\\(inode [0-9]+\\)", "(inode N)");
  }

  /**
   * A name wider than a key is stored once under its digest; another namenode (a fresh name cache
   * over the same database) reads the whole name back.
   */
  @org.junit.jupiter.api.Test
  void aHugeNameIsReadBackByAnotherNamenode() throws Exception {
    hopsSide.admin.mkdirs(p("/b/huge-other"));
    hopsSide.admin.setOwner(p("/b/huge-other"), HUGE + "o", HUGE_UTF8 + "o");
    var other =
        new io.hops.namenode.security.UsersAndGroups(hops.namenode().namesystem().storage());
    int user = other.userId(HUGE + "o");
    var fresh =
        new io.hops.namenode.security.UsersAndGroups(hops.namenode().namesystem().storage());
    assertThat(fresh.userName(user)).isEqualTo(HUGE + "o");
    assertThat(fresh.groupName(fresh.groupId(HUGE_UTF8 + "o"))).isEqualTo(HUGE_UTF8 + "o");
    assertThat(owner(hopsSide, "/b/huge-other")).isEqualTo(HUGE + "o:" + HUGE_UTF8 + "o");
  }

  /** The same long names over MariaDB, whose columns enforce their widths themselves. */
  @org.junit.jupiter.api.Test
  void longNamesAreStoredOnMariadbToo() throws Exception {
    HopsTestCluster mdb = HopsTestCluster.onMariadbOrNull();
    org.junit.jupiter.api.Assumptions.assumeTrue(mdb != null, "needs HOPS_TEST_MYSQL_URL");
    try (mdb;
        DistributedFileSystem fs = mdb.client()) {
      Side side = new Side(fs, mdb.clientConf(), null);
      fs.mkdirs(p("/b"));
      fs.setPermission(p("/b"), new FsPermission((short) 0777));
      assertThat(create(side, "/b/c", WIDEST_UTF8, 1 << 20)).isEqualTo("0 1048576 false");
      assertThat(mkdirsAs(side, WIDEST, "/b/u")).isEqualTo(WIDEST + ":supergroup");
      fs.setOwner(p("/b/u"), WIDEST_UTF8, LONG_UTF8 + "g");
      assertThat(owner(side, "/b/u")).isEqualTo(WIDEST_UTF8 + ":" + LONG_UTF8 + "g");
      assertThat(
              fs.getClient()
                  .getNamenode()
                  .listOpenFiles(
                      0,
                      java.util.EnumSet.of(
                          org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType
                              .ALL_OPEN_FILES),
                      "/")
                  .get(0)
                  .getClientName())
          .isEqualTo(WIDEST_UTF8);
      assertThat(create(side, "/b/h", HUGE_UTF8, 1 << 20)).isEqualTo("0 1048576 false");
      assertThat(mkdirsAs(side, HUGE, "/b/hu")).isEqualTo(HUGE + ":supergroup");
      fs.setOwner(p("/b/hu"), HUGE_UTF8, HUGE + "g");
      assertThat(owner(side, "/b/hu")).isEqualTo(HUGE_UTF8 + ":" + HUGE + "g");
      long id = fs.getClient().getFileInfo("/b/h").getFileId();
      assertThat(fs.getClient().getNamenode().complete("/b/h", HUGE_UTF8, null, id)).isTrue();
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("calls")
  void outcomeIsTheSameAsApacheHdfs(String name, Call call) {
    String expected = outcome(call, hdfsSide);
    String actual = outcome(call, hopsSide);
    assertThat(actual).as(name).doesNotContain("io.hops.dal");
    assertThat(actual).as(name).isEqualTo(expected);
  }
}
