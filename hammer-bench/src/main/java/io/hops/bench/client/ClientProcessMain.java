package io.hops.bench.client;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.PrintStream;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

/**
 * A client process: {@code java ... ClientProcessMain SPEC_FILE}. It builds its part of the
 * namespace, then runs the phases its parent sends on standard input, one line each, and reports on
 * standard output in lines that start with {@value #PREFIX}:
 *
 * <pre>
 *   parent -> client:  run PHASE | exit
 *   client -> parent:  stage STAGE | progress STAGE MILLIS OK FAILED | ready FILE | done FILE
 * </pre>
 *
 * Results go to files next to the spec (latency histograms included), so the parent can merge them.
 * End of input (the parent is gone) ends the process.
 */
public final class ClientProcessMain {
  static final String PREFIX = "@hammer ";

  private ClientProcessMain() {}

  public static void main(String[] args) throws Exception {
    Path specFile = Path.of(args[0]);
    ClientSpec spec = ClientSpec.decode(load(specFile));
    PrintStream out = new PrintStream(System.out, true, StandardCharsets.UTF_8);
    PhaseListener report =
        new PhaseListener() {
          @Override
          public void stage(Stage stage) {
            say(out, "stage " + stage);
          }

          @Override
          public void progress(Stage stage, long millis, long ok, long failed) {
            say(out, "progress " + stage + " " + millis + " " + ok + " " + failed);
          }
        };
    String stem = specFile.getFileName().toString().replaceFirst("\\.properties$", "");
    try (ClientSession session = new ClientSession(spec)) {
      SetupResult setup = session.setup(report);
      Path setupFile = specFile.resolveSibling(stem + "-setup.properties");
      store(setup.encode(), setupFile);
      say(out, "ready " + setupFile);
      BufferedReader in =
          new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
      int n = 0;
      for (String line = in.readLine(); line != null; line = in.readLine()) {
        if (line.equals("exit")) {
          break;
        }
        if (line.startsWith("run ")) {
          PhaseResult result = session.run(Phase.decode(line.substring(4)), report);
          Path file = specFile.resolveSibling(stem + "-phase" + n++ + ".properties");
          store(result.encode(), file);
          say(out, "done " + file);
        }
      }
    }
    // Hadoop leaves non-daemon threads behind, and a stuck thread may still be in a call.
    System.exit(0);
  }

  private static synchronized void say(PrintStream out, String line) {
    out.println(PREFIX + line);
  }

  static Properties load(Path file) throws IOException {
    Properties p = new Properties();
    try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
      p.load(r);
    }
    return p;
  }

  static void store(Properties p, Path file) throws IOException {
    Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
    try (OutputStream o = Files.newOutputStream(tmp)) {
      p.store(o, null);
    }
    Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
  }
}
