package io.hops.namenode.shell;

import java.io.File;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The newest commit of this repository's main line whose metadata schema is older than this
 * build's, built from its own sources: the release an operator upgrades from. Found by walking the
 * first-parent history for the first {@code SchemaVersion.CURRENT} below this build's, extracted
 * with {@code git archive} into {@code target/previous-release/<commit>} and built there with Maven
 * (packaged, not installed: nothing of this build's is touched); reused while it exists. With
 * {@code HOPS_PREVIOUS_RELEASE_CACHE} set (CI sets it), the build goes into {@code
 * $HOPS_PREVIOUS_RELEASE_CACHE/<commit>} instead, so that a clean clone reuses the build of an
 * earlier run: a commit's sources never change. A lock file keeps two runs from building it at
 * once.
 */
final class PreviousRelease {
  /** Where SchemaVersion is, then where it was before it moved to {@code upgrade}. */
  private static final List<String> SCHEMA_VERSION =
      List.of(
          "hops-namenode/src/main/java/io/hops/namenode/upgrade/SchemaVersion.java",
          "hops-namenode/src/main/java/io/hops/namenode/SchemaVersion.java");

  private static final Pattern CURRENT =
      Pattern.compile("public static final long CURRENT = (\\d+);");

  final String commit;
  final long schemaVersion;
  private final Path tree;

  private PreviousRelease(String commit, long schemaVersion, Path tree) {
    this.commit = commit;
    this.schemaVersion = schemaVersion;
    this.tree = tree;
  }

  /** The repository's root above the working directory, or null outside a git checkout. */
  static Path repositoryRoot() {
    for (Path p = Path.of("").toAbsolutePath(); p != null; p = p.getParent()) {
      if (Files.exists(p.resolve(".git")) && Files.isDirectory(p.resolve("hops-namenode"))) {
        return p;
      }
    }
    return null;
  }

  /** Finds, extracts and builds the previous release of the repository at {@code root}. */
  static PreviousRelease build(Path root, long currentVersion) throws Exception {
    String found = null;
    long version = -1;
    for (String c : run(root, "git", "rev-list", "--first-parent", "HEAD").split("\n")) {
      String source = schemaVersionSource(root, c);
      if (source == null) {
        break; // a commit from before versions: no release with an older versioned schema
      }
      Matcher m = CURRENT.matcher(source);
      if (m.find() && Long.parseLong(m.group(1)) < currentVersion) {
        found = c;
        version = Long.parseLong(m.group(1));
        break;
      }
    }
    if (found == null) {
      throw new IllegalStateException(
          "no commit of the first-parent history has a schema older than " + currentVersion);
    }
    String cache = System.getenv("HOPS_PREVIOUS_RELEASE_CACHE");
    Path builds =
        cache != null && !cache.isBlank()
            ? Path.of(cache).toAbsolutePath()
            : root.resolve("hops-namenode/target/previous-release");
    Path tree = builds.resolve(found.substring(0, 12));
    PreviousRelease release = new PreviousRelease(found, version, tree);
    Files.createDirectories(builds);
    try (FileChannel lock =
            FileChannel.open(
                builds.resolve(found.substring(0, 12) + ".lock"),
                StandardOpenOption.CREATE,
                StandardOpenOption.WRITE);
        FileLock held = lock.lock()) {
      release.buildIfMissing(root);
    }
    return release;
  }

  /** SchemaVersion's source at commit {@code c}, or null if it has none. */
  private static String schemaVersionSource(Path root, String c) throws InterruptedException {
    for (String path : SCHEMA_VERSION) {
      try {
        return run(root, "git", "show", c + ":" + path);
      } catch (IOException missing) {
        // not there at this commit
      }
    }
    return null;
  }

  /** Extracts and builds this release unless a whole build of it is there already. */
  private void buildIfMissing(Path root) throws Exception {
    if (!Files.exists(classpathFile())) {
      Files.createDirectories(tree);
      run(root, "sh", "-c", "git archive " + commit + " | tar -x -C '" + tree + "'");
      List<String> mvn =
          List.of(
              "mvn",
              "-q",
              "-B",
              "-DskipTests",
              "-Dspotless.check.skip=true",
              "-pl",
              "hops-namenode",
              "-am",
              "package");
      List<String> offline = new ArrayList<>(mvn);
      offline.add(1, "-o");
      try {
        run(tree, offline.toArray(new String[0]));
      } catch (IOException notOffline) {
        run(tree, mvn.toArray(new String[0])); // a plugin or dependency this build never used
      }
    }
  }

  private Path classpathFile() {
    return tree.resolve("hops-namenode/target/classpath.txt");
  }

  /** The command that runs this release's {@code bin/hops} main class, as {@link Processes}. */
  List<String> java() throws IOException {
    List<String> cmd = new ArrayList<>();
    cmd.add(new File(System.getProperty("java.home"), "bin/java").getPath());
    cmd.add("-XX:+UseSerialGC");
    cmd.add("-XX:TieredStopAtLevel=1");
    cmd.add("-Xmx512m");
    cmd.add("-cp");
    cmd.add(
        tree.resolve("hops-namenode/target/classes")
            + File.pathSeparator
            + Files.readString(classpathFile(), StandardCharsets.UTF_8).trim());
    cmd.add("io.hops.namenode.cli.HopsMain");
    return cmd;
  }

  private static String run(Path dir, String... cmd) throws IOException, InterruptedException {
    Path out = Files.createTempFile("previous-release", ".out");
    try {
      Process p =
          new ProcessBuilder(cmd)
              .directory(dir.toFile())
              .redirectErrorStream(true)
              .redirectOutput(out.toFile())
              .start();
      if (!p.waitFor(15, TimeUnit.MINUTES)) {
        p.destroyForcibly();
        throw new IOException(String.join(" ", cmd) + " did not finish in 15 minutes");
      }
      String text = Files.readString(out, StandardCharsets.UTF_8);
      if (p.exitValue() != 0) {
        throw new IOException(String.join(" ", cmd) + " failed:\n" + text);
      }
      return text;
    } finally {
      Files.deleteIfExists(out);
    }
  }
}
