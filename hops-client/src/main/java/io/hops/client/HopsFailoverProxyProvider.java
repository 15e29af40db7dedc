package io.hops.client;

import java.io.IOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.HAUtilClient;
import org.apache.hadoop.hdfs.client.HdfsClientConfigKeys;
import org.apache.hadoop.hdfs.server.namenode.ha.AbstractNNFailoverProxyProvider;
import org.apache.hadoop.hdfs.server.namenode.ha.HAProxyFactory;
import org.apache.hadoop.ipc.Client.ConnectionId;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.RemoteException;
import org.apache.hadoop.ipc.RpcInvocationHandler;
import org.apache.hadoop.ipc.StandbyException;

/**
 * Spreads a stock client's calls over every live hops namenode. Configured like Hadoop's {@code
 * ConfiguredFailoverProxyProvider} ({@code dfs.client.failover.proxy.provider.<ns>}); the
 * nameservice's {@code dfs.namenode.rpc-address.<ns>.<id>} entries are only seeds: the list is the
 * membership that any live namenode serves, refreshed every {@code
 * hops.client.membership-refresh.ms}.
 *
 * <p>The client's {@code RetryInvocationHandler} asks for one proxy and keeps it until a failover,
 * so the proxy handed out here chooses a namenode per call ({@link NamenodeSelection}). A namenode
 * whose call fails on the network is left out for {@code hops.client.failover.dead-namenode-ttl.ms}
 * and the retry handler's failover sends the call again, to another namenode.
 */
