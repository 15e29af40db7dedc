package io.hops.bench.namespace;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Properties;

/**
 * The shape of the namespace the benchmark builds, by default the statistics published for
 * Spotify's cluster: files at depth 7 on average, 2 subdirectories and 16 files per directory,
 * names of 34 characters on average.
 *
 * @param depth the average depth of a file (path components from the root: {@code /a/b} is 2)
 * @param subdirsPerDir subdirectories of each inner directory of a thread's tree
 * @param filesPerDir files in each directory of a thread's tree
 * @param nameLength average length of a generated name
 * @param nameLengthSpread names are {@code nameLength ± nameLengthSpread} long, uniformly
 * @param dirsPerThread directories in each client thread's tree
 * @param fileSize bytes written into each file when it is created or appended to
 */
public record NamespaceSpec(
    double depth,
    int subdirsPerDir,
    int filesPerDir,
    int nameLength,
    int nameLengthSpread,
    int dirsPerThread,
    long fileSize) {

  public static final NamespaceSpec SPOTIFY = new NamespaceSpec(7, 2, 16, 34, 8, 31, 0);

  public NamespaceSpec {
    if (depth < 1 || subdirsPerDir < 1 || filesPerDir < 0 || dirsPerThread < 1) {
      throw new IllegalArgumentException(
          String.format(
              "namespace: impossible shape (depth %s, %d subdirs and %d files per dir, %d dirs)",
              depth, subdirsPerDir, filesPerDir, dirsPerThread));
    }
    if (nameLength < 8 || nameLengthSpread < 0 || nameLengthSpread > nameLength - 8) {
      throw new IllegalArgumentException(
          "namespace: names must be at least 8 characters (name-length - spread >= 8)");
    }
    if (fileSize < 0) {
      throw new IllegalArgumentException("namespace: negative file size");
    }
  }

  /** This spec with the {@code namespace.*} keys found in {@code p} applied. */
  public NamespaceSpec with(Properties p) {
    return new NamespaceSpec(
        Double.parseDouble(p.getProperty("namespace.depth", String.valueOf(depth))),
        intKey(p, "namespace.subdirs-per-dir", subdirsPerDir),
        intKey(p, "namespace.files-per-dir", filesPerDir),
        intKey(p, "namespace.name-length", nameLength),
        intKey(p, "namespace.name-length-spread", nameLengthSpread),
        intKey(p, "namespace.dirs-per-thread", dirsPerThread),
        Long.parseLong(p.getProperty("namespace.file-size", String.valueOf(fileSize)).trim()));
  }

  private static int intKey(Properties p, String key, int dflt) {
    return Integer.parseInt(p.getProperty(key, String.valueOf(dflt)).trim());
  }

  /** This spec with files of {@code bytes} each. */
  public NamespaceSpec withFileSize(long bytes) {
    return new NamespaceSpec(
        depth, subdirsPerDir, filesPerDir, nameLength, nameLengthSpread, dirsPerThread, bytes);
  }

  /** The {@code namespace.*} keys of this spec, for files and reports. */
  public Map<String, String> toProperties() {
    Map<String, String> m = new LinkedHashMap<>();
    m.put("namespace.depth", String.valueOf(depth));
    m.put("namespace.subdirs-per-dir", String.valueOf(subdirsPerDir));
    m.put("namespace.files-per-dir", String.valueOf(filesPerDir));
    m.put("namespace.name-length", String.valueOf(nameLength));
    m.put("namespace.name-length-spread", String.valueOf(nameLengthSpread));
    m.put("namespace.dirs-per-thread", String.valueOf(dirsPerThread));
    m.put("namespace.file-size", String.valueOf(fileSize));
    return m;
  }
}
