package io.hops.namenode.tools;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.SideBySide;
import io.hops.namenode.SideBySide.Side;
import io.hops.namenode.SideBySideExtension;
import io.hops.namenode.config.NamenodeConfig;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.stream.Stream;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.RemoteIterator;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.apache.hadoop.hdfs.protocol.CacheDirectiveInfo;
import org.apache.hadoop.hdfs.protocol.CachePoolInfo;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicy;
import org.apache.hadoop.hdfs.protocol.ErasureCodingPolicyInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.tools.CacheAdmin;
import org.apache.hadoop.hdfs.tools.CryptoAdmin;
import org.apache.hadoop.hdfs.tools.ECAdmin;
import org.apache.hadoop.hdfs.tools.snapshot.LsSnapshottableDir;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The calls of HDFS features hops does not have (encryption zones, erasure coding, delegation
 * tokens, snapshots when turned off, centralized cache, symlinks, edit log and upgrades) against
 * hops and against Apache HDFS with those features off or empty (a MiniDFSCluster without a key
 * provider, with no default erasure coding policy, without security): the same result, or the same
 * exception class and first message line. Where hops refuses what HDFS could do (make a directory
 * snapshottable, enable a policy, add a cache pool, roll the edit log), the refusal names hops and
 * is checked against the expected text; the stock admin tools print the same on both.
 */
class FeaturesOffLikeHdfsTest {
  @FunctionalInterface
  private interface Call {
    Object run(Side s) throws Exception;
  }

  @RegisterExtension
  static final SideBySideExtension both =
      SideBySideExtension.of(
              () -> {
                // Hadoop's *-default.xml loaded, as bin/hops loads them: their values must not
                // leak into hops's answers (hdfs-default.xml's RS-6-3-1024k default policy, for
                // one).
                Configuration off = new Configuration(false);
                off.set(DFSConfigKeys.DFS_NAMENODE_EC_SYSTEM_DEFAULT_POLICY, "");
                // Snapshots are served by default; this class checks the answers without them.
                Configuration hopsConf = new HdfsConfiguration();
                hopsConf.setBoolean(NamenodeConfig.SNAPSHOTS_ENABLED, false);
                return SideBySide.named("features-off").hopsConf(hopsConf).hdfsConf(off).start();
              })
          .eachSide(FeaturesOffLikeHdfsTest::setUp);

  private static void setUp(Side s) throws Exception {
    s.admin().mkdirs(new Path("/f/dir/sub"));
    s.admin().createNewFile(new Path("/f/file"));
    s.admin().mkdirs(new Path("/f/private"));
    s.admin().setPermission(new Path("/f/private"), new FsPermission((short) 0700));
    s.admin().mkdirs(new Path("/f/open"));
    s.admin().setPermission(new Path("/f/open"), new FsPermission((short) 0777));
    s.alice().mkdirs(new Path("/f/open/alice"));
  }

  /** The raw protocol of the superuser's client. */
  private static ClientProtocol nn(Side s) {
    return s.admin().getClient().getNamenode();
  }

  private static Path p(String path) {
    return new Path(path);
  }

  private static Arguments call(String name, Call call) {
    return Arguments.of(name, call);
  }

  private static <T> List<T> all(RemoteIterator<T> it) throws Exception {
    List<T> out = new ArrayList<>();
    while (it.hasNext()) {
      out.add(it.next());
    }
    return out;
  }

  private static String policies(ErasureCodingPolicyInfo[] infos) {
    List<String> out = new ArrayList<>();
    for (ErasureCodingPolicyInfo i : infos) {
      out.add(i.getPolicy().getName() + "=" + i.getState());
    }
    return out.toString();
  }

  /** A token as a client would hold one from another cluster: this namenode never issued it. */
  private static Token<DelegationTokenIdentifier> foreignToken(String renewer) {
    DelegationTokenIdentifier id =
        new DelegationTokenIdentifier(new Text("bob"), new Text(renewer), null);
    id.setMaxDate(Long.MAX_VALUE);
    return new Token<>(id.getBytes(), new byte[] {1, 2, 3}, id.getKind(), new Text("svc"));
  }

