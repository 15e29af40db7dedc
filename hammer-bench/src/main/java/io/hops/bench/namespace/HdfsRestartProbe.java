package io.hops.bench.namespace;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.ContentSummary;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.HdfsConstants.SafeModeAction;

/**
 * Starts an Apache HDFS NameNode process over a name directory (one {@link HdfsImageBuilder} made)
 * and measures its restart: from the process's start to the first {@code getFileInfo} and listing
 * of {@link BigNamespace#BASE} answered to a stock client polling every 20 ms, and to the end of
 * safe mode; the fsimage load time its log gives; the files and directories below {@link
 * BigNamespace#BASE} ({@code getContentSummary}); then, after a full collection ({@code jcmd
 * GC.run}), the heap in use ({@code jcmd GC.heap_info}) and the RSS. The NameNode is left running
 * when {@code --keep} is given (its pid and address printed), for a workload to run on it.
 *
 * <p>{@code java -cp ... io.hops.bench.namespace.HdfsRestartProbe NAME_DIR HEAP [--keep]}
 */
public final class HdfsRestartProbe {
  private static final Pattern HEAP_USED = Pattern.compile("total (\\d+)K, used (\\d+)K");
  private static final Pattern RSS = Pattern.compile("VmRSS:\\s+(\\d+) kB");

  private HdfsRestartProbe() {}

  /** What a restart measured. */
  public record Restart(
      long pid,
      String uri,
      double firstAnswerSeconds,
      double outOfSafeModeSeconds,
      String imageLoad,
      long heapUsedKb,
      long rssKb,
      long files,
      long dirs) {}

  /** Starts the NameNode over {@code nameDir} with a heap of {@code heap} and measures it. */
  public static Restart restart(File nameDir, String heap, Path logFile)
      throws IOException, InterruptedException {
    int port;
    try (ServerSocket s = new ServerSocket(0)) {
      port = s.getLocalPort();
    }
    Configuration nnConf = HdfsImageBuilder.namenodeConf(nameDir, port);
    Path confDir = Files.createDirectories(logFile.getParent().resolve("hdfs-restart-conf"));
    try (OutputStream out = Files.newOutputStream(confDir.resolve("hdfs-site.xml"))) {
      nnConf.writeXml(out);
    }
    List<String> cmd = new ArrayList<>();
    cmd.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    cmd.add("-Xms" + heap);
    cmd.add("-Xmx" + heap);
    cmd.add("-Dorg.slf4j.simpleLogger.showDateTime=true");
    cmd.add("-Dorg.slf4j.simpleLogger.log.FSNamesystem.audit=warn");
    cmd.add("-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.hdfs.server.namenode=info");
    cmd.add("-Dorg.slf4j.simpleLogger.log.org.apache.hadoop.hdfs.StateChange=info");
    cmd.add("-cp");
    cmd.add(confDir + File.pathSeparator + System.getProperty("java.class.path"));
    cmd.add("org.apache.hadoop.hdfs.server.namenode.NameNode");
    long t0 = System.nanoTime();
    Process p =
        new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(logFile.toFile()).start();
    String uri = "hdfs://127.0.0.1:" + port;
    Configuration client = new Configuration();
    client.setBoolean("fs.hdfs.impl.disable.cache", true);
    client.setInt("ipc.client.connect.max.retries", 0);
    double first = -1;
    double safe = -1;
    while (safe < 0) {
      if (!p.isAlive()) {
        throw new IOException("the NameNode exited; its log: " + logFile);
      }
      try (DistributedFileSystem fs =
          (DistributedFileSystem) FileSystem.newInstance(URI.create(uri), client)) {
        if (first < 0) {
          fs.getFileStatus(BigNamespace.BASE);
          fs.listStatusIterator(BigNamespace.BASE).hasNext();
          first = (System.nanoTime() - t0) / 1e9;
        }
        if (!fs.setSafeMode(SafeModeAction.SAFEMODE_GET)) {
          safe = (System.nanoTime() - t0) / 1e9;
        }
      } catch (IOException notYet) {
        // not listening or not loaded yet
      }
      if (safe < 0) {
        Thread.sleep(20);
      }
    }
    ContentSummary summary;
    try (FileSystem fs = FileSystem.newInstance(URI.create(uri), client)) {
      summary = fs.getContentSummary(BigNamespace.BASE);
    }
    jcmd(p.pid(), "GC.run");
    String heapInfo = jcmd(p.pid(), "GC.heap_info");
    Matcher m = HEAP_USED.matcher(heapInfo);
    long used = m.find() ? Long.parseLong(m.group(2)) : -1;
    String status = Files.readString(Path.of("/proc", String.valueOf(p.pid()), "status"));
    Matcher r = RSS.matcher(status);
    long rss = r.find() ? Long.parseLong(r.group(1)) : -1;
    String imageLoad =
        logLine(logFile, "Loaded FSImage in").orElse("")
            + " | "
            + logLine(logFile, "Finished loading FSImage in").orElse("");
    return new Restart(
        p.pid(),
        uri,
        first,
        safe,
        imageLoad,
        used,
        rss,
        summary.getFileCount(),
        summary.getDirectoryCount());
  }

  private static Optional<String> logLine(Path log, String text) throws IOException {
    return Files.readAllLines(log, StandardCharsets.UTF_8).stream()
        .filter(l -> l.contains(text))
        .findFirst();
  }

  private static String jcmd(long pid, String command) throws IOException, InterruptedException {
    Process j =
        new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "jcmd").toString(),
                String.valueOf(pid),
                command)
            .redirectErrorStream(true)
            .start();
    String out = new String(j.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    j.waitFor(5, TimeUnit.MINUTES);
    return out;
  }

  public static void main(String[] args) throws Exception {
    if (args.length < 2) {
      System.err.println("usage: HdfsRestartProbe NAME_DIR HEAP [--keep]");
      System.exit(2);
    }
    File nameDir = new File(args[0]).getAbsoluteFile();
    boolean keep = args.length > 2 && args[2].equals("--keep");
    Path log = nameDir.toPath().resolveSibling("hdfs-restart.log");
    Restart r = restart(nameDir, args[1], log);
    long image = 0;
    try (var files = Files.walk(nameDir.toPath())) {
      for (Path f : files.filter(f -> f.getFileName().toString().startsWith("fsimage_")).toList()) {
        if (!f.getFileName().toString().endsWith(".md5")) {
          image = Math.max(image, Files.size(f));
        }
      }
    }
    System.out.printf(
        "%d files and %d directories below %s; pid %d at %s: first answer %.2f s, out of safe mode %.2f s; %s; heap used after a full"
            + " GC %d KB; RSS %d KB; fsimage %d bytes; log %s%n",
        r.files(),
        r.dirs(),
        BigNamespace.BASE,
        r.pid(),
        r.uri(),
        r.firstAnswerSeconds(),
        r.outOfSafeModeSeconds(),
        r.imageLoad(),
        r.heapUsedKb(),
        r.rssKb(),
        image,
        log);
    if (!keep) {
      ProcessHandle.of(r.pid()).ifPresent(ProcessHandle::destroy);
    }
  }
}
