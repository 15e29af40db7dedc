package io.hops.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.common.smallfiles.SmallFilesProtocolPB;
import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.SmallFilesProtocolService;
import io.hops.namenode.HopsTestCluster;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.PrivilegedExceptionAction;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.io.BytesWritable;
import org.apache.hadoop.io.Text;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.WritableRpcEngine;
import org.apache.hadoop.ipc.internal.ShadedProtobufHelper;
import org.apache.hadoop.security.AccessControlException;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The small-files RPC on the wire: Hadoop's protobuf engine, protocol version 4. A read answers the
 * bytes or "on datanodes"; the namenode's exceptions reach the client with their class, as over
 * {@code ClientProtocol}; a client of another version, or of the former Writable protocol, is
 * refused with Hadoop's own RPC errors instead of being misread.
 */
class SmallFilesProtocolPBTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem stock;
  private static FileSystem hops;
  private static SmallFilesProtocolTranslatorPB wire;

  /** The interface of a client built against version 3 of the protocol. */
  @ProtocolInfo(protocolName = SmallFilesProtocolPB.NAME, protocolVersion = 3L)
  interface Version3PB extends SmallFilesProtocolService.BlockingInterface {}

  /** The Writable protocol hops-client spoke up to version 3. */
  @ProtocolInfo(protocolName = SmallFilesProtocolPB.NAME, protocolVersion = 3L)
  interface WritableVersion3 {
    BytesWritable readSmallFile(Text src) throws IOException;
  }

  @BeforeAll
  static void start() throws Exception {
    Configuration nn = new Configuration();
    nn.setInt("dfs.replication", 1);
    cluster = new HopsTestCluster(nn);
    cluster.startDatanodes(1);
    stock = cluster.client();
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    c.setInt("dfs.replication", 1);
    hops = FileSystem.get(cluster.uri(), c);
    wire = new SmallFilesProtocolTranslatorPB(cluster.namenode().address(), cluster.clientConf());
    stock.mkdirs(new Path("/pb"));
    stock.setPermission(new Path("/pb"), new FsPermission((short) 0777));
    stock.setStoragePolicy(new Path("/pb"), "DB");
    stock.mkdirs(new Path("/dn"));
  }

  @AfterAll
  static void stop() throws Exception {
    if (wire != null) {
      wire.close();
    }
    for (AutoCloseable c : new AutoCloseable[] {hops, stock, cluster}) {
      if (c != null) {
        c.close();
      }
    }
  }

  private static void write(FileSystem fs, String path, byte[] data) throws IOException {
    try (FSDataOutputStream out = fs.create(new Path(path))) {
      out.write(data);
    }
  }

  private static byte[] bytes(ByteBuffer b) {
    byte[] out = new byte[b.remaining()];
    b.duplicate().get(out);
    return out;
  }

  @Test
  void aReadAnswersTheBytesOfADatabaseFileAndNothingForADatanodeFile() throws Exception {
    byte[] data = "stored in the database".getBytes(StandardCharsets.UTF_8);
    write(hops, "/pb/f", data);
    write(stock, "/dn/f", data);
    write(hops, "/pb/empty", new byte[0]);

    assertThat(bytes(wire.readSmallFile("/pb/f"))).isEqualTo(data);
    assertThat(wire.readSmallFile("/pb/empty")).isNotNull();
    assertThat(wire.readSmallFile("/pb/empty").remaining()).isZero();
    assertThat(wire.readSmallFile("/dn/f")).as("stored on datanodes").isNull();
  }

  @Test
  void aCreateAnswersWhetherItKeptTheFileInTheDatabase() throws Exception {
    byte[] data = {1, 2, 3};
    assertThat(
            wire.createSmallFile(
                "/pb/created", (short) 0644, "DFSClient_pb", false, true, (short) 1, 1 << 20, data))
        .isTrue();
    assertThat(bytes(wire.readSmallFile("/pb/created"))).isEqualTo(data);
    assertThat(stock.getFileStatus(new Path("/pb/created")).getPermission().toShort())
        .isEqualTo((short) 0644);
    assertThat(
            wire.createSmallFile(
                "/dn/declined",
                (short) 0644,
                "DFSClient_pb",
                false,
                true,
                (short) 1,
                1 << 20,
                data))
        .as("not a DB directory")
        .isFalse();
    assertThat(stock.exists(new Path("/dn/declined"))).isFalse();
  }

  @Test
  void theNamenodesExceptionsArriveWithTheirClassAndMessage() throws Exception {
    assertThatThrownBy(() -> wire.readSmallFile("/pb/missing"))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(FileNotFoundException.class)
                    .hasMessageStartingWith("File does not exist: /pb/missing"));
    assertThatThrownBy(() -> hops.open(new Path("/pb/missing")))
        .isInstanceOf(FileNotFoundException.class)
        .hasMessageStartingWith("File does not exist: /pb/missing");

    write(hops, "/pb/exists", new byte[] {7});
    assertThatThrownBy(
            () ->
                wire.createSmallFile(
                    "/pb/exists",
                    (short) 0644,
                    "DFSClient_pb",
                    false,
                    true,
                    (short) 1,
                    1 << 20,
                    new byte[] {8}))
        .isInstanceOf(RemoteException.class)
        .satisfies(
            e ->
                assertThat(((RemoteException) e).unwrapRemoteException())
                    .isInstanceOf(FileAlreadyExistsException.class));

    stock.mkdirs(new Path("/pb/private"));
    stock.setPermission(new Path("/pb/private"), new FsPermission((short) 0700));
    write(hops, "/pb/private/f", new byte[] {9});
    Configuration c = cluster.clientConf();
    c.set("fs.hdfs.impl", HopsDistributedFileSystem.class.getName());
    c.setBoolean("fs.hdfs.impl.disable.cache", true);
    try (FileSystem alice =
        UserGroupInformation.createUserForTesting("alice", new String[] {"users"})
            .doAs((PrivilegedExceptionAction<FileSystem>) () -> FileSystem.get(cluster.uri(), c))) {
      assertThatThrownBy(() -> alice.open(new Path("/pb/private/f")))
          .isInstanceOf(AccessControlException.class)
          .hasMessageStartingWith("Permission denied: user=alice, access=EXECUTE");
      assertThatThrownBy(
              () -> {
                try (FSDataOutputStream out = alice.create(new Path("/pb/private/g"))) {
                  out.write(1);
                }
              })
          .isInstanceOf(AccessControlException.class)
          .hasMessageStartingWith("Permission denied: user=alice, access=EXECUTE");
    }
  }

  @Test
  void aClientOfAnotherProtocolVersionIsRefused() throws Exception {
    Configuration c = cluster.clientConf();
    RPC.setProtocolEngine(c, Version3PB.class, ProtobufRpcEngine2.class);
    Version3PB old = RPC.getProxy(Version3PB.class, 3L, cluster.namenode().address(), c);
    try {
      ReadSmallFileRequestProto req = ReadSmallFileRequestProto.newBuilder().setSrc("/pb").build();
      assertThatThrownBy(() -> ShadedProtobufHelper.ipc(() -> old.readSmallFile(null, req)))
          .isInstanceOf(RemoteException.class)
          .satisfies(
              e ->
                  assertThat(((RemoteException) e).getClassName())
                      .isEqualTo(RPC.VersionMismatch.class.getName()))
          .hasMessageContaining(
              "Protocol io.hops.SmallFilesProtocol version mismatch. (client = 3, server = 4)");
    } finally {
      RPC.stopProxy(old);
    }
  }

  @Test
  void aClientOfTheFormerWritableProtocolIsRefused() throws Exception {
    Configuration c = cluster.clientConf();
    RPC.setProtocolEngine(c, WritableVersion3.class, WritableRpcEngine.class);
    WritableVersion3 old =
        RPC.getProxy(WritableVersion3.class, 3L, cluster.namenode().address(), c);
    try {
      assertThatThrownBy(() -> old.readSmallFile(new Text("/pb")))
          .isInstanceOf(RemoteException.class)
          .hasMessageContaining("Unknown protocol: io.hops.SmallFilesProtocol");
    } finally {
      RPC.stopProxy(old);
    }
  }
}
