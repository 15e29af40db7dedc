package io.hops.namenode;

import io.hops.dal.AccessCounts;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A hops cluster for a cost test class: started before its tests with a stock client, every
 * committed transaction's database accesses noted by operation (the last of each, and all since
 * {@link #forget}), and closed after them. A class registers it in a static field and asks what an
 * operation cost last:
 *
 * <pre>{@code
 * @RegisterExtension static final ObservedCluster hops = ObservedCluster.of(conf);
 * ...
 * hops.fs().mkdirs(p);
 * AccessCounts c = hops.last("mkdirs");
 * }</pre>
 */
public final class ObservedCluster implements BeforeAllCallback, AfterAllCallback {
  private final Configuration conf;
  private final int datanodes;
  private final Map<String, AccessCounts> last = new ConcurrentHashMap<>();
  private final Map<String, List<AccessCounts>> seen = new ConcurrentHashMap<>();
  private HopsTestCluster cluster;
  private DistributedFileSystem fs;

  private ObservedCluster(Configuration conf, int datanodes) {
    this.conf = conf;
    this.datanodes = datanodes;
  }

  /** A cluster with the namenode settings of {@code conf}. */
  public static ObservedCluster of(Configuration conf) {
    return new ObservedCluster(conf, 0);
  }

  /** The same with {@code n} stock DataNodes, live before the class's tests. */
  public ObservedCluster withDatanodes(int n) {
    return new ObservedCluster(conf, n);
  }

  /** A cluster with default settings. */
  public static ObservedCluster of() {
    return of(new Configuration(false));
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    cluster = new HopsTestCluster(conf);
    if (datanodes > 0) {
      cluster.startDatanodes(datanodes);
      cluster.waitForLive(datanodes);
    }
    fs = cluster.client();
    cluster
        .namenode()
        .namesystem()
        .runner()
        .observe(
            (op, counts) -> {
              last.put(op, counts);
              seen.computeIfAbsent(op, k -> Collections.synchronizedList(new ArrayList<>()))
                  .add(counts);
            });
  }

  @Override
  public void afterAll(ExtensionContext context) throws Exception {
    if (fs != null) {
      fs.close();
    }
    if (cluster != null) {
      cluster.close();
    }
  }

  public HopsTestCluster cluster() {
    return cluster;
  }

  /** The superuser's stock client. */
  public DistributedFileSystem fs() {
    return fs;
  }

  /** The accesses of the last committed transaction of {@code op}; null if none ran. */
  public AccessCounts last(String op) {
    return last.get(op);
  }

  /** The accesses of each transaction of {@code op} since {@link #forget}, in commit order. */
  public List<AccessCounts> seen(String op) {
    List<AccessCounts> list = seen.get(op);
    if (list == null) {
      return new ArrayList<>();
    }
    synchronized (list) {
      return new ArrayList<>(list);
    }
  }

  /** {@link #seen(String)} of every operation that ran since {@link #forget}. */
  public Map<String, List<AccessCounts>> seen() {
    Map<String, List<AccessCounts>> out = new ConcurrentHashMap<>();
    seen.keySet().forEach(op -> out.put(op, seen(op)));
    return out;
  }

  /** Forgets the transactions seen so far (not the last of each operation). */
  public void forget() {
    seen.clear();
  }
}
