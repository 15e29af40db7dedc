package io.hops.namenode.shell;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;
import org.apache.hadoop.hdfs.protocol.OpenFilesIterator.OpenFilesType;
import org.apache.hadoop.io.IOUtils;

/**
 * A stock client writing files one after another on a thread of its own, across whatever the test
 * does to the cluster: it keeps every acknowledged file's bytes and every write that failed (the
 * stock client gave up on it).
 */
final class Writer implements AutoCloseable {
  /** A write the client gave up on: the file and why. */
  record Failure(String path, Throwable error) {}

  private final FileSystem fs;
  private final int blockSize;
  private final Map<String, byte[]> acknowledged = new ConcurrentHashMap<>();
  private final List<Failure> failures = new CopyOnWriteArrayList<>();
  private final AtomicBoolean stop = new AtomicBoolean();
  private final Thread thread;

  /** Starts writing files of up to 1.5 blocks, replication 3, under {@code dir}. */
  Writer(FileSystem fs, String dir, int blockSize) {
    this.fs = fs;
    this.blockSize = blockSize;
    this.thread = new Thread(() -> run(dir), "writer");
    thread.start();
  }

  private void run(String dir) {
    Random random = new Random(11);
    for (int n = 0; !stop.get(); n++) {
      String name = dir + "/f" + n;
      byte[] data = new byte[random.nextInt(blockSize + blockSize / 2) + 1];
      random.nextBytes(data);
      try (FSDataOutputStream out = fs.create(new Path(name), true, 4096, (short) 3, blockSize)) {
        out.write(data);
      } catch (IOException | RuntimeException e) {
        failures.add(new Failure(name, e));
        continue;
      }
      acknowledged.put(name, data);
    }
  }

  int acknowledged() {
    return acknowledged.size();
  }

  List<Failure> failures() {
    return new ArrayList<>(failures);
  }

  /** Stops after the write under way and waits for it. */
  @Override
  public void close() throws InterruptedException {
    stop.set(true);
    thread.join(180_000);
    assertThat(thread.isAlive()).as("the writer stopped").isFalse();
  }

  /** Every acknowledged file reads back byte for byte. */
  void assertAcknowledgedFilesRead() throws IOException {
    for (Map.Entry<String, byte[]> f : acknowledged.entrySet()) {
      byte[] back = new byte[f.getValue().length];
      try (FSDataInputStream in = fs.open(new Path(f.getKey()))) {
        IOUtils.readFully(in, back, 0, back.length);
        assertThat(in.read()).isEqualTo(-1);
      }
      assertThat(back).as("content of %s", f.getKey()).isEqualTo(f.getValue());
    }
  }

  /** The paths of the files open for writing now (HDFS's {@code dfsadmin -listOpenFiles}). */
  static List<String> openFiles(DistributedFileSystem dfs) throws IOException {
    List<String> out = new ArrayList<>();
    var it = dfs.listOpenFiles(EnumSet.of(OpenFilesType.ALL_OPEN_FILES));
    while (it.hasNext()) {
      OpenFileEntry e = it.next();
      out.add(e.getFilePath());
    }
    return out;
  }
}
