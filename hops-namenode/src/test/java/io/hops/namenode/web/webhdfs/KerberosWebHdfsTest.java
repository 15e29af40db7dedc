package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.NamenodeConfig;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.security.PrivilegedExceptionAction;
import java.util.Properties;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.minikdc.MiniKdc;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticatedURL;
import org.apache.hadoop.security.authentication.client.AuthenticationException;
import org.apache.hadoop.security.authorize.ProxyUsers;
import org.apache.hadoop.security.token.Token;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * WebHDFS with Kerberos, side by side with a kerberized MiniDFSCluster over one KDC ({@code
 * hadoop-minikdc}): SPNEGO on the web server ({@code hadoop.http.authentication.type=kerberos},
 * {@code dfs.web.authentication.kerberos.principal}/{@code keytab}), Hadoop's own kerberized {@code
 * WebHdfsFileSystem} (it fetches a delegation token over SPNEGO and sends {@code delegation=} on
 * every later call), {@code doas} under SPNEGO, and the WebHDFS token operations. hops runs two
 * namenodes over one database: a token issued by one is honoured, renewed and cancelled by the
 * other, and a cancelled or forged token meets HDFS's refusal.
 */
class KerberosWebHdfsTest {
  private static MiniKdc kdc;
  private static File keytab;
  private static String realm;
  private static HopsTestCluster hops;
  private static HopsNameNode second;
  private static MiniDFSCluster hdfs;

  @BeforeAll
  static void start() throws Exception {
    File work = Files.createTempDirectory("hops-kerberos-web").toFile();
    Properties kdcConf = MiniKdc.createConf();
    kdc = new MiniKdc(kdcConf, work);
    kdc.start();
    realm = kdc.getRealm();
    keytab = new File(work, "test.keytab");
    kdc.createPrincipal(keytab, "hdfs/localhost", "HTTP/localhost", "alice", "bob");
    Configuration conf = secure();
    conf.set("hadoop.proxyuser.alice.hosts", "*");
    conf.set("hadoop.proxyuser.alice.users", "bob");
    // A cancellation on one namenode is seen at once by the other.
    conf.setLong(NamenodeConfig.DELEGATION_TOKEN_CACHE_MS, 0);
    UserGroupInformation.setConfiguration(conf);
    hops = new HopsTestCluster(conf);
    second = hops.startAnotherNamenode();
    Configuration hdfsConf = hdfsSideConf();
    hdfsConf.setBoolean(DFSConfigKeys.DFS_BLOCK_ACCESS_TOKEN_ENABLE_KEY, true);
    hdfsConf.set("hadoop.proxyuser.alice.hosts", "*");
    hdfsConf.set("hadoop.proxyuser.alice.users", "bob");
    hdfs = ApacheHdfs.start("kerberos-web", hdfsConf);
    for (FileSystem fs : new FileSystem[] {hops.client(), hdfs.getFileSystem()}) {
      fs.mkdirs(new Path("/user/alice"));
      fs.setOwner(new Path("/user/alice"), "alice", "alice");
      fs.mkdirs(new Path("/user/bob"));
      fs.setOwner(new Path("/user/bob"), "bob", "bob");
    }
  }

  @AfterAll
  static void stop() throws Exception {
    if (hdfs != null) {
      hdfs.shutdown();
    }
    if (second != null) {
      second.close();
    }
    if (hops != null) {
      hops.close();
    }
    if (kdc != null) {
      kdc.stop();
    }
    UserGroupInformation.reset();
    UserGroupInformation.setConfiguration(new Configuration());
    ProxyUsers.refreshSuperUserGroupsConfiguration(new Configuration(false));
  }

  private static Configuration secure() {
    Configuration c = new Configuration(false);
    c.set("hadoop.security.authentication", "kerberos");
    String hdfsPrincipal = "hdfs/localhost@" + realm;
    c.set(DFSConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    c.set(DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY, keytab.getPath());
    c.set(DFSConfigKeys.DFS_DATANODE_KERBEROS_PRINCIPAL_KEY, hdfsPrincipal);
    c.set(DFSConfigKeys.DFS_DATANODE_KEYTAB_FILE_KEY, keytab.getPath());
    c.set("hadoop.http.authentication.type", "kerberos");
    // HDFS's keys; hops uses them where Hadoop's hadoop.http.authentication.kerberos.* are unset.
    c.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_PRINCIPAL_KEY, "HTTP/localhost@" + realm);
    c.set(DFSConfigKeys.DFS_WEB_AUTHENTICATION_KERBEROS_KEYTAB_KEY, keytab.getPath());
    // Apache HDFS's AuthFilter reads only Hadoop's keys.
    return c;
  }

  private static Configuration hdfsSideConf() {
    Configuration c = secure();
    c.set("hadoop.http.authentication.kerberos.principal", "HTTP/localhost@" + realm);
    c.set("hadoop.http.authentication.kerberos.keytab", keytab.getPath());
    return c;
  }