public class HopsFailoverProxyProvider<T> extends AbstractNNFailoverProxyProvider<T> {
  /** One shared daemon thread refreshes the lists of every client in the process. */
  private static final ExecutorService REFRESHER =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "hops-client-membership-refresh");
            t.setDaemon(true);
            return t;
          });

  private final URI uri;
  private final LiveNamenodes namenodes;
  private final NamenodeSelection.Picker picker;
  private final long refreshNanos;
  private final Map<InetSocketAddress, T> proxies = new ConcurrentHashMap<>();
  private final ThreadLocal<InetSocketAddress> lastCalled = new ThreadLocal<>();
  private final AtomicBoolean refreshing = new AtomicBoolean();
  private volatile long nextRefresh;
  private final T spreading;

  public HopsFailoverProxyProvider(
      Configuration conf, URI uri, Class<T> xface, HAProxyFactory<T> factory) {
    super(conf, uri, xface, factory);
    this.uri = uri;
    List<InetSocketAddress> seeds = new ArrayList<>();
    for (NNProxyInfo<T> p :
        getProxyAddresses(uri, HdfsClientConfigKeys.DFS_NAMENODE_RPC_ADDRESS_KEY)) {
      seeds.add(p.getAddress());
    }
    this.namenodes =
        new LiveNamenodes(
            seeds,
            TimeUnit.MILLISECONDS.toNanos(
                conf.getLong(
                    HopsClientConfig.DEAD_NAMENODE_TTL_MS,
                    HopsClientConfig.DEAD_NAMENODE_TTL_MS_DEFAULT)),
            System::nanoTime);
    this.picker =
        NamenodeSelection.parse(
                conf.get(
                    HopsClientConfig.NAMENODE_SELECTION,
                    HopsClientConfig.NAMENODE_SELECTION_DEFAULT))
            .newPicker();
    this.refreshNanos =
        TimeUnit.MILLISECONDS.toNanos(
            conf.getLong(
                HopsClientConfig.MEMBERSHIP_REFRESH_MS,
                HopsClientConfig.MEMBERSHIP_REFRESH_MS_DEFAULT));
    this.nextRefresh = System.nanoTime(); // learn the members with the first call
    this.spreading =
        xface.cast(
            Proxy.newProxyInstance(
                xface.getClassLoader(), new Class<?>[] {xface}, new SpreadingHandler()));
  }

  @Override
  public ProxyInfo<T> getProxy() {
    return new ProxyInfo<>(spreading, "hops namenodes of " + uri.getHost());
  }

  /**
   * Called by the retry handler after a failover-worthy error of this thread's call (unless another
   * thread's failover came first, which is why {@link SpreadingHandler} also marks on its own).
   */
  @Override
  public void performFailover(T currentProxy) {
    InetSocketAddress failed = lastCalled.get();
    if (failed != null) {
      namenodes.markDead(failed);
    }
  }

  @Override
  public boolean useLogicalURI() {
    return true;
  }

  @Override
  public synchronized void close() throws IOException {
    for (T p : proxies.values()) {
      RPC.stopProxy(p);
    }
    proxies.clear();
  }

  /** The namenodes this client currently knows (for tests and diagnostics). */
  public List<InetSocketAddress> knownNamenodes() {
    return namenodes.known();
  }

  private T proxyFor(InetSocketAddress nn) {
    return proxies.computeIfAbsent(
        nn,
        a -> {
          try {
            // A delegation token of the logical URI (ha-hdfs:<ns>) serves every namenode: Hadoop
            // copies it to the configured addresses only, so a member learned later gets it here.
            HAUtilClient.cloneDelegationTokenForLogicalUri(ugi, uri, List.of(a));
            return factory.createProxy(conf, a, xface, ugi, false, getFallbackToSimpleAuth());
          } catch (IOException e) {
            throw new IllegalStateException("cannot create an RPC proxy to namenode " + a, e);
          }
        });
  }

  private void refreshIfDue() {
    if (System.nanoTime() - nextRefresh < 0 || !refreshing.compareAndSet(false, true)) {
      return;
    }
    REFRESHER.execute(
        () -> {
          try {
            refresh();
          } finally {
            nextRefresh = System.nanoTime() + refreshNanos;
            refreshing.set(false);
          }
        });
  }

  /** Asks the live namenodes in turn, in random order; a failed refresh keeps the old list. */
  private void refresh() {
    List<InetSocketAddress> ask = new ArrayList<>(namenodes.candidates());
    Collections.shuffle(ask);
    for (InetSocketAddress nn : ask) {
      try {
        namenodes.replace(MembershipClient.fetch(nn, conf));
        return;
      } catch (IOException | RuntimeException e) {
        LOG.debug("namenode {} did not give the membership", nn, e);
      }
    }
    LOG.warn("no namenode of {} gave the membership; keeping {}", uri, namenodes.known());
  }

  /**
   * A call's failure that says the namenode is gone or not serving, not that the call was wrong.
   */
  private static boolean namenodeUnreachable(Throwable t) {
    if (t instanceof RemoteException) {
      return StandbyException.class.getName().equals(((RemoteException) t).getClassName());
    }
    return t instanceof IOException;
  }

  /**
   * Sends each call to the namenode the selection picks among the live ones. An {@link
   * RpcInvocationHandler}, so Hadoop's retry handler sees RPC behind it and sends every attempt of
   * a call, after a failover too, with the first attempt's call id: a namenode that finds the call
   * already done (its first namenode committed it, then died before answering) answers that outcome
   * from the retry cache instead of running it again. Any other handler gets a new call id per
   * attempt, and a resent delete would answer false.
   */
  private final class SpreadingHandler implements RpcInvocationHandler {
    @Override
    public Object invoke(Object self, Method method, Object[] args) throws Throwable {
      if (method.getDeclaringClass() == Object.class) {
        return method.invoke(this, args);
      }
      refreshIfDue();
      InetSocketAddress nn = picker.pick(namenodes.candidates());
      lastCalled.set(nn);
      try {
        return method.invoke(proxyFor(nn), args);
      } catch (InvocationTargetException e) {
        Throwable cause = e.getCause();
        if (namenodeUnreachable(cause)) {
          namenodes.markDead(nn);
        }
        throw cause;
      }
    }

    /** The connection of the namenode this thread called last (or would call now). */
    @Override
    public ConnectionId getConnectionId() {
      InetSocketAddress nn = lastCalled.get();
      return RPC.getConnectionIdForProxy(
          proxyFor(nn != null ? nn : picker.pick(namenodes.candidates())));
    }

    /** Nothing of its own: the provider closes the proxies it made. */
    @Override
    public void close() {}
  }
}