  static Stream<Arguments> sameAsHdfs() {
    ErasureCodingPolicy rs = SystemErasureCodingPolicies.getByName("RS-6-3-1024k");
    return Stream.of(
        // encryption zones
        call("getEZForPath of a directory", s -> s.admin().getEZForPath(p("/f/dir"))),
        call("getEZForPath of a file", s -> s.admin().getEZForPath(p("/f/file"))),
        call("getEZForPath of a missing path", s -> s.admin().getEZForPath(p("/f/none"))),
        call("getEZForPath without read", s -> s.alice().getEZForPath(p("/f/private"))),
        call("getEZForPath below a closed dir", s -> s.alice().getEZForPath(p("/f/private/x"))),
        call("listEncryptionZones", s -> all(s.admin().listEncryptionZones())),
        call("listEncryptionZones by a user", s -> all(s.alice().listEncryptionZones())),
        call(
            "createEncryptionZone",
            s -> step(() -> s.admin().createEncryptionZone(p("/f/dir"), "k"))),
        call(
            "createEncryptionZone by a user",
            s -> step(() -> s.alice().createEncryptionZone(p("/f/dir"), "k"))),
        call(
            "reencrypt",
            s ->
                step(
                    () ->
                        nn(s)
                            .reencryptEncryptionZone(
                                "/f/dir", HdfsConstants.ReencryptAction.START))),
        call("listReencryptionStatus", s -> all(s.admin().listReencryptionStatus())),
        call("getDataEncryptionKey", s -> nn(s).getDataEncryptionKey()),
        // erasure coding
        call("getErasureCodingPolicies", s -> policies(nn(s).getErasureCodingPolicies())),
        call(
            "getErasureCodingCodecs",
            s -> new java.util.TreeMap<>(s.admin().getAllErasureCodingCodecs())),
        call("getErasureCodingPolicy of a dir", s -> s.admin().getErasureCodingPolicy(p("/f/dir"))),
        call(
            "getErasureCodingPolicy of a file",
            s -> s.admin().getErasureCodingPolicy(p("/f/file"))),
        call(
            "getErasureCodingPolicy of a missing path",
            s -> s.admin().getErasureCodingPolicy(p("/f/none"))),
        call(
            "getErasureCodingPolicy without read",
            s -> s.alice().getErasureCodingPolicy(p("/f/private"))),
        call(
            "setErasureCodingPolicy RS",
            s -> step(() -> s.admin().setErasureCodingPolicy(p("/f/dir"), "RS-6-3-1024k"))),
        call(
            "setErasureCodingPolicy default",
            s -> step(() -> nn(s).setErasureCodingPolicy("/f/dir", null))),
        call(
            "setErasureCodingPolicy unknown",
            s -> step(() -> s.admin().setErasureCodingPolicy(p("/f/dir"), "nope"))),
        call(
            "setErasureCodingPolicy replication on a missing path",
            s -> step(() -> s.admin().setErasureCodingPolicy(p("/f/none"), "replication"))),
        call(
            "setErasureCodingPolicy replication on a file",
            s -> step(() -> s.admin().setErasureCodingPolicy(p("/f/file"), "replication"))),
        call(
            "setErasureCodingPolicy replication without write",
            s -> step(() -> s.alice().setErasureCodingPolicy(p("/f/dir"), "replication"))),
        call(
            "setErasureCodingPolicy replication, then get",
            s -> {
              s.admin().setErasureCodingPolicy(p("/f/dir/sub"), "replication");
              return s.admin().getErasureCodingPolicy(p("/f/dir/sub"));
            }),
        call(
            "unsetErasureCodingPolicy",
            s -> step(() -> s.admin().unsetErasureCodingPolicy(p("/f/dir")))),
        call(
            "unsetErasureCodingPolicy of a missing path",
            s -> step(() -> s.admin().unsetErasureCodingPolicy(p("/f/none")))),
        call(
            "unsetErasureCodingPolicy of a file",
            s -> step(() -> s.admin().unsetErasureCodingPolicy(p("/f/file")))),
        call(
            "unsetErasureCodingPolicy without write",
            s -> step(() -> s.alice().unsetErasureCodingPolicy(p("/f/private")))),
        call(
            "addErasureCodingPolicies by a user",
            s ->
                Arrays.toString(
                    s.alice().addErasureCodingPolicies(new ErasureCodingPolicy[] {rs}))),
        call(
            "removeErasureCodingPolicy system",
            s -> step(() -> s.admin().removeErasureCodingPolicy("RS-6-3-1024k"))),
        call(
            "removeErasureCodingPolicy unknown",
            s -> step(() -> s.admin().removeErasureCodingPolicy("nope"))),
        call(
            "enableErasureCodingPolicy unknown",
            s -> step(() -> s.admin().enableErasureCodingPolicy("nope"))),
        call(
            "enableErasureCodingPolicy by a user",
            s -> step(() -> s.alice().enableErasureCodingPolicy("RS-6-3-1024k"))),
        call(
            "disableErasureCodingPolicy disabled",
            s -> step(() -> s.admin().disableErasureCodingPolicy("RS-6-3-1024k"))),
        call(
            "disableErasureCodingPolicy unknown",
            s -> step(() -> s.admin().disableErasureCodingPolicy("nope"))),
        call(
            "ECTopology of nothing enabled",
            s -> s.admin().getECTopologyResultForPolicies().getResultMessage()),
        // delegation tokens with simple authentication
        call("getDelegationToken", s -> s.admin().getDelegationToken("yarn")),
        call(
            "renewDelegationToken of a token never issued",
            s -> nn(s).renewDelegationToken(foreignToken("yarn"))),
        call(
            "cancelDelegationToken of a token never issued",
            s -> step(() -> nn(s).cancelDelegationToken(foreignToken("yarn")))),
        // snapshots: nothing is snapshottable
        call("getSnapshottableDirListing", s -> s.admin().getSnapshottableDirListing()),
        call("getSnapshottableDirListing by a user", s -> s.alice().getSnapshottableDirListing()),
        call("allowSnapshot by a user", s -> step(() -> s.alice().allowSnapshot(p("/f/dir")))),
        call(
            "disallowSnapshot of a plain dir",
            s -> step(() -> s.admin().disallowSnapshot(p("/f/dir")))),
        call(
            "disallowSnapshot of a missing dir",
            s -> step(() -> s.admin().disallowSnapshot(p("/f/none")))),
        call(
            "disallowSnapshot of a file",
            s -> step(() -> s.admin().disallowSnapshot(p("/f/file")))),
        call(
            "disallowSnapshot by a user", s -> step(() -> s.alice().disallowSnapshot(p("/f/dir")))),
        call("createSnapshot of a missing dir", s -> s.admin().createSnapshot(p("/f/none"), "s1")),
        call("createSnapshot of a file", s -> s.admin().createSnapshot(p("/f/file"), "s1")),
        call("createSnapshot by a non-owner", s -> s.alice().createSnapshot(p("/f/dir"), "s1")),
        // cache
        call("listCachePools", s -> all(s.admin().listCachePools())),
        call("listCacheDirectives", s -> all(s.admin().listCacheDirectives(null))),
        call(
            "addCachePool by a user",
            s -> step(() -> s.alice().addCachePool(new CachePoolInfo("pool")))),
        call("removeCachePool unknown", s -> step(() -> s.admin().removeCachePool("pool"))),
        call(
            "addCacheDirective to an unknown pool",
            s ->
                s.admin()
                    .addCacheDirective(
                        new CacheDirectiveInfo.Builder()
                            .setPath(p("/f/file"))
                            .setPool("pool")
                            .build(),
                        EnumSet.noneOf(org.apache.hadoop.fs.CacheFlag.class))),
        call("removeCacheDirective unknown", s -> step(() -> s.admin().removeCacheDirective(7))),
        // symlinks are off
        call("getLinkTarget of a file", s -> nn(s).getLinkTarget("/f/file")),
        call("getLinkTarget of a missing path", s -> nn(s).getLinkTarget("/f/none")),
        // edit log, fsimage and upgrades
        call("saveNamespace outside safe mode", s -> nn(s).saveNamespace(0, 0)),
        call(
            "saveNamespace by a user",
            s -> s.alice().getClient().getNamenode().saveNamespace(0, 0)),
        call("rollEdits by a user", s -> s.alice().rollEdits()),
        call("finalizeUpgrade", s -> step(() -> s.admin().finalizeUpgrade())),
        call("finalizeUpgrade by a user", s -> step(() -> s.alice().finalizeUpgrade())),
        call("upgradeStatus", s -> s.admin().upgradeStatus()),
        call("restoreFailedStorage check", s -> s.admin().restoreFailedStorage("check")),
        call("restoreFailedStorage by a user", s -> s.alice().restoreFailedStorage("true")),
        call(
            "getCurrentEditLogTxid by a user",
            s -> s.alice().getClient().getNamenode().getCurrentEditLogTxid()),
        call(
            "setBalancerBandwidth above the maximum",
            s -> step(() -> s.admin().setBalancerBandwidth(Long.MAX_VALUE))));
  }

