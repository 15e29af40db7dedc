package io.hops.bench.workload;

import java.io.IOException;
import java.io.InputStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/**
 * A MIXED workload: each operation's share of all operations, in percent. Read from a properties
 * file of {@code operation=percent} lines (keys with a dot, such as {@code namespace.depth}, belong
 * to the namespace and are skipped here). Four ship with the tool: {@code spotify}, {@code
 * write-heavy}, {@code hot-dir} and {@code big-dir}. {@code workload.shared-directory=true} makes
 * every thread create its files in one directory they all share, and stat and delete only those;
 * {@code workload.big-directory=true} runs every operation in {@link
 * io.hops.bench.namespace.BigDirectory}, made before the run with {@code
 * workload.big-directory.files} files.
 */
public record Mix(String name, Map<Op, Double> percents, Properties source) {
  /** The directory a shared-directory mix works in, next to the threads' own trees. */
  public static final String SHARED_DIRECTORY = "hot-dir";

  public static final List<String> BUILTIN =
      List.of("spotify", "write-heavy", "hot-dir", "big-dir");

  /** How many files the big directory was made with (set by the command, not the file). */
  public static final String BIG_DIRECTORY_FILES = "workload.big-directory.files";

  /** Client threads of the whole run, which share out the big directory's first files. */
  public static final String BIG_DIRECTORY_THREADS = "workload.big-directory.threads";

  public Mix {
    Map<Op, Double> copy = new EnumMap<>(Op.class);
    copy.putAll(percents);
    percents = Collections.unmodifiableMap(copy);
    double total = percents.values().stream().mapToDouble(Double::doubleValue).sum();
    if (total <= 0) {
      throw new IllegalArgumentException("workload " + name + " gives no operation a share");
    }
  }

  /**
   * A shipped mix by name, or a properties file. The file's own keys ({@code namespace.*}) come
   * along in {@link #source()}.
   */
  public static Mix load(String nameOrFile) throws IOException {
    String builtin = nameOrFile.toLowerCase(Locale.ROOT);
    if (BUILTIN.contains(builtin)) {
      try (InputStream in =
          Mix.class.getResourceAsStream("/io/hops/bench/workloads/" + builtin + ".properties")) {
        if (in == null) {
          throw new IOException("the " + builtin + " workload is missing from the classpath");
        }
        return parse(builtin, read(new java.io.InputStreamReader(in, StandardCharsets.UTF_8)));
      }
    }
    Path file = Path.of(nameOrFile);
    if (!Files.isRegularFile(file)) {
      throw new IllegalArgumentException(
          "no workload '" + nameOrFile + "': give one of " + BUILTIN + " or a properties file");
    }
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      String base = file.getFileName().toString().replaceFirst("\\.properties$", "");
      return parse(base, read(r));
    }
  }

  private static Properties read(Reader r) throws IOException {
    Properties p = new Properties();
    p.load(r);
    return p;
  }

  public static Mix parse(String name, Properties p) {
    Map<Op, Double> percents = new EnumMap<>(Op.class);
    for (String key : p.stringPropertyNames()) {
      if (key.contains(".")) {
        continue;
      }
      double v;
      try {
        v = Double.parseDouble(p.getProperty(key).trim());
      } catch (NumberFormatException e) {
        throw new IllegalArgumentException(
            "workload " + name + ": " + key + " is not a percentage: " + p.getProperty(key), e);
      }
      if (v < 0 || Double.isNaN(v) || Double.isInfinite(v)) {
        throw new IllegalArgumentException("workload " + name + ": " + key + " is negative");
      }
      percents.put(Op.byKey(key), v);
    }
    return new Mix(name, percents, p);
  }

  /** Whether the threads create, stat and delete files in one directory they all share. */
  public boolean sharedDirectory() {
    return Boolean.parseBoolean(source.getProperty("workload.shared-directory", "false").trim());
  }

  /** Whether every operation runs in the big directory made before the run. */
  public boolean bigDirectory() {
    return Boolean.parseBoolean(source.getProperty("workload.big-directory", "false").trim());
  }

  /** The files the big directory was made with (0: none). */
  public long bigDirectoryFiles() {
    return Long.parseLong(source.getProperty(BIG_DIRECTORY_FILES, "0").trim());
  }

  /** The client threads of the whole run (1 when not given). */
  public int bigDirectoryThreads() {
    return Integer.parseInt(source.getProperty(BIG_DIRECTORY_THREADS, "1").trim());
  }

  /** This mix with one more {@code workload.*} setting. */
  public Mix with(String key, String value) {
    Properties p = new Properties();
    p.putAll(source);
    p.setProperty(key, value);
    return new Mix(name, percents, p);
  }

  /** The {@code workload.*} settings, which client processes need along with the shares. */
  public Map<String, String> workloadSettings() {
    Map<String, String> m = new java.util.TreeMap<>();
    for (String key : source.stringPropertyNames()) {
      if (key.startsWith("workload.")) {
        m.put(key, source.getProperty(key).trim());
      }
    }
    return m;
  }

  /** The operations with a share above zero, in {@link Op} order. */
  public List<Op> ops() {
    return percents.entrySet().stream()
        .filter(e -> e.getValue() > 0)
        .map(Map.Entry::getKey)
        .collect(Collectors.toList());
  }

  /** The share of an operation in percent of all operations (0 when absent). */
  public double percent(Op op) {
    double total = percents.values().stream().mapToDouble(Double::doubleValue).sum();
    return 100.0 * percents.getOrDefault(op, 0.0) / total;
  }
}
