package io.hops.bench.client;

import io.hops.bench.namespace.NamespaceSpec;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * Everything one client session (a JVM's worth of client threads) needs: where the file system is
 * and how to reach it, how many threads, which part of the namespace is theirs.
 *
 * @param uri the file system, e.g. {@code hdfs://127.0.0.1:8020}
 * @param conf Hadoop client settings on top of the defaults
 * @param threads client threads in this session
 * @param processIndex this session's number among the client processes (names its threads' trees)
 * @param baseDir the run's directory; thread {@code t} of process {@code p} owns {@code
 *     baseDir/cP-tT}
 * @param user run as this (simple authentication) user; null for the process's own
 * @param graceMillis how long after a phase's end a thread may take to return from its last
 *     operation before it is given up as stuck
 * @param setupTimeoutMillis the longest building the namespace may take
 */
public record ClientSpec(
    String uri,
    Map<String, String> conf,
    int threads,
    int processIndex,
    String baseDir,
    NamespaceSpec namespace,
    long seed,
    String user,
    long graceMillis,
    long setupTimeoutMillis) {

  public ClientSpec {
    conf = Map.copyOf(conf);
    if (threads < 1) {
      throw new IllegalArgumentException("at least one client thread is needed");
    }
  }

  /** This spec aimed at a file system. */
  public ClientSpec withTarget(String uri, Map<String, String> conf) {
    return new ClientSpec(
        uri,
        conf,
        threads,
        processIndex,
        baseDir,
        namespace,
        seed,
        user,
        graceMillis,
        setupTimeoutMillis);
  }

  public ClientSpec forProcess(int index) {
    return new ClientSpec(
        uri,
        conf,
        threads,
        index,
        baseDir,
        namespace,
        seed + 7919L * index,
        user,
        graceMillis,
        setupTimeoutMillis);
  }

  public Properties encode() {
    Properties p = new Properties();
    p.setProperty("uri", uri);
    conf.forEach((k, v) -> p.setProperty("conf." + k, v));
    p.setProperty("threads", String.valueOf(threads));
    p.setProperty("process", String.valueOf(processIndex));
    p.setProperty("base", baseDir);
    namespace.toProperties().forEach(p::setProperty);
    p.setProperty("seed", String.valueOf(seed));
    if (user != null) {
      p.setProperty("user", user);
    }
    p.setProperty("grace.ms", String.valueOf(graceMillis));
    p.setProperty("setup.timeout.ms", String.valueOf(setupTimeoutMillis));
    return p;
  }

  public static ClientSpec decode(Properties p) {
    Map<String, String> conf = new LinkedHashMap<>();
    for (String k : p.stringPropertyNames()) {
      if (k.startsWith("conf.")) {
        conf.put(k.substring(5), p.getProperty(k));
      }
    }
    return new ClientSpec(
        p.getProperty("uri"),
        conf,
        Integer.parseInt(p.getProperty("threads")),
        Integer.parseInt(p.getProperty("process")),
        p.getProperty("base"),
        NamespaceSpec.SPOTIFY.with(p),
        Long.parseLong(p.getProperty("seed")),
        p.getProperty("user"),
        Long.parseLong(p.getProperty("grace.ms")),
        Long.parseLong(p.getProperty("setup.timeout.ms")));
  }
}
