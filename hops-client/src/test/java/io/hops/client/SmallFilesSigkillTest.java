package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.shell.Processes;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A {@code bin/hops namenode} process over a file-backed embedded store is killed with SIGKILL the
 * moment hops-client's create-and-complete of a small file returned: after a new namenode process
 * starts over the same store, every acknowledged file is there, in the database, with its bytes,
 * read through hops-client and through the stock client.
 */
class SmallFilesSigkillTest {
  private static final int FILES = 20;

  private final List<Process> daemons = new ArrayList<>();
  private Path work;
  private Path conf;
  private URI uri;

  @AfterEach
  void stopAll() throws InterruptedException {
    for (Process p : daemons) {
      p.destroyForcibly();
    }
    for (Process p : daemons) {
      p.waitFor(10, TimeUnit.SECONDS);
    }
  }

  @Test
  @Timeout(value = 180, unit = TimeUnit.SECONDS)
  void filesAcknowledgedBeforeASigkillAreThereAfterRestart() throws Exception {
    work = Files.createDirectories(Path.of("target/smallfiles-sigkill/" + System.nanoTime()));
    conf = Files.createDirectories(work.resolve("conf"));
    int rpcPort = Processes.freePort();
    uri = URI.create("hdfs://127.0.0.1:" + rpcPort);
    Files.writeString(
        conf.resolve("core-site.xml"),
        Processes.site("fs.defaultFS", uri.toString()),
        StandardCharsets.UTF_8);
    Files.writeString(
        conf.resolve("hdfs-site.xml"),
        Processes.site(
            "hops.metadata.embedded.dir", work.resolve("metadata").toAbsolutePath().toString(),
            "hops.metadata.pool.size", "8",
            "hops.namenode.rpc.port", Integer.toString(rpcPort),
            "hops.namenode.http.port", Integer.toString(Processes.freePort()),
            "dfs.namenode.fs-limits.min-block-size", "1024"),
        StandardCharsets.UTF_8);

    Process first = startNamenode("namenode-1");
    Configuration c = new Configuration(false);
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("ipc.client.connect.max.retries", 2);
    c.setInt("dfs.replication", 1);
    Configuration hc = new Configuration(c);
    hc.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    try (DistributedFileSystem stock = (DistributedFileSystem) FileSystem.get(uri, c);
        FileSystem hops = FileSystem.get(uri, hc)) {
      stock.mkdirs(new org.apache.hadoop.fs.Path("/db"));
      stock.setStoragePolicy(new org.apache.hadoop.fs.Path("/db"), "DB");
      for (int i = 0; i < FILES; i++) {
        SmallFilesTest.write(hops, file(i), SmallFilesTest.bytes(100 * i + 1, i));
      }
      first.destroyForcibly(); // SIGKILL, right after the last create-and-complete returned
      assertThat(first.waitFor(30, TimeUnit.SECONDS)).isTrue();
    }

    startNamenode("namenode-2");
    try (DistributedFileSystem stock = (DistributedFileSystem) FileSystem.get(uri, c);
        FileSystem hops = FileSystem.get(uri, hc)) {
      for (int i = 0; i < FILES; i++) {
        byte[] expected = SmallFilesTest.bytes(100 * i + 1, i);
        try (FSDataInputStream in = hops.open(file(i))) {
          assertThat(in.getWrappedStream())
              .as("read inline: the file is in the database")
              .isInstanceOf(InlineFileInputStream.class);
        }
        assertThat(SmallFilesTest.read(hops, file(i))).isEqualTo(expected);
        assertThat(SmallFilesTest.read(stock, file(i))).isEqualTo(expected);
      }
    }
  }

  private static org.apache.hadoop.fs.Path file(int i) {
    return new org.apache.hadoop.fs.Path("/db/f" + i);
  }

  private Process startNamenode(String name) throws Exception {
    List<String> cmd = Processes.java(false);
    cmd.addAll(List.of("namenode", "--conf", conf.toString()));
    Path out = work.resolve(name + ".out");
    Path err = work.resolve(name + ".err");
    Process p =
        new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
    daemons.add(p);
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
    while (!Files.readString(out, StandardCharsets.UTF_8).contains("namenode serving at")) {
      assertThat(p.isAlive()).as("%s died:%n%s", name, Processes.tail(err)).isTrue();
      assertThat(System.nanoTime()).as("%s did not start", name).isLessThan(deadline);
      Thread.sleep(100);
    }
    return p;
  }
}
