package io.hops.namenode.web;

import io.hops.namenode.config.NamenodeConfig;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.http.HttpServer2;
import org.apache.hadoop.http.PrometheusServlet;
import org.apache.hadoop.metrics2.lib.DefaultMetricsSystem;
import org.apache.hadoop.metrics2.sink.PrometheusMetricsSink;

/**
 * Hadoop's {@code /prom} (its {@link PrometheusServlet} over a {@link PrometheusMetricsSink}), on
 * by default on a namenode ({@value #ENABLED}). HttpServer2 would register one sink per server
 * under one name, so in a JVM with several namenodes (tests, {@code bin/hops cluster}) only the
 * first would show anything, and a stopped server's sink stays registered; here the JVM has one
 * sink, which every namenode's {@code /prom} shows, as {@code /jmx} shows the JVM's MBean server.
 */
final class PrometheusEndpoint {
  static final String ENABLED = "hadoop.prometheus.endpoint.enabled";

  /** HttpServer2's context attribute that {@link PrometheusServlet} reads the sink from. */
  private static final String SINK_ATTRIBUTE = "PROMETHEUS_SINK";

  private static PrometheusMetricsSink sink;

  private PrometheusEndpoint() {}

  /**
   * Whether {@code conf} asks for {@code /prom}; hops's default is yes. Hadoop's {@code
   * core-default.xml} says false, which a configuration that loads the defaults ({@code bin/hops})
   * holds: only a site file or the caller turns it off.
   */
  static boolean enabled(Configuration conf) {
    return NamenodeConfig.isDefault(conf, ENABLED) || conf.getBoolean(ENABLED, true);
  }

  /**
   * Serves {@code /prom} of a server built from {@code conf} and not yet started from the JVM's
   * sink; the metrics system must be initialised. HttpServer2 adds the servlet itself when the key
   * is set to true (its own sink then stays unused); hops adds it when the key is unset or has
   * core-default.xml's false.
   */
  static void addTo(HttpServer2 server, Configuration conf) {
    server.setAttribute(SINK_ATTRIBUTE, sink());
    if (!conf.getBoolean(ENABLED, false)) {
      server.addServlet("prometheus", "/prom", PrometheusServlet.class);
    }
  }

  private static synchronized PrometheusMetricsSink sink() {
    if (sink == null) {
      sink = new PrometheusMetricsSink();
      DefaultMetricsSystem.instance()
          .register("hops-prometheus", "Hadoop metrics prometheus exporter", sink);
    }
    return sink;
  }
}
