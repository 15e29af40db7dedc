package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.ApacheHdfs;
import io.hops.namenode.HopsNameNode;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.security.TestKdc;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import java.util.List;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.MiniDFSCluster;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.web.WebHdfsFileSystem;
import org.apache.hadoop.security.UserGroupInformation;
import org.apache.hadoop.security.authentication.client.AuthenticatedURL;
import org.apache.hadoop.security.authentication.client.AuthenticationException;
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
  private static TestKdc kdc;
  private static HopsTestCluster hops;
  private static HopsNameNode second;
  private static MiniDFSCluster hdfs;

  @BeforeAll
  static void start() throws Exception {
    kdc = TestKdc.start("hops-kerberos-web", "hdfs/localhost", "HTTP/localhost", "alice", "bob");
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
      kdc.close();
    }
  }

  /**
   * SPNEGO on, the web server's principal in HDFS's keys only ({@code
   * dfs.web.authentication.kerberos.*}): hops uses them where Hadoop's {@code
   * hadoop.http.authentication.kerberos.*} are unset.
   */
  private static Configuration secure() {
    Configuration c = kdc.services("localhost");
    c.set("hadoop.http.authentication.type", "kerberos");
    return c;
  }

  /** Apache HDFS's AuthFilter reads only Hadoop's keys. */
  private static Configuration hdfsSideConf() {
    return kdc.withHadoopHttpKeys(secure(), "localhost");
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
    Configuration c = TestKdc.client(secure());
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
    UserGroupInformation alice = kdc.login("alice");
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
    UserGroupInformation alice = kdc.login("alice");
    for (String side : new String[] {hopsWeb(), hdfsWeb()}) {
      Raw home = spnego(alice, "GET", "http://" + side + "/webhdfs/v1/?op=GETHOMEDIRECTORY");
      assertThat(home).as(side).isEqualTo(new Raw(200, "{\"Path\":\"/user/alice\"}"));
      Raw asBob =
          spnego(
              alice, "PUT", "http://" + side + "/webhdfs/v1/user/bob/byalice?op=MKDIRS&doas=bob");
      assertThat(asBob).as(side).isEqualTo(new Raw(200, "{\"boolean\":true}"));
    }
    assertThat(hops.client().getFileStatus(new Path("/user/bob/byalice")).getOwner())
        .isEqualTo("bob");
    UserGroupInformation bob = kdc.login("bob");
    Raw refused = null;
    for (String side : new String[] {hdfsWeb(), hopsWeb()}) {
      Raw r = spnego(bob, "GET", "http://" + side + "/webhdfs/v1/?op=GETHOMEDIRECTORY&doas=alice");
      assertThat(r.status()).as(side + " " + r.body()).isEqualTo(-1);
      if (refused != null) {
        assertThat(normalise(r.body())).isEqualTo(normalise(refused.body()));
      }
      refused = r;
    }
  }

  @Test
  void tokenFromOneNamenodeServesRenewsAndCancelsOnTheOther() throws Exception {
    UserGroupInformation alice = kdc.login("alice");
    Token<DelegationTokenIdentifier> token = tokenFrom(alice, hopsWeb());
    assertThat(token.getKind().toString()).isEqualTo("WEBHDFS delegation");
    String delegation = token.encodeToUrlString();
    Raw home = home(secondWeb(), delegation);
    assertThat(home).isEqualTo(new Raw(200, "{\"Path\":\"/user/alice\"}"));
    Raw made = delegated("PUT", secondWeb(), "user/alice/tok?op=MKDIRS", delegation);
    assertThat(made.status()).as(made.body()).isEqualTo(200);
    assertThat(hops.client().getFileStatus(new Path("/user/alice/tok")).getOwner())
        .isEqualTo("alice");
    Raw renewed = tokenCall(alice, secondWeb(), "RENEWDELEGATIONTOKEN", token);
    assertThat(renewed.status()).as(renewed.body()).isEqualTo(200);
    assertThat(renewed.body()).matches("\\{\"long\":[0-9]+\\}");
    Raw cancelled = tokenCall(alice, secondWeb(), "CANCELDELEGATIONTOKEN", token);
    assertThat(cancelled.status()).as(cancelled.body()).isEqualTo(200);
    Raw afterCancel = home(hopsWeb(), delegation);

    Token<DelegationTokenIdentifier> hdfsToken = tokenFrom(alice, hdfsWeb());
    tokenCall(alice, hdfsWeb(), "CANCELDELEGATIONTOKEN", hdfsToken);
    Raw hdfsAfterCancel = home(hdfsWeb(), hdfsToken.encodeToUrlString());
    assertThat(hdfsAfterCancel.status()).as(hdfsAfterCancel.body()).isEqualTo(403);
    assertThat(afterCancel.status()).as(afterCancel.body()).isEqualTo(403);
    assertThat(normalise(afterCancel.body())).isEqualTo(normalise(hdfsAfterCancel.body()));
  }

  @Test
  void forgedAndMalformedTokensAreRefusedLikeHdfs() throws Exception {
    UserGroupInformation alice = kdc.login("alice");
    Token<DelegationTokenIdentifier> hopsToken = tokenFrom(alice, hopsWeb());
    Token<DelegationTokenIdentifier> hdfsToken = tokenFrom(alice, hdfsWeb());
    String[] answers = new String[4];
    int i = 0;
    for (var t : List.of(hopsToken, hdfsToken)) {
      byte[] password = t.getPassword().clone();
      password[0] ^= 1;
      Token<DelegationTokenIdentifier> forged =
          new Token<>(t.getIdentifier(), password, t.getKind(), t.getService());
      String side = t == hopsToken ? hopsWeb() : hdfsWeb();
      Raw f = home(side, forged.encodeToUrlString());
      Raw m = home(side, "zz");
      answers[i++] = f.status() + " " + normalise(f.body());
      answers[i++] = m.status() + " " + normalise(m.body());
    }
    assertThat(answers[0]).startsWith("403").isEqualTo(answers[2]);
    assertThat(answers[1]).isEqualTo(answers[3]);
  }

  /**
   * The PyPI {@code hdfs} package's {@code TokenClient} (a client with no Kerberos of its own: it
   * sends {@code delegation=} on every call) with a token alice fetched over SPNEGO: directories
   * made, listed, changed, renamed and deleted, a missing path's error, and after the token is
   * cancelled, the refusal; on both sides, the same output.
   */
  @Test
  void pythonClientWithADelegationTokenLikeHdfs() throws Exception {
    String python = WebHdfsPythonClientTest.Python.withHdfsClient();
    assumeTrue(python != null, "python3 is not installed (.ci/run installs it)");
    UserGroupInformation alice = kdc.login("alice");
    String[] outputs = new String[2];
    int i = 0;
    for (String side : new String[] {hopsWeb(), hdfsWeb()}) {
      Token<DelegationTokenIdentifier> token = tokenFrom(alice, side);
      String delegation = token.encodeToUrlString();
      String used =
          WebHdfsPythonClientTest.Python.script(
              python, PYTHON_WITH_TOKEN, "http://" + side, delegation, "use");
      assertThat(tokenCall(alice, side, "CANCELDELEGATIONTOKEN", token).status()).isEqualTo(200);
      String refused =
          WebHdfsPythonClientTest.Python.script(
              python, PYTHON_WITH_TOKEN, "http://" + side, delegation, "refused");
      outputs[i++] = used + refused;
    }
    assertThat(outputs[0])
        .contains(
            "STATUS DIRECTORY 750 alice",
            "LIST d",
            "MODE 700",
            "CONTENT 0 0 2",
            "DELETED True",
            "ERROR File does not exist: /user/alice/py/nope",
            "REFUSED");
    assertThat(normalise(outputs[0])).isEqualTo(normalise(outputs[1]));
    assertThat(hops.client().exists(new Path("/user/alice/py/e"))).isFalse();
    assertThat(hops.client().getFileStatus(new Path("/user/alice/py")).getOwner())
        .isEqualTo("alice");
  }

  private static final String PYTHON_WITH_TOKEN =
      """
      import sys
      from hdfs import TokenClient
      from hdfs.util import HdfsError
      c = TokenClient(sys.argv[1], sys.argv[2])
      if sys.argv[3] == 'use':
          c.makedirs('/user/alice/py/d', permission='750')
          st = c.status('/user/alice/py/d')
          print('STATUS %s %s %s' % (st['type'], st['permission'], st['owner']))
          print('LIST ' + ','.join(c.list('/user/alice/py')))
          c.set_permission('/user/alice/py/d', '700')
          print('MODE ' + c.status('/user/alice/py/d')['permission'])
          s = c.content('/user/alice/py')
          print('CONTENT %d %d %d' % (s['length'], s['fileCount'], s['directoryCount']))
          c.rename('/user/alice/py/d', '/user/alice/py/e')
          print('DELETED %s' % c.delete('/user/alice/py/e'))
          try:
              c.status('/user/alice/py/nope')
          except HdfsError as e:
              print('ERROR ' + str(e).splitlines()[0])
      else:
          try:
              c.status('/user/alice/py')
              print('NOT REFUSED')
          except HdfsError as e:
              print('REFUSED ' + str(e).splitlines()[0])
      """;

  /** A call to {@code url} over SPNEGO, as {@code ugi}. */
  private static Raw spnego(UserGroupInformation ugi, String method, String url) throws Exception {
    return ugi.doAs((PrivilegedExceptionAction<Raw>) () -> raw(method, url, true));
  }

  /**
   * A token operation ({@code RENEWDELEGATIONTOKEN}, {@code CANCELDELEGATIONTOKEN}) on {@code
   * token}, asked of {@code side} by {@code ugi} over SPNEGO.
   */
  private static Raw tokenCall(UserGroupInformation ugi, String side, String op, Token<?> token)
      throws Exception {
    return spnego(
        ugi,
        "PUT",
        "http://" + side + "/webhdfs/v1/?op=" + op + "&token=" + token.encodeToUrlString());
  }

  /** {@code GETHOMEDIRECTORY} on {@code side} with no ticket, {@code delegation} its credential. */
  private static Raw home(String side, String delegation) throws Exception {
    return delegated("GET", side, "?op=GETHOMEDIRECTORY", delegation);
  }

  /**
   * {@code pathAndOp} (below {@code /webhdfs/v1/}) on {@code side} with no ticket, {@code
   * delegation} (an encoded token) its credential.
   */
  private static Raw delegated(String method, String side, String pathAndOp, String delegation)
      throws Exception {
    return raw(
        method, "http://" + side + "/webhdfs/v1/" + pathAndOp + "&delegation=" + delegation, false);
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
