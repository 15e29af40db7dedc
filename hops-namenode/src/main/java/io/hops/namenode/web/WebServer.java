package io.hops.namenode.web;

import io.hops.dal.Storage;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.config.NamenodeConfig;
import io.hops.namenode.security.DelegationTokens;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import io.hops.namenode.web.webhdfs.WebHdfsServlet;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.DFSUtil;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenIdentifier;
import org.apache.hadoop.hdfs.server.common.TokenVerifier;
import org.apache.hadoop.http.HttpConfig;
import org.apache.hadoop.http.HttpServer2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's HTTP server (Hadoop's HttpServer2): {@code /fsck} for the stock {@code hdfs fsck},
 * the web UI ({@code /} overview, {@code /datanodes}, {@code /browse} namespace browser, {@code
 * /logs.html}), WebHDFS ({@code /webhdfs/v1}, {@link WebHdfsServlet}), and what HttpServer2 brings:
 * {@code /jmx}, {@code /conf}, {@code /stacks}, {@code /logLevel}, {@code /logs/}, and {@code
 * /prom} ({@link PrometheusEndpoint}). Port {@value NamenodeConfig#HTTP_PORT} (0 picks a free one,
 * -1: no server); it binds the RPC server's host.
 *
 * <p>Built from HDFS's own template ({@code DFSUtil.getHttpServerTemplate}), so security is HDFS's:
 * one authentication filter in front of every page ({@code hadoop.http.authentication.*}: simple
 * with {@code user.name}, or SPNEGO), the administrators of {@code dfs.cluster.administrators} for
 * {@code /logs}, {@code /logLevel} and, with {@code
 * hadoop.security.instrumentation.requires.admin}, {@code /conf}, {@code /jmx}, {@code /stacks};
 * {@code dfs.http.policy} for HTTP, HTTPS ({@link HttpsSettings}) or both. docs/security.md,
 * "HTTP".
 */
public final class WebServer implements AutoCloseable {
  /** The namenode's configuration (HttpServer2 keeps its own copy, with its filters'). */
  static final String CONF = "hops.conf";

  static final String STORAGE = "hops.storage";
  static final String RUNNER = "hops.runner";
  static final String BLOCKS = "hops.blocks";
  static final String CHECKERS = "hops.checkers";
  static final String FSCK = "hops.fsck";
  static final String RPC_URI = "hops.rpc.uri";
  static final String STARTED = "hops.started";
  static final String METRICS = "hops.metrics";

  /** Where HDFS's {@code JspHelper} finds the verifier of {@code delegation=} tokens. */
  private static final String TOKEN_VERIFIER = "name.node";

  /** Where HDFS's {@code JspHelper} finds the RPC address a token's service names. */
  private static final String RPC_ADDRESS = "name.node.address";

  private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

  private final HttpServer2 server;
  private final InetSocketAddress httpAddress;
  private final InetSocketAddress httpsAddress;

  private WebServer(HttpServer2 server, HttpConfig.Policy policy) {
    this.server = server;
    int connector = 0;
    this.httpAddress = policy.isHttpEnabled() ? server.getConnectorAddress(connector++) : null;
    this.httpsAddress = policy.isHttpsEnabled() ? server.getConnectorAddress(connector) : null;
  }

