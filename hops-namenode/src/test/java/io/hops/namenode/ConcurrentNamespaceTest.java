package io.hops.namenode;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.namenode.check.NamespaceChecker;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.ParentNotDirectoryException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.PathIsNotEmptyDirectoryException;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.junit.jupiter.api.Test;

/**
 * Many stock clients run mixed mkdirs, create, rename, delete, stat and ls in overlapping
 * directories, through one namenode or through two over one store. No client sees a failure caused
 * by a deadlock or a lock timeout (the runner retries those), no file is lost, and the namespace
 * invariants hold at the end.
 */
class ConcurrentNamespaceTest {
  private static final int SECONDS = Integer.getInteger("hops.test.stress.seconds", 30);
  private static final List<String> SHARED = List.of("/s/a", "/s/b", "/s/c", "/s/d/e", "/s/d/f");

  @Test
  void thirtyTwoClientsOfOneNamenodeKeepTheNamespaceConsistent() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      List<DistributedFileSystem> clients = new ArrayList<>();
      for (int i = 0; i < 32; i++) {
        clients.add(cluster.client());
      }
      hammer(cluster, clients, SECONDS);
    }
  }

  @Test
  void twoNamenodesOverOneEmbeddedStoreStayConsistent() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        HopsNameNode second = cluster.startAnotherNamenode()) {
      hammer(cluster, clientsOfBoth(cluster, second), Math.max(5, SECONDS / 3));
    }
  }

  @Test
  void twoNamenodesOverOneMariadbStayConsistent() throws Exception {
    HopsTestCluster cluster = HopsTestCluster.onMariadbOrNull();
    org.junit.jupiter.api.Assumptions.assumeTrue(
        cluster != null, "set HOPS_TEST_MYSQL_URL/USER/PASSWORD to run against MariaDB");
    try (cluster;
        HopsNameNode second = cluster.startAnotherNamenode()) {
      hammer(cluster, clientsOfBoth(cluster, second), Math.max(5, SECONDS / 3));
    }
  }

  private static List<DistributedFileSystem> clientsOfBoth(HopsTestCluster c, HopsNameNode second)
      throws IOException {
    List<DistributedFileSystem> clients = new ArrayList<>();
    for (int i = 0; i < 16; i++) {
      clients.add(i % 2 == 0 ? c.client() : c.client(second));
    }
    return clients;
  }

  /** Runs the mix, then checks that every client's own files are where it last put them. */
  private static void hammer(HopsTestCluster cluster, List<DistributedFileSystem> clients, int secs)
      throws Exception {
    DistributedFileSystem admin = cluster.client();
    for (String d : SHARED) {
      admin.mkdirs(new Path(d));
    }
    Map<String, AtomicLong> outcomes = new ConcurrentHashMap<>();
    List<String> unexpected = Collections.synchronizedList(new ArrayList<>());
    long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(secs);
    ExecutorService pool = Executors.newFixedThreadPool(clients.size());
    List<Future<Map<String, String>>> owned = new ArrayList<>();
    for (int t = 0; t < clients.size(); t++) {
      int thread = t;
      DistributedFileSystem fs = clients.get(t);
      owned.add(pool.submit(() -> run(fs, thread, end, outcomes, unexpected)));
    }
    pool.shutdown();
    assertThat(pool.awaitTermination(secs + 120L, TimeUnit.SECONDS)).isTrue();
    Map<String, String> files = new HashMap<>();
    for (Future<Map<String, String>> f : owned) {
      files.putAll(f.get());
    }
    assertThat(unexpected).as("unexpected failures").isEmpty();
    for (Map.Entry<String, String> e : files.entrySet()) {
      assertThat(admin.exists(new Path(e.getValue()))).as("file %s lost", e.getKey()).isTrue();
    }
    assertThat(NamespaceChecker.violations(cluster.namenode().namesystem().storage())).isEmpty();
    assertThat(outcomes.getOrDefault("ok", new AtomicLong()).get()).isGreaterThan(100);
    for (DistributedFileSystem fs : clients) {
      fs.close();
    }
    admin.close();
  }

  /** One client's loop; returns where each of its own files ended up. */
  private static Map<String, String> run(
      DistributedFileSystem fs,
      int thread,
      long end,
      Map<String, AtomicLong> outcomes,
      List<String> unexpected) {
    Random rnd = new Random(thread);
    Map<String, String> mine = new HashMap<>(); // file id -> current path
    int n = 0;
    while (System.nanoTime() < end) {
      String dir = SHARED.get(rnd.nextInt(SHARED.size()));
      String scratch = dir + "/x" + rnd.nextInt(8);
      try {
        switch (rnd.nextInt(7)) {
          case 0 -> fs.mkdirs(new Path(scratch + "/y" + rnd.nextInt(4)));
          case 1 -> {
            String id = "t" + thread + "-" + n++;
            String p = dir + "/" + id;
            fs.create(new Path(p)).close();
            mine.put(id, p);
          }
          case 2 -> {
            if (!mine.isEmpty()) {
              String id = new ArrayList<>(mine.keySet()).get(rnd.nextInt(mine.size()));
              String to = SHARED.get(rnd.nextInt(SHARED.size())) + "/" + id;
              if (!to.equals(mine.get(id)) && fs.rename(new Path(mine.get(id)), new Path(to))) {
                mine.put(id, to);
              }
            }
          }
          case 3 -> fs.delete(new Path(scratch), true);
          case 4 -> fs.getFileStatus(new Path(dir));
          case 5 -> fs.listStatus(new Path(dir));
          default -> fs.rename(new Path(scratch), new Path(dir + "/x" + rnd.nextInt(8)));
        }
        outcomes.computeIfAbsent("ok", k -> new AtomicLong()).incrementAndGet();
      } catch (FileNotFoundException
          | FileAlreadyExistsException
          | ParentNotDirectoryException
          | PathIsNotEmptyDirectoryException e) {
        outcomes
            .computeIfAbsent(e.getClass().getSimpleName(), k -> new AtomicLong())
            .incrementAndGet();
      } catch (IOException | RuntimeException e) {
        unexpected.add(e.toString());
      }
    }
    return mine;
  }
}
