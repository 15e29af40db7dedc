package io.hops.namenode.web;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.shell.Processes;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HdfsConfiguration;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code /prom} is on by default on a namenode (docs/metrics.md), whatever Hadoop's {@code
 * core-default.xml} says, and a site file or the caller turns it off or on (issue 62).
 */
class PrometheusEndpointTest {
  @TempDir Path dir;

  @Test
  void onUnlessASiteFileOrTheCallerTurnsItOffThoughCoreDefaultSaysOff() throws Exception {
    Configuration defaults = new HdfsConfiguration();
    assertThat(defaults.getBoolean(PrometheusEndpoint.ENABLED, true))
        .as("Hadoop's core-default.xml")
        .isFalse();
    assertThat(PrometheusEndpoint.enabled(defaults)).isTrue();
    assertThat(PrometheusEndpoint.enabled(new Configuration(false))).isTrue();

    assertThat(PrometheusEndpoint.enabled(withSite(PrometheusEndpoint.ENABLED, "false"))).isFalse();
    assertThat(PrometheusEndpoint.enabled(withSite(PrometheusEndpoint.ENABLED, "true"))).isTrue();
    Configuration caller = new HdfsConfiguration();
    caller.setBoolean(PrometheusEndpoint.ENABLED, false);
    assertThat(PrometheusEndpoint.enabled(caller)).isFalse();
  }

  private Configuration withSite(String key, String value) throws Exception {
    Path site =
        Files.writeString(dir.resolve("hdfs-site-" + value + ".xml"), Processes.site(key, value));
    Configuration conf = new HdfsConfiguration();
    conf.addResource(new org.apache.hadoop.fs.Path(site.toUri()));
    return conf;
  }
}
