package io.hops.namenode.blocks;

import io.hops.namenode.config.NamenodeConfig;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CommonConfigurationKeysPublic;
import org.apache.hadoop.hdfs.protocol.DatanodeID;
import org.apache.hadoop.net.CachedDNSToSwitchMapping;
import org.apache.hadoop.net.DNSToSwitchMapping;
import org.apache.hadoop.net.NetworkTopology;
import org.apache.hadoop.net.NodeBase;
import org.apache.hadoop.net.ScriptBasedMapping;
import org.apache.hadoop.util.ReflectionUtils;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Where a host sits in the network, by Hadoop's own mapping ({@code
 * net.topology.node.switch.mapping.impl}: {@code ScriptBasedMapping} by default, {@code
 * TableMapping}, {@code StaticMapping} or any {@code DNSToSwitchMapping}), and how far apart two
 * locations are (HDFS NetworkTopology.getDistanceByPath). As HDFS's DatanodeManager, a caching
 * mapping is asked for a datanode's address and any other for its host name; a mapping that fails,
 * prints the wrong number of locations or a location that is not a path gives {@link
 * NetworkTopology#DEFAULT_RACK} and a warning. Unlike HDFS, a mapping that takes longer than {@link
 * NamenodeConfig#TOPOLOGY_RESOLVE_TIMEOUT_MS} gives the default rack too: a hung topology script
 * never holds a registration.
 */
public final class NetworkLocations {
  private static final Logger LOG = LoggerFactory.getLogger(NetworkLocations.class);

  /**
   * Readers' locations resolved so far (a hint: the mapping is the truth), before starting over.
   */
  private static final int READER_CACHE_SIZE = 10_000;

  private final DNSToSwitchMapping mapping;
  private final boolean byAddress;
  private final long timeoutMillis;
  private final ExecutorService resolver =
      Executors.newCachedThreadPool(
          r -> {
            Thread t = new Thread(r, "topology-resolver");
            t.setDaemon(true);
            return t;
          });
  private final Map<String, String> readers = new ConcurrentHashMap<>();

  public NetworkLocations(Configuration conf) {
    this.mapping =
        ReflectionUtils.newInstance(
            conf.getClass(
                CommonConfigurationKeysPublic.NET_TOPOLOGY_NODE_SWITCH_MAPPING_IMPL_KEY,
                ScriptBasedMapping.class,
                DNSToSwitchMapping.class),
            conf);
    this.byAddress =
        mapping instanceof CachedDNSToSwitchMapping
            && !conf.getBoolean(
                NamenodeConfig.TOPOLOGY_RESOLVE_HOSTNAMES,
                NamenodeConfig.TOPOLOGY_RESOLVE_HOSTNAMES_DEFAULT);
    this.timeoutMillis =
        conf.getLong(
            NamenodeConfig.TOPOLOGY_RESOLVE_TIMEOUT_MS,
            NamenodeConfig.TOPOLOGY_RESOLVE_TIMEOUT_MS_DEFAULT);
  }

  /**
   * The network location of a registering datanode (HDFS resolveNetworkLocation, with fallback).
   */
  public String of(DatanodeID dn) {
    String name = byAddress ? dn.getIpAddr() : dn.getHostName();
    String location = resolve(name);
    if (location == null) {
      LOG.warn(
          "Unresolved topology mapping. Using {} for host {}",
          NetworkTopology.DEFAULT_RACK,
          dn.getHostName());
      return NetworkTopology.DEFAULT_RACK;
    }
    return location;
  }

  /** The network location of a reader on no datanode's host, or null if the mapping has none. */
  public String ofReader(String host) {
    String known = readers.get(host);
    if (known != null) {
      return known.isEmpty() ? null : known;
    }
    String location = resolve(host);
    if (readers.size() >= READER_CACHE_SIZE) {
      readers.clear();
    }
    readers.put(host, location == null ? "" : location);
    return location;
  }

  /** One name's location by the mapping, normalized, or null if the mapping gave none usable. */
  private String resolve(String name) {
    Future<List<String>> answer = resolver.submit(() -> mapping.resolve(List.of(name)));
    List<String> locations;
    try {
      locations = answer.get(timeoutMillis, TimeUnit.MILLISECONDS);
    } catch (TimeoutException e) {
      answer.cancel(true);
      LOG.warn("topology mapping {} took over {} ms to resolve {}", mapping, timeoutMillis, name);
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    } catch (Exception e) {
      LOG.warn("topology mapping {} failed to resolve {}", mapping, name, e);
      return null;
    }
    if (locations == null || locations.size() != 1 || locations.get(0) == null) {
      return null;
    }
    try {
      String location = NodeBase.normalize(locations.get(0));
      return location.isEmpty() ? null : location;
    } catch (IllegalArgumentException e) {
      LOG.warn("topology mapping {} gave {} a bad location: {}", mapping, name, e.getMessage());
      return null;
    }
  }

  /**
   * The network distance between two nodes given by their locations and names (HDFS
   * NetworkTopology.getDistanceByPath): 0 the same node, 2 the same rack, 4 another rack.
   */
  public static int distance(String location1, String name1, String location2, String name2) {
    return NetworkTopology.getDistanceByPath(
        new NodeBase(name1, location1), new NodeBase(name2, location2));
  }
}
