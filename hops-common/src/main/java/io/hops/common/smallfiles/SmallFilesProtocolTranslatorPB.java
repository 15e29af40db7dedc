package io.hops.common.smallfiles;

import io.hops.common.smallfiles.proto.SmallFilesProtos.AppendSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.CreateSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileResponseProto;
import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.UnsafeByteOperations;

/**
 * The client's side of {@link SmallFilesProtocol} on one namenode: each call becomes one protobuf
 * message over Hadoop's protobuf RPC engine. A server's exception arrives as the {@link
 * org.apache.hadoop.ipc.RemoteException} it would be over any Hadoop RPC; a connection failure as
 * the {@link IOException} the IPC client raised (so a caller can fail over).
 */
public final class SmallFilesProtocolTranslatorPB implements SmallFilesProtocol, Closeable {
  private final SmallFilesProtocolPB rpc;

  public SmallFilesProtocolTranslatorPB(InetSocketAddress address, Configuration conf)
      throws IOException {
    RPC.setProtocolEngine(conf, SmallFilesProtocolPB.class, ProtobufRpcEngine2.class);
    this.rpc =
        RPC.getProxy(SmallFilesProtocolPB.class, SmallFilesProtocolPB.VERSION, address, conf);
  }

  @Override
  public boolean createSmallFile(
      String src,
      short permission,
      String clientName,
      boolean overwrite,
      boolean createParent,
      short replication,
      long blockSize,
      byte[] data)
      throws IOException {
    CreateSmallFileRequestProto req =
        CreateSmallFileRequestProto.newBuilder()
            .setSrc(src)
            .setPermission(permission & 0xffff)
            .setClientName(clientName)
            .setOverwrite(overwrite)
            .setCreateParent(createParent)
            .setReplication(replication)
            .setBlockSize(blockSize)
            .setData(UnsafeByteOperations.unsafeWrap(data == null ? new byte[0] : data))
            .build();
    return ipc(() -> rpc.createSmallFile(null, req)).getCreated();
  }

  @Override
  public boolean appendSmallFile(long fileId, long expectedLength, String clientName, byte[] data)
      throws IOException {
    AppendSmallFileRequestProto req =
        AppendSmallFileRequestProto.newBuilder()
            .setFileId(fileId)
            .setExpectedLength(expectedLength)
            .setClientName(clientName)
            .setData(UnsafeByteOperations.unsafeWrap(data == null ? new byte[0] : data))
            .build();
    return ipc(() -> rpc.appendSmallFile(null, req)).getAppended();
  }

  @Override
  public ByteBuffer readSmallFile(String src) throws IOException {
    ReadSmallFileRequestProto req = ReadSmallFileRequestProto.newBuilder().setSrc(src).build();
    ReadSmallFileResponseProto res = ipc(() -> rpc.readSmallFile(null, req));
    return res.hasData() ? res.getData().asReadOnlyByteBuffer() : null;
  }

  @Override
  public void close() {
    RPC.stopProxy(rpc);
  }

  /** A protobuf call of the proxy. */
  @FunctionalInterface
  private interface Call<T> {
    T run() throws ServiceException;
  }

  /**
   * Runs a call and unwraps the {@link ServiceException} the protobuf engine wraps every failure
   * in. Hadoop 3.4+ has a helper for this, but hops-client also runs on older Hadoop client jars
   * (Spark 3.5 brings 3.3.4), which lack it.
   */
  private static <T> T ipc(Call<T> call) throws IOException {
    try {
      return call.run();
    } catch (ServiceException e) {
      Throwable cause = e.getCause();
      if (cause instanceof IOException io) {
        throw io;
      }
      throw new IOException(e);
    }
  }
}