  /**
   * Starts the server, or returns null if the port is -1. The pages show {@code storage}, the
   * metrics of {@code runner}'s operations, and {@code blocks}' datanodes and leadership; {@code
   * /fsck} runs {@code fsck} with the caller's permissions from {@code checkers}; {@code
   * delegationTokens} verify the {@code delegation=} tokens of requests; WebHDFS calls {@code
   * clientProtocol}, the RPC server's own.
   */
  public static WebServer startOrNull(
      Configuration conf,
      Storage storage,
      TransactionRunner runner,
      BlockManager blocks,
      PermissionCheckers checkers,
      DelegationTokens delegationTokens,
      FsckServlet.Walk fsck,
      ClientProtocol clientProtocol,
      String bindHost,
      String rpcUri)
      throws IOException {
    int port = conf.getInt(NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTP_PORT_DEFAULT);
    if (port < 0) {
      return null;
    }
    // HDFS's template writes into the configuration it is given (its filter initializers).
    Configuration c = new Configuration(conf);
    HttpConfig.Policy policy = DFSUtil.getHttpPolicy(c);
    int httpsPort = conf.getInt(NamenodeConfig.HTTPS_PORT, NamenodeConfig.HTTPS_PORT_DEFAULT);
    if (policy.isHttpsEnabled()) {
      HttpsSettings.check(c);
    }
    WebAuthentication.settle(c);
    HttpServer2 server =
        DFSUtil.getHttpServerTemplate(
                c,
                new InetSocketAddress(bindHost, port),
                new InetSocketAddress(bindHost, httpsPort),
                "hops",
                DFSConfigKeys.DFS_NAMENODE_KERBEROS_INTERNAL_SPNEGO_PRINCIPAL_KEY,
                DFSConfigKeys.DFS_NAMENODE_KEYTAB_FILE_KEY)
            .setFindPort(false)
            .build();
    try {
      server.setAttribute(CONF, conf);
      server.setAttribute(STORAGE, storage);
      server.setAttribute(RUNNER, runner);
      server.setAttribute(BLOCKS, blocks);
      server.setAttribute(CHECKERS, checkers);
      server.setAttribute(FSCK, fsck);
      server.setAttribute(RPC_URI, rpcUri);
      server.setAttribute(STARTED, System.currentTimeMillis());
      URI rpc = URI.create(rpcUri);
      server.setAttribute(RPC_ADDRESS, new InetSocketAddress(rpc.getHost(), rpc.getPort()));
      TokenVerifier<DelegationTokenIdentifier> verifier = delegationTokens::verifyToken;
      server.setAttribute(TOKEN_VERIFIER, verifier);
      server.addServlet("fsck", "/fsck", FsckServlet.class);
      server.addServlet("status", "/", StatusServlet.class);
      server.addServlet("datanodes", "/datanodes", DatanodesServlet.class);
      server.addServlet("browse", "/browse", BrowseServlet.class);
      server.addServlet("logs-page", "/logs.html", LogsServlet.class);
      WebHdfsServlet.addTo(server, c, conf, blocks.datanodes(), clientProtocol, rpcUri);
      if (PrometheusEndpoint.enabled(c)) {
        PrometheusEndpoint.addTo(server, c);
      }
      server.start();
    } catch (IOException | RuntimeException e) {
      stopQuietly(server); // nothing half-started: a connector that opened is closed again
      throw e;
    }
    return new WebServer(server, policy);
  }

  private static void stopQuietly(HttpServer2 server) {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.debug("stopping an HTTP server that failed to start", e);
    }
  }

  /** The namenode's metrics, made after the server starts (the overview shows recent rates). */
  public void showMetrics(io.hops.namenode.metrics.NamenodeMetrics metrics) {
    server.setAttribute(METRICS, metrics);
  }

  /** The address clients reach first: HTTP's, or HTTPS's under {@code HTTPS_ONLY}. */
  public InetSocketAddress address() {
    return httpAddress != null ? httpAddress : httpsAddress;
  }

  /** The HTTPS address ({@code dfs.namenode.https-address} as HDFS reports it), or null. */
  public InetSocketAddress httpsAddress() {
    return httpsAddress;
  }

  /** {@code http://host:port}, or {@code https://host:port} under {@code HTTPS_ONLY}. */
  public String uri() {
    return (httpAddress != null ? "http://" : "https://")
        + address().getHostString()
        + ":"
        + address().getPort();
  }

  @Override
  public void close() {
    try {
      server.stop();
    } catch (Exception e) {
      LOG.warn("stopping the HTTP server at {}", uri(), e); // the namenode stops all the same
    }
  }
}
