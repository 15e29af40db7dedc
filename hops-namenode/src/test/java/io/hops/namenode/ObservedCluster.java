package io.hops.namenode;

import io.hops.dal.AccessCounts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A hops cluster for a cost test class: started before its tests with a stock client, every
 * committed transaction's database accesses noted by operation, and closed after them. A class
 * registers it in a static field and asks what an operation cost last:
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
  private final Map<String, AccessCounts> last = new ConcurrentHashMap<>();
  private HopsTestCluster cluster;
  private DistributedFileSystem fs;

  private ObservedCluster(Configuration conf) {
    this.conf = conf;
  }

  /** A cluster with the namenode settings of {@code conf}. */
  public static ObservedCluster of(Configuration conf) {
    return new ObservedCluster(conf);
  }

  /** A cluster with default settings. */
  public static ObservedCluster of() {
    return of(new Configuration(false));
  }

  @Override
  public void beforeAll(ExtensionContext context) throws Exception {
    cluster = new HopsTestCluster(conf);
    fs = cluster.client();
    cluster.namenode().namesystem().runner().observe(last::put);
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
}
