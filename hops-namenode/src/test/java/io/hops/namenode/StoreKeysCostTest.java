package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The keys the embedded engine's commits put and delete, and the keys its point lookups read from
 * the store, per mutation through the stock client: what RocksDB's write path costs an operation.
 */
class StoreKeysCostTest {
  private static HopsTestCluster cluster;
  private static DistributedFileSystem fs;
  private static final Map<String, AccessCounts> LAST = new ConcurrentHashMap<>();

  @BeforeAll
  static void start() throws Exception {
    cluster = new HopsTestCluster();
    fs = cluster.client();
    cluster.namenode().namesystem().runner().observe(LAST::put);
  }

  @AfterAll
  static void stop() throws Exception {
    fs.close();
    cluster.close();
  }

  @ParameterizedTest(name = "depth {0}")
  @ValueSource(ints = {1, 2, 3})
  void mutationsWriteOnlyTheKeysTheyChange(int depth) throws Exception {
    StringBuilder b = new StringBuilder();
    for (int i = 1; i < depth; i++) {
      b.append("/k").append(depth).append('-').append(i);
    }
    String dir = b.length() == 0 ? "/" : b.toString();
    fs.mkdirs(new Path(dir));
    fs.getFileStatus(new Path(dir));

    fs.mkdirs(new Path(dir, "d" + depth));
    System.out.println("KEYS depth " + depth + " mkdirs " + LAST.get("mkdirs").keys());
    Path file = new Path(dir, "f" + depth);
    fs.create(file).close();
    System.out.println("KEYS depth " + depth + " create " + LAST.get("create").keys());
    System.out.println("KEYS depth " + depth + " complete " + LAST.get("complete").keys());
    Path moved = new Path(dir, "g" + depth);
    assertThat(fs.rename(file, moved)).isTrue();
    System.out.println("KEYS depth " + depth + " rename " + LAST.get("rename").keys());
    assertThat(fs.delete(moved, false)).isTrue();
    System.out.println("KEYS depth " + depth + " delete " + LAST.get("delete").keys());
    assertThat(fs.delete(new Path(dir, "d" + depth), false)).isTrue();
    System.out.println("KEYS depth " + depth + " delete dir " + LAST.get("delete").keys());
  }
}
