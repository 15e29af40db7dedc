package io.hops.bench.client;

import java.util.Properties;

/**
 * What building the namespace did: directories and files created, the failures (with their
 * messages), the threads that are ready to run and how long it took.
 */
public record SetupResult(
    long dirs, long files, OpStats failures, int threadsReady, int threads, long millis) {

  public SetupResult merge(SetupResult o) {
    OpStats f = failures.copy();
    f.add(o.failures);
    return new SetupResult(
        dirs + o.dirs,
        files + o.files,
        f,
        threadsReady + o.threadsReady,
        threads + o.threads,
        Math.max(millis, o.millis));
  }

  public static SetupResult empty() {
    return new SetupResult(0, 0, new OpStats(), 0, 0, 0);
  }

  public Properties encode() {
    Properties p = new Properties();
    p.setProperty("dirs", String.valueOf(dirs));
    p.setProperty("files", String.valueOf(files));
    p.setProperty("threads.ready", String.valueOf(threadsReady));
    p.setProperty("threads", String.valueOf(threads));
    p.setProperty("ms", String.valueOf(millis));
    failures.encode(p, "failures.");
    return p;
  }

  public static SetupResult decode(Properties p) {
    return new SetupResult(
        Long.parseLong(p.getProperty("dirs", "0")),
        Long.parseLong(p.getProperty("files", "0")),
        OpStats.decode(p, "failures."),
        Integer.parseInt(p.getProperty("threads.ready", "0")),
        Integer.parseInt(p.getProperty("threads", "0")),
        Long.parseLong(p.getProperty("ms", "0")));
  }
}
