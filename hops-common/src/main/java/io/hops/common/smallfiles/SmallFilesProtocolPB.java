package io.hops.common.smallfiles;

import io.hops.common.smallfiles.proto.SmallFilesProtos.SmallFilesProtocolService;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.security.token.delegation.DelegationTokenSelector;
import org.apache.hadoop.ipc.ProtocolInfo;
import org.apache.hadoop.security.KerberosInfo;
import org.apache.hadoop.security.token.TokenInfo;

/**
 * The wire form of {@link SmallFilesProtocol}: the generated protobuf service under its protocol
 * name and version, for Hadoop's protobuf RPC engine ({@code ProtobufRpcEngine2}, as HDFS's {@code
 * ClientNamenodeProtocolPB}). A client of another version is refused by the RPC server with {@code
 * RPC.VersionMismatch}. With Kerberos, a client authenticates to the namenode's principal or with
 * an HDFS delegation token, as for {@code ClientNamenodeProtocolPB}: the stock IPC client reads
 * both from these annotations.
 */
@KerberosInfo(serverPrincipal = HdfsClientConfigKeys.DFS_NAMENODE_KERBEROS_PRINCIPAL_KEY)
@TokenInfo(DelegationTokenSelector.class)
@ProtocolInfo(
    protocolName = SmallFilesProtocolPB.NAME,
    protocolVersion = SmallFilesProtocolPB.VERSION)
public interface SmallFilesProtocolPB extends SmallFilesProtocolService.BlockingInterface {
  String NAME = "io.hops.SmallFilesProtocol";

  /** 4: protobuf (1-3 were Writable). */
  long VERSION = 4L;
}
