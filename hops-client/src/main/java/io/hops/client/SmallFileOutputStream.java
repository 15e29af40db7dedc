package io.hops.client;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.StreamCapabilities;
import org.apache.hadoop.fs.Syncable;

/**
 * A new file's bytes kept in memory while they fit the database maximum and nobody asks for {@code
 * hflush}/{@code hsync}; sent with the close in one call. Past the maximum, on a flush to
 * datanodes, or when the namenode answers that the directory does not keep files in the database,
 * the file is created the usual way and what was buffered goes down the pipeline first.
 */
final class SmallFileOutputStream extends OutputStream implements Syncable, StreamCapabilities {
  /** Sends the buffered bytes as a database file; false if the namenode declined. */
  @FunctionalInterface
  interface Sender {
    boolean send(byte[] data) throws IOException;
  }

  /** Creates the file on datanodes. */
  @FunctionalInterface
  interface Pipeline {
    FSDataOutputStream open() throws IOException;
  }

  private final int max;
  private final Sender sender;
  private final Pipeline pipeline;
  private ByteArrayOutputStream buffer = new ByteArrayOutputStream();
  private FSDataOutputStream datanodes;
  private boolean closed;

  SmallFileOutputStream(int max, Sender sender, Pipeline pipeline) {
    this.max = max;
    this.sender = sender;
    this.pipeline = pipeline;
  }

  private void checkOpen() throws IOException {
    if (closed) {
      throw new java.nio.channels.ClosedChannelException();
    }
  }

  @Override
  public void write(int b) throws IOException {
    write(new byte[] {(byte) b}, 0, 1);
  }

  @Override
  public void write(byte[] b, int off, int len) throws IOException {
    checkOpen();
    if (datanodes == null && buffer.size() + len > max) {
      toDatanodes();
    }
    if (datanodes != null) {
      datanodes.write(b, off, len);
    } else {
      buffer.write(b, off, len);
    }
  }

  /** Falls back to the datanode pipeline with what was buffered. */
  private void toDatanodes() throws IOException {
    datanodes = pipeline.open();
    buffer.writeTo(datanodes);
    buffer = null;
  }

  @Override
  public void flush() throws IOException {
    if (datanodes != null) {
      datanodes.flush();
    }
  }

  @Override
  public void hflush() throws IOException {
    checkOpen();
    if (datanodes == null) {
      toDatanodes();
    }
    datanodes.hflush();
  }

  @Override
  public void hsync() throws IOException {
    checkOpen();
    if (datanodes == null) {
      toDatanodes();
    }
    datanodes.hsync();
  }

  @Override
  public boolean hasCapability(String capability) {
    return StreamCapabilities.HFLUSH.equalsIgnoreCase(capability)
        || StreamCapabilities.HSYNC.equalsIgnoreCase(capability);
  }

  /** Whether the bytes went to datanodes (tests). */
  boolean onDatanodes() {
    return datanodes != null;
  }

  @Override
  public void close() throws IOException {
    if (closed) {
      return;
    }
    closed = true;
    if (datanodes == null && !sender.send(buffer.toByteArray())) {
      toDatanodes();
    }
    if (datanodes != null) {
      datanodes.close();
    }
  }
}
