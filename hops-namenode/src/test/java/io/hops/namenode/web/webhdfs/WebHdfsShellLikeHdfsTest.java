package io.hops.namenode.web.webhdfs;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.ThreadConsole;
import io.hops.namenode.web.webhdfs.WebHdfsSides.Side;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code hadoop fs} (the stock FsShell) with a {@code webhdfs://} default file system, against hops
 * and against Apache HDFS, command by command in order: same stdout, stderr and exit code (the
 * namenode's address and {@code -ls} times masked). Data goes through the real DataNodes.
 */
class WebHdfsShellLikeHdfsTest {
  private static WebHdfsSides sides;
  private static Path local;

  /** One run of the shell. */
  private record Shell(int exit, String out, String err) {}

  @BeforeAll
  static void start() throws IOException {
    sides = new WebHdfsSides("webhdfs-shell");
    local = Files.createTempFile("webhdfs-shell", ".txt");
    Files.writeString(local, "line one\nline two\n");
  }

  @AfterAll
  static void stop() throws IOException {
    if (sides != null) {
      sides.close();
    }
    if (local != null) {
      Files.deleteIfExists(local);
    }
  }

  @ParameterizedTest(name = "hadoop fs {0}")
  @ValueSource(
      strings = {
        "-mkdir -p /sh/d/e",
        "-put LOCAL /sh/d/f",
        "-put LOCAL /sh/d/f",
        "-cat /sh/d/f",
        "-appendToFile LOCAL /sh/d/f",
        "-cat /sh/d/f",
        "-tail /sh/d/f",
        "-ls -R /sh",
        "-stat %n:%b:%r:%u:%g:%F /sh/d/f",
        "-count -q /sh",
        "-du -s /sh",
        "-cp /sh/d/f /sh/d/g",
        "-mv /sh/d/g /sh/d/e/h",
        "-chmod 640 /sh/d/e/h",
        "-chown alice:staff /sh/d/e/h",
        "-ls /sh/d/e",
        "-setfattr -n user.k -v v1 /sh/d/f",
        "-getfattr -d /sh/d/f",
        "-setfattr -n nonamespace -v v1 /sh/d/f",
        "-setfacl -m user:bob:r-x /sh/d",
        "-getfacl /sh/d",
        "-ls /sh",
        "-setfacl -b /sh/d",
        "-getfacl /sh/d",
        "-checksum /sh/d/f",
        "-test -e /sh/d/nope",
        "-test -d /sh/d",
        "-ls /sh/nope",
        "-cat /sh/d",
        "-mkdir /sh/d/f/x",
        "-rm /sh/d",
        "-rm -r /sh/d/e",
        "-setrep 2 /sh/d/f",
        "-touchz /sh/d/empty",
        "-ls -R /sh",
        "-rm -r /sh",
        "-ls /",
      })
  void sameAsHdfs(String command) throws Exception {
    String[] args = command.replace("LOCAL", local.toUri().toString()).split(" ");
    Shell h = run(sides.hops, args);
    Shell a = run(sides.hdfs, args);
    assertThat(h.out).as("stdout").isEqualTo(a.out);
    assertThat(h.err).as("stderr").isEqualTo(a.err);
    assertThat(h.exit).as("exit code").isEqualTo(a.exit);
  }

  private static synchronized Shell run(Side side, String... args) throws Exception {
    Configuration conf = new Configuration(side.conf());
    conf.set("fs.defaultFS", side.webhdfs().toString());
    ThreadConsole.Captured c =
        ThreadConsole.capture(
            () -> {
              FsShell shell = new FsShell(conf);
              try {
                return ToolRunner.run(shell, args);
              } finally {
                shell.close();
              }
            });
    String uri = side.webhdfs().toString();
    return new Shell(c.exit(), mask(c.out(), uri), mask(c.err(), uri));
  }

  /**
   * The namenode's address and {@code -ls} times masked; log lines (of either JVM thread) dropped.
   */
  private static String mask(String text, String uri) {
    return text.replace(uri, "NAMENODE")
        .replaceAll("\\d{4}-\\d{2}-\\d{2} \\d{2}:\\d{2}", "TIME")
        .lines()
        .filter(l -> !l.matches("^\\d{4}-\\d{2}-\\d{2}.*") && !l.startsWith("TIME"))
        // the servers' request logs and Jersey's warnings share the test's stderr
        .filter(l -> !l.matches("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\[.*"))
        .filter(l -> !l.matches("^[A-Z][a-z]{2} \\d{1,2}, \\d{4} .*") && !l.startsWith("WARNING: "))
        .reduce("", (acc, l) -> acc + l + "\n");
  }
}
