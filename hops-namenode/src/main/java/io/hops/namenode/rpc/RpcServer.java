package io.hops.namenode.rpc;

import java.io.IOException;
import java.net.InetSocketAddress;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.ClientNamenodeProtocol;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;

/**
 * The namenode's Hadoop IPC server: Hadoop's own protobuf translators speak the wire, hops supplies
 * the semantics. Exceptions reach the client with their class intact.
 */
public final class RpcServer implements AutoCloseable {
  private final RPC.Server server;

  public RpcServer(Configuration conf, ClientProtocol client, String bindHost, int port)
      throws IOException {
    RPC.setProtocolEngine(conf, ClientNamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    BlockingService service =
        ClientNamenodeProtocol.newReflectiveBlockingService(
            new ClientNamenodeProtocolServerSideTranslatorPB(client));
    this.server =
        new RPC.Builder(conf)
            .setProtocol(ClientNamenodeProtocolPB.class)
            .setInstance(service)
            .setBindAddress(bindHost)
            .setPort(port)
            .setNumHandlers(
                conf.getInt(
                    DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_KEY,
                    DFSConfigKeys.DFS_NAMENODE_HANDLER_COUNT_DEFAULT))
            .setVerbose(false)
            .build();
  }

  public void start() {
    server.start();
  }

  public InetSocketAddress address() {
    return server.getListenerAddress();
  }

  @Override
  public void close() {
    server.stop();
  }
}
