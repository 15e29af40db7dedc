package io.hops.namenode.rpc;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.common.smallfiles.SmallFilesProtocolPB;
import io.hops.common.smallfiles.proto.SmallFilesProtos.SmallFilesProtocolService;
import io.hops.namenode.security.DelegationTokens;
import io.hops.namenode.security.HopsPolicyProvider;
import io.hops.namenode.security.SecurityRefresh;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeys;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.proto.ClientNamenodeProtocolProtos.ClientNamenodeProtocol;
import org.apache.hadoop.hdfs.protocol.proto.DatanodeProtocolProtos.DatanodeProtocolService;
import org.apache.hadoop.hdfs.protocol.proto.NamenodeProtocolProtos.NamenodeProtocolService;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.ClientNamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.DatanodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.protocolPB.NamenodeProtocolPB;
import org.apache.hadoop.hdfs.protocolPB.NamenodeProtocolServerSideTranslatorPB;
import org.apache.hadoop.hdfs.server.protocol.DatanodeProtocol;
import org.apache.hadoop.hdfs.server.protocol.NamenodeProtocol;
import org.apache.hadoop.ipc.GenericRefreshProtocol;
import org.apache.hadoop.ipc.ProtobufRpcEngine2;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.proto.GenericRefreshProtocolProtos.GenericRefreshProtocolService;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolPB;
import org.apache.hadoop.ipc.protocolPB.GenericRefreshProtocolServerSideTranslatorPB;
import org.apache.hadoop.security.proto.RefreshAuthorizationPolicyProtocolProtos.RefreshAuthorizationPolicyProtocolService;
import org.apache.hadoop.security.proto.RefreshUserMappingsProtocolProtos.RefreshUserMappingsProtocolService;
import org.apache.hadoop.security.protocolPB.RefreshAuthorizationPolicyProtocolPB;
import org.apache.hadoop.security.protocolPB.RefreshAuthorizationPolicyProtocolServerSideTranslatorPB;
import org.apache.hadoop.security.protocolPB.RefreshUserMappingsProtocolPB;
import org.apache.hadoop.security.protocolPB.RefreshUserMappingsProtocolServerSideTranslatorPB;
import org.apache.hadoop.thirdparty.protobuf.BlockingService;

/**
 * The namenode's Hadoop IPC server for ClientProtocol, DatanodeProtocol and NamenodeProtocol:
 * Hadoop's own protobuf translators speak the wire, hops supplies the semantics. Exceptions reach
 * the client with their class intact. Security is Hadoop's server's own, configured as HDFS's
 * NameNodeRpcServer configures it: SASL authentication (Kerberos, tokens), {@code
 * hadoop.rpc.protection}, proxy users ({@code ProxyUsers.authorize} when a connection names a real
 * user) and the service ACLs of {@link HopsPolicyProvider} (docs/security.md).
 */
public final class RpcServer implements AutoCloseable {
  private final RPC.Server server;

