package io.hops.namenode.web;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.security.TestKdc;
import io.hops.namenode.web.WebUiTest.Chromium;
import java.io.File;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;

/**
 * The web UI of a kerberized namenode in a real browser with a ticket, as a user opens it after
 * {@code kinit}: headless Chromium answers SPNEGO from an MIT ticket cache, so the overview (its
 * scripts' calls to {@code /jmx} included) loads and WebHDFS names the ticket's user; the
 * administrators' page ({@code /logLevel}) stays closed to a user who is not one; a browser without
 * a ticket is refused (401) on every page.
 */
class KerberosWebUiTest {
  private static final String HOME = "/webhdfs/v1/?op=GETHOMEDIRECTORY";

  @Test
  void aBrowserWithATicketSeesTheUiAndOneWithoutIsRefused() throws Exception {
    String chromium = Chromium.find();
    assumeTrue(
        chromium != null, "chromium is not installed (.ci/run installs it): no browser test");
    try (TestKdc kdc = TestKdc.start("hops-kerberos-ui", "hdfs/localhost", "HTTP/localhost")) {
      File aliceKeytab = kdc.keytab("alice.keytab", "alice");
      Map<String, String> ticket = kdc.ticketCache("alice", aliceKeytab);
      assumeTrue(ticket != null, "kinit is not installed (.ci/run installs krb5-user)");
      Configuration conf = kdc.services("localhost");
      conf.set("hadoop.http.authentication.type", "kerberos");
      // HttpServer2's administrator check applies only with service authorization on, as in HDFS
      conf.setBoolean("hadoop.security.authorization", true);
      conf.set("dfs.cluster.administrators", "hdfs");
      UserGroupInformation.setConfiguration(conf);
      try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
        cluster.client().mkdirs(new Path("/user/alice"));
        String web = "http://localhost:" + cluster.namenode().httpAddress().getPort();

        try (BrowserSession browser = BrowserSession.start(chromium, ticket)) {
          // Chromium loads its GSSAPI library on the first Negotiate challenge and answers that
          // one with nothing (net error -339 in its net log): a user would reload, and so do we.
          browser.open(web + HOME, dom -> true);
          String home = browser.open(web + HOME, dom -> dom.contains("Path"));
          assertThat(home).contains("{\"Path\":\"/user/alice\"}");
          String overview = browser.open(web + "/", dom -> dom.contains("embedded, healthy"));
          assertThat(overview).contains("hops namenode", "Metadata store", "embedded, healthy");
          // alice is no administrator (dfs.cluster.administrators): HDFS's 403 on /logLevel
          assertThat(browser.open(web + "/logLevel?log=root", dom -> true))
              .contains("403", "Unauthenticated users are not authorized to access this page.");
        }

        Map<String, String> noTicket = new HashMap<>(ticket);
        noTicket.put("KRB5CCNAME", "FILE:" + new File(kdc.dir(), "no-such-cache"));
        try (BrowserSession browser = BrowserSession.start(chromium, noTicket)) {
          browser.open(web + HOME, dom -> true);
          for (String page : new String[] {HOME, "/", "/jmx"}) {
            String refused = browser.open(web + page, dom -> true);
            assertThat(refused).as(page).contains("401").doesNotContain("/user/alice");
          }
        }
      }
    }
  }
}