  private static UserGroupInformation login(String user) throws IOException {
    return UserGroupInformation.loginUserFromKeytabAndReturnUGI(
        user + "@" + realm, keytab.getPath());
  }

  private static String web(InetSocketAddress a) {
    return "localhost:" + a.getPort();
  }

  private static String hopsWeb() {
    return web(hops.namenode().httpAddress());
  }

  private static String secondWeb() {
    return web(second.httpAddress());
  }

  private static String hdfsWeb() {
    return web(hdfs.getNameNode().getHttpAddress());
  }

  private static WebHdfsFileSystem webFs(String hostPort) throws IOException {
    Configuration c = new Configuration();
    secure().forEach(e -> c.set(e.getKey(), e.getValue()));
    c.setBoolean("fs.webhdfs.impl.disable.cache", true);
    return (WebHdfsFileSystem) FileSystem.newInstance(URI.create("webhdfs://" + hostPort), c);
  }

  /** A raw answer: status and body. */
  private record Raw(int status, String body) {}

  private static Raw raw(String method, String url, boolean spnego) throws Exception {
    HttpURLConnection c;
    try {
      c =
          spnego
              ? new AuthenticatedURL().openConnection(new URL(url), new AuthenticatedURL.Token())
              : (HttpURLConnection) new URL(url).openConnection();
    } catch (AuthenticationException e) {
      // the filter refused during the SPNEGO handshake (a doas the proxy rules forbid)
      return new Raw(-1, e.getMessage().replaceAll("localhost:[0-9]+", "HOST"));
    }
    c.setRequestMethod(method);
    c.setInstanceFollowRedirects(false);
    int status = c.getResponseCode();
    InputStream in = status >= 400 ? c.getErrorStream() : c.getInputStream();
    String body = in == null ? "" : new String(in.readAllBytes(), StandardCharsets.UTF_8);
    c.disconnect();
    return new Raw(status, body);
  }

  /** Dates, sequence numbers and key ids differ between the two sides. */
  private static String normalise(String body) {
    return body.replaceAll("[0-9]+", "N");
  }

  @Test
  void kerberizedWebHdfsClientWorksLikeHdfs() throws Exception {
    UserGroupInformation alice = login("alice");
    for (String side : new String[] {hopsWeb(), hdfsWeb()}) {
      FileStatus made =
          alice.doAs(
              (PrivilegedExceptionAction<FileStatus>)
                  () -> {
                    try (WebHdfsFileSystem fs = webFs(side)) {
                      assertThat(fs.mkdirs(new Path("/user/alice/web"))).isTrue();
                      return fs.getFileStatus(new Path("/user/alice/web"));
                    }
                  });
      assertThat(made.getOwner()).as(side).isEqualTo("alice");
    }
  }

  @Test
  void requestsWithoutTicketOrTokenAreRefusedLikeHdfs() throws Exception {
    for (String q : new String[] {"/webhdfs/v1/?op=GETHOMEDIRECTORY", "/jmx", "/"}) {
      Raw h = raw("GET", "http://" + hdfsWeb() + q, false);
      Raw o = raw("GET", "http://" + hopsWeb() + q, false);
      assertThat(h.status()).as(q).isEqualTo(401);
      assertThat(o.status()).as(q).isEqualTo(401);
    }
    // user.name means nothing under Kerberos
    Raw o =
        raw("GET", "http://" + hopsWeb() + "/webhdfs/v1/?op=GETHOMEDIRECTORY&user.name=a", false);
    assertThat(o.status()).isEqualTo(401);
  }

  @Test
  void spnegoCallerAndDoAsLikeHdfs() throws Exception {
    UserGroupInformation alice = login("alice");
    for (String side : new String[] {hopsWeb(), hdfsWeb()}) {
      Raw home =
          alice.doAs(
              (PrivilegedExceptionAction<Raw>)
                  () -> raw("GET", "http://" + side + "/webhdfs/v1/?op=GETHOMEDIRECTORY", true));
      assertThat(home).as(side).isEqualTo(new Raw(200, "{\"Path\":\"/user/alice\"}"));
      Raw asBob =
          alice.doAs(
              (PrivilegedExceptionAction<Raw>)
                  () ->
                      raw(
                          "PUT",
                          "http://" + side + "/webhdfs/v1/user/bob/byalice?op=MKDIRS&doas=bob",
                          true));
      assertThat(asBob).as(side).isEqualTo(new Raw(200, "{\"boolean\":true}"));
    }
    assertThat(hops.client().getFileStatus(new Path("/user/bob/byalice")).getOwner())
        .isEqualTo("bob");
    UserGroupInformation bob = login("bob");
    Raw refused = null;
    for (String side : new String[] {hdfsWeb(), hopsWeb()}) {
      Raw r =
          bob.doAs(
              (PrivilegedExceptionAction<Raw>)
                  () ->
                      raw(
                          "GET",
                          "http://" + side + "/webhdfs/v1/?op=GETHOMEDIRECTORY&doas=alice",
                          true));
      assertThat(r.status()).as(side + " " + r.body()).isEqualTo(-1);
      if (refused != null) {
        assertThat(normalise(r.body())).isEqualTo(normalise(refused.body()));
      }
      refused = r;
    }
  }

