package io.hops.namenode.web;

import io.hops.namenode.NamenodeConfig;
import io.hops.namenode.Namesystem;
import io.hops.namenode.rpc.SafeMode;
import io.hops.namenode.web.webhdfs.WebHdfsServlet;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.http.HttpServer2;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The namenode's HTTP server (Hadoop's HttpServer2): {@code /fsck} for the stock {@code hdfs fsck},
 * the web UI ({@code /} overview, {@code /datanodes}, {@code /browse} namespace browser, {@code
 * /logs.html}), WebHDFS ({@code /webhdfs/v1}, {@link WebHdfsServlet}), and what HttpServer2 brings:
 * {@code /jmx}, {@code /conf}, {@code /stacks}, {@code /logLevel}, and {@code /prom} ({@link
 * PrometheusEndpoint}). Port {@value NamenodeConfig#HTTP_PORT} (0 picks a free one, -1: no server);
 * it binds the RPC server's host.
 */
public final class WebServer implements AutoCloseable {
  static final String NAMESYSTEM = "hops.namesystem";
  static final String SAFE_MODE = "hops.safemode";
  static final String RPC_URI = "hops.rpc.uri";
  static final String STARTED = "hops.started";
  static final String METRICS = "hops.metrics";

  private static final Logger LOG = LoggerFactory.getLogger(WebServer.class);

  private final HttpServer2 server;
  private final InetSocketAddress address;

  private WebServer(HttpServer2 server) {
    this.server = server;
    this.address = server.getConnectorAddress(0);
  }

  /** Starts the server, or returns null if the port is -1. */
  public static WebServer startOrNull(
      Configuration conf,
      Namesystem ns,
      ClientProtocol clientProtocol,
      SafeMode safeMode,
      String bindHost,
      String rpcUri)
      throws IOException {
    int port = conf.getInt(NamenodeConfig.HTTP_PORT, NamenodeConfig.HTTP_PORT_DEFAULT);
    if (port < 0) {
      return null;
    }
    HttpServer2 server =
        new HttpServer2.Builder()
            .setName("hops")
            .setConf(conf)
            .addEndpoint(URI.create("http://" + bindHost + ":" + port))
            .setFindPort(false)
            .build();
    server.setAttribute(NAMESYSTEM, ns);
    server.setAttribute(SAFE_MODE, safeMode);
    server.setAttribute(RPC_URI, rpcUri);
    server.setAttribute(STARTED, System.currentTimeMillis());
    server.addServlet("fsck", "/fsck", FsckServlet.class);
    server.addServlet("status", "/", StatusServlet.class);
    server.addServlet("datanodes", "/datanodes", DatanodesServlet.class);
    server.addServlet("browse", "/browse", BrowseServlet.class);
    server.addServlet("logs-page", "/logs.html", LogsServlet.class);
    WebHdfsServlet.addTo(server, conf, ns, clientProtocol, rpcUri);
    if (PrometheusEndpoint.enabled(conf)) {
      PrometheusEndpoint.addTo(server, conf);
    }
    server.start();
    return new WebServer(server);
  }

  /** The namenode's metrics, made after the server starts (the overview shows recent rates). */
  public void showMetrics(io.hops.namenode.metrics.NamenodeMetrics metrics) {
    server.setAttribute(METRICS, metrics);
  }

  public InetSocketAddress address() {
    return address;
  }

  /** {@code http://host:port}. */
  public String uri() {
    return "http://" + address().getHostString() + ":" + address().getPort();
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
