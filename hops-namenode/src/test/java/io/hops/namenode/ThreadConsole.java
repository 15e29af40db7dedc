package io.hops.namenode;

import static java.nio.charset.StandardCharsets.UTF_8;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.util.concurrent.Callable;

/**
 * Runs a stock tool in this JVM and keeps what the calling thread printed to {@code System.out} and
 * {@code System.err}. What other threads print meanwhile (the namenodes and datanodes of the test,
 * a metrics timer, a server's request log) goes on to the real streams, so it can never be taken
 * for the tool's output. Runs are serialized: the streams are the JVM's.
 */
public final class ThreadConsole {
  /**
   * The tool's exit code and output; {@code err} is empty if stderr was merged into {@code out}.
   */
  public record Captured(int exit, String out, String err) {}

  private ThreadConsole() {}

  /** Stdout and stderr apart. */
  public static Captured capture(Callable<Integer> tool) throws Exception {
    return run(tool, false);
  }

  /** Stdout and stderr in one stream, in the order they were written. */
  public static Captured captureMerged(Callable<Integer> tool) throws Exception {
    return run(tool, true);
  }

  private static synchronized Captured run(Callable<Integer> tool, boolean merged)
      throws Exception {
    PrintStream oldOut = System.out;
    PrintStream oldErr = System.err;
    Thread caller = Thread.currentThread();
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    ByteArrayOutputStream err = merged ? out : new ByteArrayOutputStream();
    int exit;
    try (PrintStream o = new PrintStream(onlyFrom(caller, out, oldOut), true, UTF_8);
        PrintStream e = new PrintStream(onlyFrom(caller, err, oldErr), true, UTF_8)) {
      System.setOut(o);
      System.setErr(e);
      try {
        exit = tool.call();
      } finally {
        System.setOut(oldOut);
        System.setErr(oldErr);
      }
    }
    return new Captured(exit, out.toString(UTF_8), merged ? "" : err.toString(UTF_8));
  }

  /** Bytes of thread {@code caller} go to {@code mine}, every other thread's to {@code theirs}. */
  private static OutputStream onlyFrom(Thread caller, OutputStream mine, OutputStream theirs) {
    return new OutputStream() {
      private OutputStream target() {
        return Thread.currentThread() == caller ? mine : theirs;
      }

      @Override
      public void write(int b) throws IOException {
        target().write(b);
      }

      @Override
      public void write(byte[] b, int off, int len) throws IOException {
        target().write(b, off, len);
      }

      @Override
      public void flush() throws IOException {
        target().flush();
      }
    };
  }
}
