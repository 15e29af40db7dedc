package io.hops.client;

import io.hops.common.smallfiles.SmallFilesProtocol;
import io.hops.common.smallfiles.SmallFilesProtocolTranslatorPB;
import java.io.EOFException;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.URI;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSUtilClient;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.ipc.Client;
import org.apache.hadoop.net.NetUtils;
import org.apache.hadoop.security.UserGroupInformation;

/**
 * Proxies of {@link SmallFilesProtocol} to the namenodes of one file system URI: the one address,
 * or every namenode of an HA nameservice, starting at a random one and going on to the next when a
 * namenode cannot be reached. The calls go over Hadoop's protobuf RPC engine ({@link
 * SmallFilesProtocolTranslatorPB}).
 */
final class SmallFilesClient implements AutoCloseable {
  /**
   * Whether reads go on connections of their own ({@link DirectReadConnections}) when the
   * authentication allows; {@code true} by default.
   */
  static final String DIRECT_READ = "hops.client.smallfiles.direct-read";

  private final List<SmallFilesProtocolTranslatorPB> proxies = new ArrayList<>();
  private final List<DirectReadConnections> direct = new ArrayList<>();
  private int current;

  SmallFilesClient(URI uri, Configuration conf) throws IOException {
    List<InetSocketAddress> addresses = new ArrayList<>();
    if (HAUtilClient.isLogicalUri(conf, uri)) {
      Map<String, InetSocketAddress> byId =
          DFSUtilClient.getAddressesForNameserviceId(
              conf, uri.getHost(), null, HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY);
      addresses.addAll(byId.values());
    } else {
      addresses.add(
          NetUtils.createSocketAddr(
              uri.getAuthority(), HdfsClientConfigKeys.DFS_NAMENODE_RPC_PORT_DEFAULT));
    }
    Configuration c = new Configuration(conf);
    // The user the stock proxies call as: the one creating them.
    UserGroupInformation ugi = UserGroupInformation.getCurrentUser();
    boolean directReads = conf.getBoolean(DIRECT_READ, true) && DirectReadConnections.usable(ugi);
    for (InetSocketAddress a : addresses) {
      proxies.add(new SmallFilesProtocolTranslatorPB(a, c));
      if (directReads) {
        direct.add(new DirectReadConnections(a, c, ugi));
      }
    }
    current = proxies.isEmpty() ? 0 : ThreadLocalRandom.current().nextInt(proxies.size());
  }

  /** One call of the protocol. */
  @FunctionalInterface
  interface Call<T> {
    T on(SmallFilesProtocol p) throws IOException;
  }

  /**
   * Runs {@code call} on a namenode, trying the next when a namenode cannot be reached or the
   * connection breaks before the answer. Every attempt goes out with the first attempt's call id,
   * so a namenode that finds the call already done (its create committed before the answer was
   * lost) answers that outcome from the retry cache, as HDFS's failover proxy does.
   */
  <T> T call(Call<T> call) throws IOException {
    IOException last = null;
    int callId = Client.nextCallId();
    for (int i = 0; i < proxies.size(); i++) {
      int at = Math.floorMod(current + i, proxies.size());
      Client.setCallIdAndRetryCount(callId, i, null);
      try {
        T out = call.on(proxies.get(at));
        current = at;
        return out;
      } catch (EOFException | SocketException e) { // ConnectException too
        last = e;
      }
    }
    throw last == null ? new IOException("no namenode address") : last;
  }

  /**
   * {@code readSmallFile}, on a namenode as {@link #call} makes it, on the calling thread when
   * {@link DirectReadConnections} can carry it.
   */
  ByteBuffer read(String src) throws IOException {
    if (direct.isEmpty()) {
      return call(p -> p.readSmallFile(src));
    }
    IOException last = null;
    for (int i = 0; i < direct.size(); i++) {
      int at = Math.floorMod(current + i, direct.size());
      try {
        ByteBuffer out = direct.get(at).readSmallFile(src);
        current = at;
        return out;
      } catch (EOFException | SocketException e) { // ConnectException too
        last = e;
      }
    }
    throw last;
  }

  /** Reads made on {@link DirectReadConnections} so far (tests). */
  long directCalls() {
    return direct.stream().mapToLong(DirectReadConnections::calls).sum();
  }

  @Override
  public void close() {
    for (SmallFilesProtocolTranslatorPB p : proxies) {
      p.close();
    }
    for (DirectReadConnections d : direct) {
      d.close();
    }
  }
}
