package io.hops.namenode.data;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InterruptedIOException;
import java.util.Arrays;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;

/** What the data-path tests share: test bytes, whole-file reads, and bounded polling. */
final class DataFiles {
  private DataFiles() {}

  /** {@code n} pseudo-random bytes, the same for the same seed. */
  static byte[] bytes(int n, long seed) {
    byte[] b = new byte[n];
    new Random(seed).nextBytes(b);
    return b;
  }

  /** {@code a} followed by {@code b}. */
  static byte[] concat(byte[] a, byte[] b) {
    byte[] out = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, out, a.length, b.length);
    return out;
  }

  /** Every byte of the file, read to its end. */
  static byte[] read(FileSystem fs, Path p) throws IOException {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    byte[] buf = new byte[64 * 1024];
    try (FSDataInputStream in = fs.open(p)) {
      int n;
      while ((n = in.read(buf)) > 0) {
        out.write(buf, 0, n);
      }
    }
    return out.toByteArray();
  }

  /** A condition checked while polling; may throw. */
  interface Check {
    boolean holds() throws Exception;
  }

  /** Polls {@code check} every 100 ms until it holds; fails after {@code seconds}. */
  static void eventually(int seconds, String what, Check check) throws Exception {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
    while (!check.holds()) {
      if (System.nanoTime() > deadline) {
        throw new AssertionError("not within " + seconds + " s: " + what);
      }
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        throw new InterruptedIOException();
      }
    }
  }
}
