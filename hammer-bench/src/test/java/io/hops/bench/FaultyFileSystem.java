package io.hops.bench;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URI;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileStatus;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.util.Progressable;

/**
 * {@code faulty:///}: a file system that accepts mkdirs and creates, and otherwise fails every way
 * a real one can: checked and unchecked exceptions, {@code false} results, and an {@code open} that
 * hangs (ignoring interrupts, for {@link #HANG_SECONDS}).
 */
public class FaultyFileSystem extends FileSystem {
  static final int HANG_SECONDS = 20;

  private URI uri;

  @Override
  public void initialize(URI name, Configuration conf) throws IOException {
    super.initialize(name, conf);
    setConf(conf);
    uri = URI.create("faulty:///");
  }

  @Override
  public String getScheme() {
    return "faulty";
  }

  @Override
  public URI getUri() {
    return uri;
  }

  @Override
  public FSDataInputStream open(Path f, int bufferSize) throws IOException {
    long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(HANG_SECONDS);
    while (System.nanoTime() < until) {
      try {
        Thread.sleep(100);
      } catch (InterruptedException e) {
        // a stuck call ignores interrupts, as a blocked socket read may
      }
    }
    throw new IOException("open: hung");
  }

  @Override
  public FSDataOutputStream create(
      Path f,
      FsPermission permission,
      boolean overwrite,
      int bufferSize,
      short replication,
      long blockSize,
      Progressable progress) {
    return new FSDataOutputStream(OutputStream.nullOutputStream(), null);
  }

  @Override
  public FSDataOutputStream append(Path f, int bufferSize, Progressable progress)
      throws IOException {
    throw new IOException("append: injected");
  }

  @Override
  public boolean rename(Path src, Path dst) {
    return false;
  }

  @Override
  public boolean delete(Path f, boolean recursive) throws IOException {
    throw new IOException("delete: injected");
  }

  @Override
  public FileStatus[] listStatus(Path f) {
    throw new IllegalStateException("listStatus: injected runtime error");
  }

  @Override
  public void setWorkingDirectory(Path newDir) {}

  @Override
  public Path getWorkingDirectory() {
    return new Path("/");
  }

  @Override
  public boolean mkdirs(Path f, FsPermission permission) {
    return true;
  }

  @Override
  public FileStatus getFileStatus(Path f) throws IOException {
    throw new FileNotFoundException("getFileStatus: injected");
  }
}
