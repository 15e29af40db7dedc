package io.hops.bench;

import io.hops.bench.namespace.NamespaceSpec;
import java.util.Map;
import java.util.Properties;
import picocli.CommandLine.Option;

/**
 * {@code hops bench}'s options on the namespace: the shape of each client thread's tree (over the
 * workload file's and {@code -D namespace.*} keys), and the big namespace built before the run.
 */
final class NamespaceOptions {
  @Option(names = "--depth", description = "Average depth of a file (default: 7).")
  Double depth;

  @Option(names = "--subdirs-per-dir", description = "Subdirectories per directory (default: 2).")
  Integer subdirsPerDir;

  @Option(names = "--files-per-dir", description = "Files per directory (default: 16).")
  Integer filesPerDir;

  @Option(names = "--name-length", description = "Average name length (default: 34).")
  Integer nameLength;

  @Option(
      names = "--dirs-per-thread",
      description = "Directories in each client thread's tree (default: 31).")
  Integer dirsPerThread;

  @Option(
      names = "--file-size",
      paramLabel = "BYTES",
      description = "Bytes per created or appended file (default: 0, metadata only).")
  Long fileSize;

  @Option(
      names = "--namespace",
      paramLabel = "N",
      description =
          "Before the run, build a namespace of N files of the run's shape and file size below"
              + " /hammer-ns: hops through the DAL straight into its embedded store (checked by"
              + " fsck-namespace and a sample read back), HDFS through the client. The workload"
              + " runs on top of it.")
  long namespaceFiles;

  /**
   * The shape: these options over {@code -D namespace.*} settings over the workload file's keys.
   */
  NamespaceSpec namespace(Properties fileKeys, Map<String, String> settings) {
    Properties p = new Properties();
    p.putAll(fileKeys);
    settings.forEach(
        (k, v) -> {
          if (k.startsWith("namespace.")) {
            p.setProperty(k, v);
          }
        });
    putIf(p, "namespace.depth", depth);
    putIf(p, "namespace.subdirs-per-dir", subdirsPerDir);
    putIf(p, "namespace.files-per-dir", filesPerDir);
    putIf(p, "namespace.name-length", nameLength);
    putIf(p, "namespace.dirs-per-thread", dirsPerThread);
    putIf(p, "namespace.file-size", fileSize);
    return NamespaceSpec.SPOTIFY.with(p);
  }

  private static void putIf(Properties p, String key, Object value) {
    if (value != null) {
      p.setProperty(key, value.toString());
    }
  }
}
