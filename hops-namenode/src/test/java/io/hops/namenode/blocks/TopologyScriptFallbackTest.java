package io.hops.namenode.blocks;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.config.NamenodeConfig;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.protocol.DatanodeInfo;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.DatanodeReportType;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A datanode's rack comes from the topology script ({@code net.topology.script.file.name}, Hadoop's
 * ScriptBasedMapping, the default mapping) when it registers; a script that fails, prints the wrong
 * number of locations or something that is not a location, or hangs, gives HDFS's fallback, {@code
 * /default-rack}, and the datanode registers all the same, promptly.
 */
class TopologyScriptFallbackTest {
  @TempDir Path dir;

  @ParameterizedTest(name = "{0}")
  @CsvSource(
      delimiter = '|',
      value = {
        "a location      | echo /dc1/rack7    | /dc1/rack7",
        "a failure       | exit 3             | /default-rack",
        "two locations   | echo /r1 /r2       | /default-rack",
        "not a location  | echo garbage       | /default-rack",
        "no output       | true               | /default-rack",
        "a hang          | exec sleep 8       | /default-rack",
      })
  void theScriptGivesTheRackOrHdfsFallback(String what, String body, String expected)
      throws Exception {
    Path script = dir.resolve("topology.sh");
    Files.writeString(script, "#!/bin/sh\n" + body + "\n");
    Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwx------"));
    Configuration conf = new Configuration(false);
    conf.set(CommonConfigurationKeysPublic.NET_TOPOLOGY_SCRIPT_FILE_NAME_KEY, script.toString());
    conf.setLong(NamenodeConfig.TOPOLOGY_RESOLVE_TIMEOUT_MS, 1000);
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      long start = System.nanoTime();
      cluster.startDatanodes(1);
      long seconds = (System.nanoTime() - start) / 1_000_000_000L;
      assertThat(seconds).as("registered promptly").isLessThan(20);
      try (var fs = cluster.client()) {
        DatanodeInfo[] live = fs.getClient().datanodeReport(DatanodeReportType.LIVE);
        assertThat(live).hasSize(1);
        assertThat(live[0].getNetworkLocation()).as(what).isEqualTo(expected);
      }
    }
  }
}
