package io.hops.client;

import java.io.ByteArrayInputStream;
import java.io.EOFException;
import java.io.IOException;
import org.apache.hadoop.fs.PositionedReadable;
import org.apache.hadoop.fs.Seekable;

/** A file's bytes as the namenode returned them, readable as an HDFS input stream. */
final class InlineFileInputStream extends ByteArrayInputStream
    implements Seekable, PositionedReadable {
  private final String path;

  InlineFileInputStream(String path, byte[] data) {
    super(data);
    this.path = path;
  }

  @Override
  public synchronized void seek(long target) throws IOException {
    if (target < 0) {
      throw new EOFException("Cannot seek to negative offset");
    }
    if (target > count) {
      throw new EOFException("Cannot seek after EOF");
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
  public int read(long position, byte[] buffer, int offset, int length) throws IOException {
    if (position < 0) {
      throw new EOFException("Cannot read at negative offset " + position + " of " + path);
    }
    if (position >= count) {
      return length == 0 ? 0 : -1;
    }
    int n = (int) Math.min(length, count - position);
    System.arraycopy(buf, (int) position, buffer, offset, n);
    return n;
  }

  @Override
  public void readFully(long position, byte[] buffer, int offset, int length) throws IOException {
    if (position < 0 || position + length > count) {
      throw new EOFException("End of file reached before reading fully.");
    }
    System.arraycopy(buf, (int) position, buffer, offset, length);
  }

  @Override
  public void readFully(long position, byte[] buffer) throws IOException {
    readFully(position, buffer, 0, buffer.length);
  }
}
