package io.hops.namenode.data;

import static io.hops.namenode.data.DataFiles.bytes;
import static io.hops.namenode.data.DataFiles.concat;
import static io.hops.namenode.data.DataFiles.read;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.blocks.BlockManager;
import io.hops.namenode.blocks.ReplicaChange;
import io.hops.namenode.blocks.StorageRef;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.Files;
import java.util.EnumSet;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsShell;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream;
import org.apache.hadoop.hdfs.client.HdfsDataOutputStream.SyncFlag;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.LocatedBlock;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.ToolRunner;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Writers that flush and append, with the stock client and stock datanodes: hflushed bytes are
 * readable before the file is closed, appends (also FsShell's -appendToFile) keep every byte, and
 * append refuses what HDFS refuses.
 */
class AppendTest {
  private static final int BLOCK = 64 * 1024;
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;

  @BeforeAll
  static void start() throws IOException {
    Configuration conf = new Configuration(false);
    conf.setLong("dfs.namenode.fs-limits.min-block-size", 1024);
    cluster = new HopsTestCluster(conf);
    cluster.startDatanodes(3);
    fs = cluster.client();
  }

  @AfterAll
  static void stop() throws IOException {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  private static FSDataOutputStream create(Path p) throws IOException {
    return fs.create(p, true, 4096, (short) 3, BLOCK);
  }

  private static void write(Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = create(p)) {
      out.write(data);
    }
  }

  private static void append(Path p, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.append(p)) {
      out.write(data);
    }
  }

  @Test
  void hflushedBytesAreVisibleToAReaderBeforeClose() throws Exception {
    Path p = new Path("/append/hflush");
    byte[] first = bytes(BLOCK + 1000, 1);
    byte[] second = bytes(3000, 2);
    try (DistributedFileSystem reader = cluster.client();
        FSDataOutputStream out = create(p)) {
      out.write(first);
      out.hflush();
      assertThat(read(reader, p)).as("hflushed bytes, before close").isEqualTo(first);
      try (FSDataInputStream in = reader.open(p)) {
        assertThat(((org.apache.hadoop.hdfs.client.HdfsDataInputStream) in).getVisibleLength())
            .isEqualTo(first.length);
      }
      // The first flush of a new block persists its length; later ones only with UPDATE_LENGTH.
      assertThat(reader.getFileStatus(p).getLen()).isEqualTo(first.length);
      out.write(second);
      out.hflush();
      assertThat(read(reader, p)).isEqualTo(concat(first, second));
      assertThat(reader.getFileStatus(p).getLen()).isEqualTo(first.length);
      ((HdfsDataOutputStream) out).hsync(EnumSet.of(SyncFlag.UPDATE_LENGTH));
      assertThat(reader.getFileStatus(p).getLen()).isEqualTo(first.length + second.length);
      assertThat(read(reader, p)).isEqualTo(concat(first, second));
    }
    assertThat(fs.getFileStatus(p).getLen()).isEqualTo(first.length + second.length);
    assertThat(read(fs, p)).isEqualTo(concat(first, second));
  }

  @Test
  void repeatedAppendsKeepEveryByteAcrossBlockBoundaries() throws Exception {
    Path p = new Path("/append/repeated");
    byte[] all = bytes(1000, 10);
    write(p, all);
    for (int i = 0; i < 4; i++) {
      // As HDFS's own append tests do (DFSTestUtil.waitReplication): every replica of the last
      // write reported before the next append, so this test is about the bytes, not about a
      // pipeline that has to replace a datanode whose report is still on its way.
      awaitAllReplicasReported(p);
      byte[] more = bytes(BLOCK / 2 + 123 * i, 11 + i);
      append(p, more);
      all = concat(all, more);
      assertThat(fs.getFileStatus(p).getLen()).isEqualTo(all.length);
      assertThat(read(fs, p)).as("after append %d", i + 1).isEqualTo(all);
    }
    assertThat(fs.isFileClosed(p)).isTrue();
    var located = fs.getFileBlockLocations(p, 0, all.length);
    assertThat(located).hasSize((all.length + BLOCK - 1) / BLOCK);
  }

  private static void awaitAllReplicasReported(Path p) throws IOException {
    BlockFiles.waitFor(
        "3 reported replicas of every block of " + p,
        30,
        () -> {
          for (var b : fs.getFileBlockLocations(p, 0, Long.MAX_VALUE)) {
            if (b.getHosts().length < 3) {
              return false;
            }
          }
          return true;
        });
  }

  /**
   * A report of a replica with the stamp it had before an append, applied after the appended
   * replica was recorded: what a writer's namenode does with a receipt it kept ({@code
   * RecentReceipts}) when the datanode's newer report has not reached it yet and the owner of the
   * datanode's reports has recorded the appended replica meanwhile. Such a report is out of date (a
   * datanode's stamps only grow): the appended replica stays where readers find it.
   */
  @Test
  void aLateReportOfTheStampBeforeAnAppendKeepsTheAppendedReplica() throws Exception {
    Path p = new Path("/append/late-report");
    byte[] first = bytes(1000, 20);
    write(p, first);
    awaitAllReplicasReported(p);
    LocatedBlock before = fs.getClient().getLocatedBlocks(p.toString(), 0).getLastLocatedBlock();
    byte[] more = bytes(500, 21);
    append(p, more);
    awaitAllReplicasReported(p);
    ExtendedBlock old = before.getBlock();
    Namesystem ns = cluster.namenode().namesystem();
    BlockManager bm = ns.blocks();
    StorageRef storage = bm.datanodes().findStorage(before.getStorageIDs()[0]);
    ns.run(
        () ->
            new ReplicaChange(
                bm, storage, old.getBlockId(), old.getGenerationStamp(), old.getNumBytes(), true));
    LocatedBlock after = fs.getClient().getLocatedBlocks(p.toString(), 0).getLastLocatedBlock();
    assertThat(after.getBlock().getGenerationStamp()).isGreaterThan(old.getGenerationStamp());
    assertThat(after.getStorageIDs()).as("replicas of the appended block").hasSize(3);
    assertThat(read(fs, p)).isEqualTo(concat(first, more));
  }

  @Test
  void appendToAFullLastBlockStartsANewBlock() throws Exception {
    Path p = new Path("/append/full");
    byte[] one = bytes(BLOCK, 20);
    write(p, one);
    byte[] more = bytes(100, 21);
    append(p, more);
    assertThat(read(fs, p)).isEqualTo(concat(one, more));
    assertThat(fs.getFileBlockLocations(p, 0, BLOCK + 100)).hasSize(2);
  }

  @Test
  void appendWithNewBlockLeavesThePartialBlockAsItIs() throws Exception {
    Path p = new Path("/append/new-block");
    byte[] first = bytes(500, 30);
    write(p, first);
    byte[] more = bytes(700, 31);
    try (FSDataOutputStream out =
        fs.append(p, EnumSet.of(CreateFlag.APPEND, CreateFlag.NEW_BLOCK), 4096, null)) {
      out.write(more);
    }
    assertThat(read(fs, p)).isEqualTo(concat(first, more));
    var located = fs.getFileBlockLocations(p, 0, 1200);
    assertThat(located).hasSize(2);
    assertThat(located[0].getLength()).isEqualTo(500);
    assertThat(located[1].getLength()).isEqualTo(700);
  }

  @Test
  void appendToAnEmptyFileWritesItsFirstBlock() throws Exception {
    Path p = new Path("/append/empty");
    fs.create(p).close();
    byte[] data = bytes(5000, 40);
    append(p, data);
    assertThat(read(fs, p)).isEqualTo(data);
  }

  @Test
  void fsShellAppendToFileAppendsLocalFiles() throws Exception {
    Path p = new Path("/append/shell");
    byte[] a = bytes(3000, 50);
    byte[] b = bytes(BLOCK + 77, 51);
    File local = Files.createTempFile("append", ".bin").toFile();
    try {
      Configuration conf = cluster.clientConf();
      Files.write(local.toPath(), a);
      String target = cluster.uri() + p.toString();
      assertThat(
              ToolRunner.run(
                  new FsShell(conf), new String[] {"-appendToFile", local.getPath(), target}))
          .as("-appendToFile creating the file")
          .isZero();
      Files.write(local.toPath(), b);
      assertThat(
              ToolRunner.run(
                  new FsShell(conf), new String[] {"-appendToFile", local.getPath(), target}))
          .as("-appendToFile appending")
          .isZero();
    } finally {
      Files.deleteIfExists(local.toPath());
    }
    assertThat(read(fs, p)).isEqualTo(concat(a, b));
  }

  @Test
  void appendRefusesWhatHdfsRefuses() throws Exception {
    fs.mkdirs(new Path("/append/dir"));
    assertThatThrownBy(() -> fs.append(new Path("/append/dir")))
        .isInstanceOf(RemoteException.class)
        .hasMessageContaining(
            "Cannot append to directory /append/dir; already exists as a directory");
    assertThatThrownBy(() -> fs.append(new Path("/append/missing")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("Failed to append to non-existent file /append/missing");
    Path open = new Path("/append/open");
    try (FSDataOutputStream out = create(open)) {
      out.write(bytes(100, 60));
      out.hflush();
      assertThatThrownBy(() -> fs.append(open))
          .isInstanceOf(RemoteException.class)
          .satisfies(
              e ->
                  assertThat(((RemoteException) e).getClassName())
                      .endsWith("AlreadyBeingCreatedException"))
          .hasMessageContaining("is already the current lease holder");
      try (DistributedFileSystem other = cluster.client()) {
        assertThatThrownBy(() -> other.append(open))
            .isInstanceOf(RemoteException.class)
            .hasMessageContaining("this file lease is currently owned by");
      }
    }
  }
}