  @FunctionalInterface
  private interface Step {
    void run() throws Exception;
  }

  private static String step(Step step) throws Exception {
    step.run();
    return "done";
  }

  /**
   * A call's outcome: its result, or the class and first line of the message of what it threw
   * (Hadoop IPC appends the server's stack trace to the message).
   */
  private static String outcome(Call call, Side s) {
    try {
      return "returned " + call.run(s);
    } catch (org.apache.hadoop.ipc.RemoteException e) {
      return e.getClassName() + ": " + firstLine(e);
    } catch (Exception e) {
      return e.getClass().getName() + ": " + firstLine(e);
    }
  }

  private static String firstLine(Throwable e) {
    return String.valueOf(e.getMessage()).lines().findFirst().orElse("");
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("sameAsHdfs")
  void outcomeIsTheSameAsApacheHdfs(String name, Call call) {
    String expected = outcome(call, both.hdfsSide());
    String actual = outcome(call, both.hopsSide());
    assertThat(actual).as(name).isEqualTo(expected);
  }

  /** HDFS's refusal for a directory that is not snapshottable, with hops's reason after it. */
  @Test
  void snapshotsOfAPlainDirectoryFailAsInHdfsNamingHops() {
    for (Call c :
        List.<Call>of(
            s -> s.admin().createSnapshot(p("/f/dir"), "s1"),
            s -> step(() -> s.admin().deleteSnapshot(p("/f/dir"), "s1")),
            s -> step(() -> s.admin().renameSnapshot(p("/f/dir"), "s1", "s2")),
            s -> s.admin().getSnapshotListing(p("/f/dir")))) {
      String expected = outcome(c, both.hdfsSide());
      assertThat(expected).startsWith("org.apache.hadoop.hdfs.protocol.SnapshotException: ");
      assertThat(outcome(c, both.hopsSide())).isEqualTo(expected + " (hops has no snapshots)");
    }
    Call diff = s -> s.admin().getSnapshotDiffReport(p("/f/dir"), "s1", "s2");
    assertThat(outcome(diff, both.hopsSide()))
        .isEqualTo(
            "org.apache.hadoop.hdfs.protocol.SnapshotException: The path /f/dir is neither"
                + " snapshottable nor under a snapshot root! (hops has no snapshots)");
  }

  /**
   * HDFS 3 refuses symlinks unless a test enables them for the whole JVM (MiniDFSCluster does), so
   * the comparison is with the text of its refusal.
   */
  @Test
  void symlinksAreRefusedAsHdfsRefusesThemWhenOff() {
    assertThat(
            outcome(
                s ->
                    step(
                        () ->
                            nn(s)
                                .createSymlink(
                                    "/f/file", "/f/link", FsPermission.getDefault(), false)),
                both.hopsSide()))
        .isEqualTo("java.lang.UnsupportedOperationException: Symlinks not supported");
  }

  /** What HDFS would do and hops cannot: a refusal that says why, of a class clients know. */
  @Test
  void whatHopsCannotDoIsRefusedClearly() {
    assertThat(outcome(s -> step(() -> s.admin().allowSnapshot(p("/f/dir"))), both.hopsSide()))
        .isEqualTo(
            "org.apache.hadoop.hdfs.protocol.SnapshotException: hops has no snapshots: /f/dir"
                + " cannot be made snapshottable");
    assertThat(
            outcome(
                s -> step(() -> s.admin().enableErasureCodingPolicy("RS-6-3-1024k")),
                both.hopsSide()))
        .startsWith(
            "org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException:"
                + " enableErasureCodingPolicy not supported: hops stores every file replicated");
    assertThat(
            outcome(
                s ->
                    Arrays.toString(
                        s.admin()
                            .addErasureCodingPolicies(
                                new ErasureCodingPolicy[] {
                                  SystemErasureCodingPolicies.getByName("RS-3-2-1024k")
                                })),
                both.hopsSide()))
        .contains("Addition of user defined erasure coding policy is disabled.");
    assertThat(
            outcome(
                s -> step(() -> s.admin().addCachePool(new CachePoolInfo("p"))), both.hopsSide()))
        .isEqualTo(
            "org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException: addCachePool:"
                + " hops has no centralized cache management, so cache pool p cannot be added");
    assertThat(outcome(s -> s.admin().rollEdits(), both.hopsSide()))
        .startsWith(
            "org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException: rollEdits not"
                + " supported: hops has no edit log");
    // refreshNodes is served (tools/DecommissionLikeHdfsTest): no hosts files, nothing changes.
    assertThat(outcome(s -> step(() -> s.admin().refreshNodes()), both.hopsSide()))
        .startsWith("returned");
    assertThat(outcome(s -> s.admin().getInotifyEventStream(), both.hopsSide()))
        .contains("UnsupportedActionException: getCurrentEditLogTxid (inotify) not supported");
  }

  /** In safe mode HDFS writes an image; hops has none to write and says no checkpoint was made. */
  @Test
  void saveNamespaceInSafeModeMakesNoCheckpoint() throws Exception {
    var admin = both.hopsSide().admin();
    admin.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_ENTER);
    try {
      assertThat(nn(both.hopsSide()).saveNamespace(0, 0)).isFalse();
    } finally {
      admin.setSafeMode(HdfsConstants.SafeModeAction.SAFEMODE_LEAVE);
    }
  }