  @Test
  void tokenFromOneNamenodeServesRenewsAndCancelsOnTheOther() throws Exception {
    UserGroupInformation alice = login("alice");
    Token<DelegationTokenIdentifier> token = tokenFrom(alice, hopsWeb());
    assertThat(token.getKind().toString()).isEqualTo("WEBHDFS delegation");
    String delegation = "&delegation=" + token.encodeToUrlString();
    Raw home =
        raw(
            "GET",
            "http://" + secondWeb() + "/webhdfs/v1/?op=GETHOMEDIRECTORY" + delegation,
            false);
    assertThat(home).isEqualTo(new Raw(200, "{\"Path\":\"/user/alice\"}"));
    Raw made =
        raw(
            "PUT",
            "http://" + secondWeb() + "/webhdfs/v1/user/alice/tok?op=MKDIRS" + delegation,
            false);
    assertThat(made.status()).as(made.body()).isEqualTo(200);
    assertThat(hops.client().getFileStatus(new Path("/user/alice/tok")).getOwner())
        .isEqualTo("alice");
    Raw renewed =
        alice.doAs(
            (PrivilegedExceptionAction<Raw>)
                () ->
                    raw(
                        "PUT",
                        "http://"
                            + secondWeb()
                            + "/webhdfs/v1/?op=RENEWDELEGATIONTOKEN&token="
                            + token.encodeToUrlString(),
                        true));
    assertThat(renewed.status()).as(renewed.body()).isEqualTo(200);
    assertThat(renewed.body()).matches("\\{\"long\":[0-9]+\\}");
    Raw cancelled =
        alice.doAs(
            (PrivilegedExceptionAction<Raw>)
                () ->
                    raw(
                        "PUT",
                        "http://"
                            + secondWeb()
                            + "/webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token="
                            + token.encodeToUrlString(),
                        true));
    assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
    Raw afterCancel =
        raw("GET", "http://" + hopsWeb() + "/webhdfs/v1/?op=GETHOMEDIRECTORY" + delegation, false);

    Token<DelegationTokenIdentifier> hdfsToken = tokenFrom(alice, hdfsWeb());
    alice.doAs(
        (PrivilegedExceptionAction<Raw>)
            () ->
                raw(
                    "PUT",
                    "http://"
                        + hdfsWeb()
                        + "/webhdfs/v1/?op=CANCELDELEGATIONTOKEN&token="
                        + hdfsToken.encodeToUrlString(),
                    true));
    Raw hdfsAfterCancel =
        raw(
            "GET",
            "http://"
                + hdfsWeb()
                + "/webhdfs/v1/?op=GETHOMEDIRECTORY&delegation="
                + hdfsToken.encodeToUrlString(),
            false);
    assertThat(hdfsAfterCancel.status()).as(hdfsAfterCancel.body()).isEqualTo(403);
    assertThat(afterCancel.status()).as(afterCancel.body()).isEqualTo(403);
    assertThat(normalise(afterCancel.body())).isEqualTo(normalise(hdfsAfterCancel.body()));
  }

  @Test
  void forgedAndMalformedTokensAreRefusedLikeHdfs() throws Exception {
    UserGroupInformation alice = login("alice");
    Token<DelegationTokenIdentifier> hopsToken = tokenFrom(alice, hopsWeb());
    Token<DelegationTokenIdentifier> hdfsToken = tokenFrom(alice, hdfsWeb());
    String[] answers = new String[4];
    int i = 0;
    for (var t : java.util.List.of(hopsToken, hdfsToken)) {
      byte[] password = t.getPassword().clone();
      password[0] ^= 1;
      Token<DelegationTokenIdentifier> forged =
          new Token<>(t.getIdentifier(), password, t.getKind(), t.getService());
      String side = t == hopsToken ? hopsWeb() : hdfsWeb();
      Raw f =
          raw(
              "GET",
              "http://"
                  + side
                  + "/webhdfs/v1/?op=GETHOMEDIRECTORY&delegation="
                  + forged.encodeToUrlString(),
              false);
      Raw m =
          raw("GET", "http://" + side + "/webhdfs/v1/?op=GETHOMEDIRECTORY&delegation=zz", false);
      answers[i++] = f.status() + " " + normalise(f.body());
      answers[i++] = m.status() + " " + normalise(m.body());
    }
    assertThat(answers[0]).startsWith("403").isEqualTo(answers[2]);
    assertThat(answers[1]).isEqualTo(answers[3]);
  }

  @SuppressWarnings("unchecked")
  private static Token<DelegationTokenIdentifier> tokenFrom(UserGroupInformation ugi, String side)
      throws Exception {
    return ugi.doAs(
        (PrivilegedExceptionAction<Token<DelegationTokenIdentifier>>)
            () -> {
              try (WebHdfsFileSystem fs = webFs(side)) {
                return (Token<DelegationTokenIdentifier>) fs.getDelegationToken("alice");
              }
            });
  }
}
