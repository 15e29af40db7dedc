package io.hops.namenode;

import io.hops.dal.DalConfig;
import io.hops.dal.Storage;
import io.hops.dal.Storages;
import io.hops.namenode.rpc.ClientRpc;
import io.hops.namenode.rpc.RpcServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.HashMap;
import java.util.Map;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.net.NetUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One stateless namenode: a DAL storage, a {@link Namesystem} over it, and the RPC server. Any
 * number of them may serve the same database.
 */
public final class HopsNameNode implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(HopsNameNode.class);

  private final Storage storage;
  private final boolean ownsStorage;
  private final Namesystem namesystem;
  private final RpcServer rpc;

  /** Starts a namenode over its own storage, opened from the {@code hops.metadata.*} keys. */
  public static HopsNameNode start(Configuration conf) throws IOException {
    Storage storage = Storages.open(dalConfig(conf));
    try {
      storage.schema().createOrUpgrade();
      return new HopsNameNode(conf, storage, true);
    } catch (IOException | RuntimeException e) {
      storage.close();
      throw e;
    }
  }

  /** Starts a namenode over a storage someone else owns (tests: two namenodes, one store). */
  public static HopsNameNode start(Configuration conf, Storage storage) throws IOException {
    return new HopsNameNode(conf, storage, false);
  }

  private HopsNameNode(Configuration conf, Storage storage, boolean ownsStorage)
      throws IOException {
    this.storage = storage;
    this.ownsStorage = ownsStorage;
    this.namesystem = new Namesystem(storage, conf);
    namesystem.ensureRoot();
    InetSocketAddress bind =
        NetUtils.createSocketAddr(
            conf.getTrimmed(DFSConfigKeys.DFS_NAMENODE_RPC_BIND_HOST_KEY, "127.0.0.1"),
            conf.getInt(NamenodeConfig.RPC_PORT, NamenodeConfig.RPC_PORT_DEFAULT));
    this.rpc = new RpcServer(conf, new ClientRpc(namesystem), bind.getHostString(), bind.getPort());
    rpc.start();
    LOG.info(
        "namenode serving ClientProtocol at {} over the {} store", address(), storage.engine());
  }

  /** The RPC address clients use: {@code hdfs://host:port}. */
  public InetSocketAddress address() {
    return rpc.address();
  }

  public String uri() {
    return "hdfs://" + address().getHostString() + ":" + address().getPort();
  }

  public Namesystem namesystem() {
    return namesystem;
  }

  @Override
  public void close() {
    rpc.close();
    if (ownsStorage) {
      storage.close();
    }
  }

  public static DalConfig dalConfig(Configuration conf) {
    Map<String, String> values = new HashMap<>(conf.getPropsWithPrefix("hops.metadata."));
    Map<String, String> keys = new HashMap<>();
    values.forEach((k, v) -> keys.put("hops.metadata." + k, v));
    return DalConfig.of(keys);
  }
}