  public RpcServer(
      Configuration conf,
      ClientProtocol client,
      DatanodeProtocol datanode,
      NamenodeProtocol namenode,
      GenericRefreshProtocol extensions,
      SecurityRefresh refresh,
      DelegationTokens tokens,
      String bindHost,
      int port,
      int handlers)
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
            .setNumHandlers(handlers)
            .setVerbose(false)
            // SASL: Kerberos when hadoop.security.authentication says so, delegation tokens
            // (from the database) always offered first, at the hadoop.rpc.protection quality of
            // protection.
            .setSecretManager(tokens)
            .build();
    // Answers a client gets in the normal course, logged in one line as HDFS's namenode logs them.
    server.addTerseExceptions(
        java.io.FileNotFoundException.class,
        org.apache.hadoop.HadoopIllegalArgumentException.class,
        org.apache.hadoop.fs.FileAlreadyExistsException.class,
        org.apache.hadoop.fs.InvalidPathException.class,
        org.apache.hadoop.fs.ParentNotDirectoryException.class,
        org.apache.hadoop.fs.PathIsNotEmptyDirectoryException.class,
        org.apache.hadoop.fs.InvalidRequestException.class,
        org.apache.hadoop.security.AccessControlException.class,
        org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException.class,
        org.apache.hadoop.hdfs.protocol.QuotaExceededException.class,
        org.apache.hadoop.hdfs.protocol.FSLimitException.PathComponentTooLongException.class,
        org.apache.hadoop.hdfs.protocol.FSLimitException.MaxDirectoryItemsExceededException.class,
        org.apache.hadoop.hdfs.protocol.SnapshotException.class,
        org.apache.hadoop.hdfs.protocol.NoECPolicySetException.class,
        org.apache.hadoop.hdfs.server.namenode.SafeModeException.class,
        org.apache.hadoop.hdfs.server.namenode.LeaseExpiredException.class,
        org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException.class,
        org.apache.hadoop.security.token.SecretManager.InvalidToken.class);
    RPC.setProtocolEngine(conf, DatanodeProtocolPB.class, ProtobufRpcEngine2.class);
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        DatanodeProtocolPB.class,
        DatanodeProtocolService.newReflectiveBlockingService(
            new DatanodeProtocolServerSideTranslatorPB(datanode, maxDataLength(conf))));
    // The Balancer and other stock tools.
    RPC.setProtocolEngine(conf, NamenodeProtocolPB.class, ProtobufRpcEngine2.class);
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        NamenodeProtocolPB.class,
        NamenodeProtocolService.newReflectiveBlockingService(
            new NamenodeProtocolServerSideTranslatorPB(namenode)));
    // hops's extension calls (the membership), through Hadoop's generic refresh protocol.
    RPC.setProtocolEngine(conf, GenericRefreshProtocolPB.class, ProtobufRpcEngine2.class);
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        GenericRefreshProtocolPB.class,
        GenericRefreshProtocolService.newReflectiveBlockingService(
            new GenericRefreshProtocolServerSideTranslatorPB(extensions)));
    // dfsadmin -refreshServiceAcl, -refreshSuperUserGroupsConfiguration,
    // -refreshUserToGroupsMappings.
    RPC.setProtocolEngine(
        conf, RefreshAuthorizationPolicyProtocolPB.class, ProtobufRpcEngine2.class);
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        RefreshAuthorizationPolicyProtocolPB.class,
        RefreshAuthorizationPolicyProtocolService.newReflectiveBlockingService(
            new RefreshAuthorizationPolicyProtocolServerSideTranslatorPB(refresh)));
    RPC.setProtocolEngine(conf, RefreshUserMappingsProtocolPB.class, ProtobufRpcEngine2.class);
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        RefreshUserMappingsProtocolPB.class,
        RefreshUserMappingsProtocolService.newReflectiveBlockingService(
            new RefreshUserMappingsProtocolServerSideTranslatorPB(refresh)));
    refreshServiceAcl(conf);
  }

  /**
   * With {@code hadoop.security.authorization=true}, the service ACLs of {@code conf} (and its
   * {@code hadoop-policy.xml}), as HDFS's NameNodeRpcServer applies them.
   */
  public void refreshServiceAcl(Configuration conf) {
    if (conf.getBoolean(CommonConfigurationKeys.HADOOP_SECURITY_AUTHORIZATION, false)) {
      server.refreshServiceAcl(conf, new HopsPolicyProvider());
    }
  }

  /**
   * The largest message the server reads, {@code ipc.maximum.data.length} (128 MB by default), as
   * HDFS's NameNodeRpcServer passes it on: Hadoop's block report decoder applies it as the protobuf
   * size limit of a full block report's replica list, so a smaller value refuses real reports.
   */
  static int maxDataLength(Configuration conf) {
    return conf.getInt(
        CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH,
        CommonConfigurationKeys.IPC_MAXIMUM_DATA_LENGTH_DEFAULT);
  }

  /**
   * Adds hops's small-files extension RPC (Hadoop's protobuf engine, its own protocol name) on the
   * same port; call before {@link #start}.
   */
  public void addSmallFiles(SmallFilesProtocol impl) {
    server.addProtocol(
        RPC.RpcKind.RPC_PROTOCOL_BUFFER,
        SmallFilesProtocolPB.class,
        SmallFilesProtocolService.newReflectiveBlockingService(
            new SmallFilesProtocolServerSideTranslatorPB(impl)));
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

  /**
   * Stops as a killed process would: returns once every client connection is closed (Hadoop's
   * {@code stop} leaves that to its listener thread), so no response goes out afterwards.
   */
  public void crash() {
    server.stop();
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
    while (server.getNumOpenConnections() > 0 && System.nanoTime() - deadline < 0) {
      try {
        Thread.sleep(5);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
    }
  }
}