  private static String tool(Side s, String which, String... args) throws Exception {
    StockTool.Output o =
        StockTool.run(
            out ->
                switch (which) {
                  case "ec" -> new ECAdmin(s.conf());
                  case "cacheadmin" -> new CacheAdmin(s.conf());
                  case "crypto" -> new CryptoAdmin(s.conf());
                  default -> {
                    LsSnapshottableDir ls = new LsSnapshottableDir();
                    ls.setConf(s.conf());
                    yield ls;
                  }
                },
            args);
    // The namenodes run in this JVM: their log lines are not the tool's.
    String err =
        o.err().lines().filter(l -> !l.matches("^\\d\\d:\\d\\d:.*")).findFirst().orElse("");
    return ("rc=" + o.rc() + "\n" + o.out() + "\n" + err)
        .replace(s.admin().getUri().getAuthority(), "NN");
  }

  @Test
  void adminToolsPrintWhatHdfsPrints() throws Exception {
    List<String[]> runs =
        List.of(
            new String[] {"ec", "-listPolicies"},
            new String[] {"ec", "-getPolicy", "-path", "/f/dir"},
            new String[] {"ec", "-getPolicy", "-path", "/f/none"},
            new String[] {"ec", "-listCodecs"},
            new String[] {"ec", "-setPolicy", "-path", "/f/dir", "-policy", "RS-6-3-1024k"},
            new String[] {"ec", "-unsetPolicy", "-path", "/f/dir"},
            new String[] {"ec", "-verifyClusterSetup"},
            new String[] {"lsSnapshottableDir"},
            new String[] {"cacheadmin", "-listPools"},
            new String[] {"cacheadmin", "-listDirectives"},
            new String[] {"crypto", "-listZones"},
            new String[] {"crypto", "-getFileEncryptionInfo", "-path", "/f/file"});
    for (String[] run : runs) {
      String[] args = Arrays.copyOfRange(run, 1, run.length);
      String expected = tool(both.hdfsSide(), run[0], args);
      assertThat(tool(both.hopsSide(), run[0], args)).as(String.join(" ", run)).isEqualTo(expected);
    }
  }
}
