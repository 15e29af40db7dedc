package io.hops.client;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.fs.FSExceptionMessages;
import org.apache.hadoop.fs.FSInputStream;

/**
 * A file's bytes as the namenode returned them, readable as an HDFS input stream: seek and
 * positioned reads with the argument checks and closed-stream errors of {@link FSInputStream} (as
 * DFSInputStream answers them).
 */
final class InlineFileInputStream extends FSInputStream {
  private final String path;
  private final ByteBuffer data;
  private final int size;
  private int pos;
  private volatile boolean closed;

  /**
   * The file is {@code data}'s remaining bytes (a received buffer, kept without a copy and read
   * with absolute gets only, so its position never moves).
   */
  InlineFileInputStream(String path, ByteBuffer data) {
    this.path = path;
    this.data = data.slice();
    this.size = this.data.remaining();
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new IOException(FSExceptionMessages.STREAM_IS_CLOSED + ": " + path);
    }
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    checkOpen();
    if (target < 0) {
      throw new EOFException(FSExceptionMessages.NEGATIVE_SEEK);
    }
    if (target > size) {
      throw new EOFException(FSExceptionMessages.CANNOT_SEEK_PAST_EOF);
    }
    pos = (int) target;
  }

  @Override
  public synchronized long getPos() {
    return pos;
  }

  @Override
  public boolean seekToNewSource(long targetPos) {
    return false;
  }

  @Override
  public synchronized int read() throws IOException {
    checkOpen();
    return pos < size ? data.get(pos++) & 0xff : -1;
  }

  @Override
  public synchronized int read(byte[] buffer, int offset, int length) throws IOException {
    checkOpen();
    java.util.Objects.checkFromIndexSize(offset, length, buffer.length);
    if (length == 0) {
      return 0;
    }
    if (pos >= size) {
      return -1;
    }
    int n = Math.min(length, size - pos);
    data.get(pos, buffer, offset, n);
    pos += n;
    return n;
  }

  @Override
  public synchronized int available() throws IOException {
    checkOpen();
    return size - pos;
  }

  @Override
  public synchronized long skip(long n) throws IOException {
    checkOpen();
    long k = Math.max(0, Math.min(n, size - pos));
    pos += (int) k;
    return k;
  }

  @Override
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    validatePositionedReadArgs(position, buffer, offset, length);
    checkOpen();
    if (length == 0) {
      return 0;
    }
    if (position >= size) {
      return -1;
    }
    int n = (int) Math.min(length, size - position);
    data.get((int) position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    validatePositionedReadArgs(position, buffer, offset, length);
    checkOpen();
    if (position + length > size) {
      throw new EOFException(FSExceptionMessages.EOF_IN_READ_FULLY);
    }
    data.get((int) position, buffer, offset, length);
  }

  @Override
  public void close() {
    closed = true;
  }
}
