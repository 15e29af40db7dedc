package io.hops.namenode.rpc;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.common.smallfiles.SmallFilesProtocolPB;
import io.hops.common.smallfiles.proto.SmallFilesProtos.AppendSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.AppendSmallFileResponseProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.CreateSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.CreateSmallFileResponseProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileRequestProto;
import io.hops.common.smallfiles.proto.SmallFilesProtos.ReadSmallFileResponseProto;
import java.io.IOException;
import java.nio.ByteBuffer;
import org.apache.hadoop.thirdparty.protobuf.RpcController;
import org.apache.hadoop.thirdparty.protobuf.ServiceException;
import org.apache.hadoop.thirdparty.protobuf.UnsafeByteOperations;

/**
 * The namenode's side of the small-files wire protocol: each protobuf request becomes a call of
 * {@link SmallFilesProtocol}; an {@link IOException} goes back wrapped in a {@link
 * ServiceException}, which the RPC server unwraps and sends with its class name, as for {@code
 * ClientProtocol}.
 */
public final class SmallFilesProtocolServerSideTranslatorPB implements SmallFilesProtocolPB {
  private static final CreateSmallFileResponseProto CREATED =
      CreateSmallFileResponseProto.newBuilder().setCreated(true).build();
  private static final CreateSmallFileResponseProto DECLINED =
      CreateSmallFileResponseProto.newBuilder().setCreated(false).build();
  private static final AppendSmallFileResponseProto APPENDED =
      AppendSmallFileResponseProto.newBuilder().setAppended(true).build();
  private static final AppendSmallFileResponseProto NOT_APPENDED =
      AppendSmallFileResponseProto.newBuilder().setAppended(false).build();
  private static final ReadSmallFileResponseProto ON_DATANODES =
      ReadSmallFileResponseProto.getDefaultInstance();

  private final SmallFilesProtocol impl;

  public SmallFilesProtocolServerSideTranslatorPB(SmallFilesProtocol impl) {
    this.impl = impl;
  }

  @Override
  public CreateSmallFileResponseProto createSmallFile(
      RpcController controller, CreateSmallFileRequestProto req) throws ServiceException {
    try {
      boolean created =
          impl.createSmallFile(
              req.getSrc(),
              (short) req.getPermission(),
              req.getClientName(),
              req.getOverwrite(),
              req.getCreateParent(),
              (short) req.getReplication(),
              req.getBlockSize(),
              req.getData().toByteArray());
      return created ? CREATED : DECLINED;
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  @Override
  public AppendSmallFileResponseProto appendSmallFile(
      RpcController controller, AppendSmallFileRequestProto req) throws ServiceException {
    try {
      boolean appended =
          impl.appendSmallFile(
              req.getFileId(),
              req.getExpectedLength(),
              req.getClientName(),
              req.getData().toByteArray());
      return appended ? APPENDED : NOT_APPENDED;
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }

  /** The row's bytes go into the response without a copy. */
  @Override
  public ReadSmallFileResponseProto readSmallFile(
      RpcController controller, ReadSmallFileRequestProto req) throws ServiceException {
    try {
      ByteBuffer data = impl.readSmallFile(req.getSrc());
      return data == null
          ? ON_DATANODES
          : ReadSmallFileResponseProto.newBuilder()
              .setData(UnsafeByteOperations.unsafeWrap(data))
              .build();
    } catch (IOException e) {
      throw new ServiceException(e);
    }
  }
}
