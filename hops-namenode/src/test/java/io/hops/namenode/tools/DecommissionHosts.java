package io.hops.namenode.tools;

import io.hops.namenode.config.NamenodeConfig;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;

/**
 * The include and exclude files of a decommission test side by side, empty at first, and the
 * settings that have both systems read them and act within seconds.
 */
record DecommissionHosts(Path include, Path exclude) {
  /** Two empty files in a new temporary directory. */
  static DecommissionHosts empty() {
    try {
      Path dir = Files.createTempDirectory("hops-hosts-");
      DecommissionHosts hosts =
          new DecommissionHosts(dir.resolve("include"), dir.resolve("exclude"));
      Files.writeString(hosts.include, "");
      Files.writeString(hosts.exclude, "");
      return hosts;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** Both namenodes' settings: these hosts files, one-second heartbeats and scans. */
  Configuration conf() {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    conf.setInt("dfs.heartbeat.interval", 1);
    conf.setInt("dfs.namenode.decommission.interval", 1);
    conf.setInt("dfs.namenode.redundancy.interval.seconds", 1);
    conf.setLong(NamenodeConfig.HOUSEKEEPING_INTERVAL_MS, 300);
    conf.set("dfs.hosts", include.toString());
    conf.set("dfs.hosts.exclude", exclude.toString());
    return conf;
  }
}
