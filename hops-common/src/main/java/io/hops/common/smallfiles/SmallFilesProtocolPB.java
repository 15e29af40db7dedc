package io.hops.common.smallfiles;

import io.hops.common.smallfiles.proto.SmallFilesProtos.SmallFilesProtocolService;
import org.apache.hadoop.ipc.ProtocolInfo;

/**
 * The wire form of {@link SmallFilesProtocol}: the generated protobuf service under its protocol
 * name and version, for Hadoop's protobuf RPC engine ({@code ProtobufRpcEngine2}, as HDFS's {@code
 * ClientNamenodeProtocolPB}). A client of another version is refused by the RPC server with {@code
 * RPC.VersionMismatch}.
 */
@ProtocolInfo(
    protocolName = SmallFilesProtocolPB.NAME,
    protocolVersion = SmallFilesProtocolPB.VERSION)
public interface SmallFilesProtocolPB extends SmallFilesProtocolService.BlockingInterface {
  String NAME = "io.hops.SmallFilesProtocol";

  /** 4: protobuf (1-3 were Writable). */
  long VERSION = 4L;
}
