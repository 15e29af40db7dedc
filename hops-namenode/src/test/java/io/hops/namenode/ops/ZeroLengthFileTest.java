package io.hops.namenode.ops;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import org.apache.hadoop.crypto.CryptoProtocolVersion;
import org.apache.hadoop.fs.FSDataInputStream;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FsServerDefaults;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.ExtendedBlock;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.LocatedBlocks;
import org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.util.DataChecksum;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Zero-length files from close to read: complete, getBlockLocations, isFileClosed and the server
 * defaults, through the stock client and its raw namenode proxy.
 */
class ZeroLengthFileTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static ClientProtocol nn;

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    fs = cluster.client();
    nn = fs.getClient().getNamenode();
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  @Test
  void readingAnEmptyFileIsEndOfFileAtOnce() throws Exception {
    Path f = new Path("/read/empty");
    fs.create(f).close();
    try (FSDataInputStream in = fs.open(f)) {
      assertThat(in.read()).isEqualTo(-1);
      assertThat(in.read(new byte[16], 0, 16)).isEqualTo(-1);
    }
  }

  @Test
  void blockLocationsOfAnEmptyFileAreEmptyAsInHdfs() throws Exception {
    fs.create(new Path("/loc/closed")).close();
    LocatedBlocks lb = nn.getBlockLocations("/loc/closed", 0, 100);
    assertThat(lb.getFileLength()).isZero();
    assertThat(lb.isUnderConstruction()).isFalse();
    assertThat(lb.getLocatedBlocks()).isEmpty();
    assertThat(lb.getLastLocatedBlock()).isNull();
    assertThat(lb.isLastBlockComplete()).isFalse();
    assertThat(lb.getFileEncryptionInfo()).isNull();
    assertThat(lb.getErasureCodingPolicy()).isNull();
  }

  @Test
  void blockLocationsOfAFileBeingWrittenSayUnderConstruction() throws Exception {
    FSDataOutputStream out = fs.create(new Path("/loc/open"));
    try {
      assertThat(nn.getBlockLocations("/loc/open", 0, 100).isUnderConstruction()).isTrue();
      assertThat(fs.isFileClosed(new Path("/loc/open"))).isFalse();
    } finally {
      out.close();
    }
    assertThat(fs.isFileClosed(new Path("/loc/open"))).isTrue();
  }

  @Test
  void blockLocationsOfADirectoryOrAMissingPathAreFileNotFound() throws Exception {
    fs.mkdirs(new Path("/loc/dir"));
    assertThatThrownBy(() -> fs.open(new Path("/loc/dir")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("Path is not a file: /loc/dir");
    assertThatThrownBy(() -> fs.open(new Path("/loc/missing")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("File does not exist: /loc/missing");
    assertThatThrownBy(() -> nn.getBlockLocations("/loc/dir", -1, 10))
        .hasMessageContaining("Negative offset is not supported. File: /loc/dir");
  }

  @Test
  void isFileClosedOfAMissingPathIsFileNotFound() {
    assertThatThrownBy(() -> fs.isFileClosed(new Path("/closed/missing")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageContaining("File does not exist: /closed/missing");
  }

  @Test
  void completeOfAClosedFileSucceedsAgainLikeARetriedRpc() throws Exception {
    String client = fs.getClient().getClientName();
    HdfsFileStatus st = fs.getClient().getFileInfo(create("/complete/retry"));
    assertThat(nn.complete("/complete/retry", client, null, st.getFileId())).isTrue();
    assertThat(nn.complete("/complete/retry", client, null, st.getFileId())).isTrue();
    assertThat(fs.isFileClosed(new Path("/complete/retry"))).isTrue();
  }

  @Test
  void completeByAClientThatIsNotTheWriterIsLeaseExpired() throws Exception {
    HdfsFileStatus st = fs.getClient().getFileInfo(create("/complete/other"));
    assertThatThrownBy(
            () -> nn.complete("/complete/other", "DFSClient_other", null, st.getFileId()))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(LeaseExpiredException.class)
                    .hasMessageContaining("Client (=DFSClient_other) is not the lease owner"));
    assertThat(fs.isFileClosed(new Path("/complete/other"))).isFalse();
  }

  @Test
  void completeOfAMissingFileIsFileNotFound() {
    assertThatThrownBy(
            () -> nn.complete("/complete/missing", fs.getClient().getClientName(), null, 123456))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining("File does not exist: /complete/missing (inode 123456)"));
  }

  @Test
  void completeOfAFileRenamedWhileOpenFindsItById() throws Exception {
    HdfsFileStatus st = fs.getClient().getFileInfo(create("/complete/before"));
    fs.rename(new Path("/complete/before"), new Path("/complete/after"));
    String client = fs.getClient().getClientName();
    assertThat(nn.complete("/complete/before", client, null, st.getFileId())).isTrue();
    assertThat(fs.isFileClosed(new Path("/complete/after"))).isTrue();
  }

  @Test
  void completeAfterAnotherClientOverwroteTheFileIsFileNotFound() throws Exception {
    HdfsFileStatus st = fs.getClient().getFileInfo(create("/complete/replaced"));
    try (DistributedFileSystem other = cluster.client()) {
      other.create(new Path("/complete/replaced"), true).close();
    }
    String client = fs.getClient().getClientName();
    assertThatThrownBy(() -> nn.complete("/complete/replaced", client, null, st.getFileId()))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageContaining("File does not exist: /complete/replaced"));
  }

  @Test
  void completeWithABlockOfAnotherBlockPoolIsRefusedLikeHdfs() throws Exception {
    HdfsFileStatus st = fs.getClient().getFileInfo(create("/complete/block"));
    ExtendedBlock last = new ExtendedBlock("pool", 1L, 0L, 1L);
    assertThatThrownBy(
            () ->
                nn.complete(
                    "/complete/block", fs.getClient().getClientName(), last, st.getFileId()))
        .hasMessageContaining("Unexpected BlockPoolId pool - expected BP-");
  }

  @Test
  void serverDefaultsAreHdfsDefaults() throws Exception {
    FsServerDefaults d = fs.getServerDefaults(new Path("/"));
    assertThat(d.getBlockSize()).isEqualTo(128L * 1024 * 1024);
    assertThat(d.getBytesPerChecksum()).isEqualTo(512);
    assertThat(d.getWritePacketSize()).isEqualTo(64 * 1024);
    assertThat(d.getReplication()).isEqualTo((short) 3);
    assertThat(d.getFileBufferSize()).isEqualTo(4096);
    assertThat(d.getEncryptDataTransfer()).isFalse();
    assertThat(d.getTrashInterval()).isZero();
    assertThat(d.getChecksumType()).isEqualTo(DataChecksum.Type.CRC32C);
    assertThat(d.getKeyProviderUri()).isEmpty();
    assertThat(d.getDefaultStoragePolicyId()).isEqualTo((byte) 7);
  }

  /** Creates a file through the raw protocol and leaves it open; returns its path. */
  private static String create(String path) throws Exception {
    fs.getClient()
        .getNamenode()
        .create(
            path,
            org.apache.hadoop.fs.permission.FsPermission.getFileDefault(),
            fs.getClient().getClientName(),
            new org.apache.hadoop.io.EnumSetWritable<>(
                java.util.EnumSet.of(org.apache.hadoop.fs.CreateFlag.CREATE)),
            true,
            (short) 1,
            1024 * 1024,
            CryptoProtocolVersion.supported(),
            null,
            null);
    return path;
  }
}
