package io.hops.bench.cluster;

import io.hops.common.net.FreePorts;
import io.hops.namenode.cli.NamenodeJvm;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Hadoop configuration directories for the processes the benchmark starts, and free ports. */
final class SiteFiles {
  /**
   * The processes' own logging: warnings and errors only (slf4j-simple reads its settings from
   * system properties; Hadoop's log4j from {@code log4j.properties} in the configuration directory,
   * which is first on the classpath). Per-operation audit logging is therefore off in both systems.
   */
  static final String QUIET_LOGGING = "-Dorg.slf4j.simpleLogger.defaultLogLevel=warn";

  private SiteFiles() {}

  /**
   * A namenode's heap, hops' and HDFS's alike: fixed at {@code heap} from the start ({@code -Xms}
   * and {@code -Xmx}), as operators run namenodes. A heap left to grow from the JVM's initial size
   * grows under the parallel collector by full collections, each a second or more of both cores
   * once the caches hold a few hundred MB, and falls into whichever phase is running then (stop 45
   * in docs/benchmarks.md).
   */
  static List<String> heap(String heap) {
    return List.of("-Xms" + heap, "-Xmx" + heap);
  }

  /**
   * The JVM options of a hops namenode process: its {@link #heap}, quiet logging, and what {@code
   * bin/hops namenode} gives it ({@link NamenodeJvm#OPTIONS}). HDFS's NameNode gets the heap and
   * quiet logging only, as its own scripts start it.
   */
  static List<String> namenodeJvm(String heap) {
    List<String> jvm = new ArrayList<>(heap(heap));
    jvm.add(QUIET_LOGGING);
    jvm.addAll(NamenodeJvm.OPTIONS);
    return jvm;
  }

  /**
   * A namenode's JVM options as the report states them: those it is started with, less the quiet
   * logging ({@code -Xms2g -Xmx2g -XX:+UseParallelGC} for hops, {@code -Xms2g -Xmx2g} for HDFS).
   */
  static String shown(List<String> jvm) {
    return String.join(" ", jvm.stream().filter(o -> !o.equals(QUIET_LOGGING)).toList());
  }

  /** A configuration directory with {@code core-site.xml}, {@code hdfs-site.xml} and logging. */
  static Path write(Path dir, Map<String, String> core, Map<String, String> hdfs)
      throws IOException {
    Files.createDirectories(dir);
    Files.writeString(dir.resolve("core-site.xml"), xml(core), StandardCharsets.UTF_8);
    Files.writeString(dir.resolve("hdfs-site.xml"), xml(hdfs), StandardCharsets.UTF_8);
    Files.writeString(
        dir.resolve("log4j.properties"),
        "log4j.rootLogger=WARN,console\n"
            + "log4j.appender.console=org.apache.log4j.ConsoleAppender\n"
            + "log4j.appender.console.target=System.err\n"
            + "log4j.appender.console.layout=org.apache.log4j.PatternLayout\n"
            + "log4j.appender.console.layout.ConversionPattern=%d %p %c: %m%n\n",
        StandardCharsets.UTF_8);
    return dir;
  }

  private static String xml(Map<String, String> properties) {
    StringBuilder b = new StringBuilder("<?xml version=\"1.0\"?>\n<configuration>\n");
    properties.forEach(
        (k, v) ->
            b.append("  <property><name>")
                .append(escape(k))
                .append("</name><value>")
                .append(escape(v))
                .append("</value></property>\n"));
    return b.append("</configuration>\n").toString();
  }

  private static String escape(String s) {
    return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
  }

  /** A port nobody listens on now, outside the ephemeral range where it can ({@link FreePorts}). */
  static int freePort() throws IOException {
    return FreePorts.pick();
  }

  static String loopback(int port) {
    return "127.0.0.1:" + port;
  }
}
