package io.hops.namenode.perf;

import io.hops.common.HopsConfig;
import io.hops.namenode.HopsTestCluster;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileSystem;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.protocol.ClientProtocol;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.io.EnumSetWritable;
import org.apache.hadoop.ipc.ClientId;
import org.apache.hadoop.ipc.RPC;
import org.apache.hadoop.ipc.Server;
import org.apache.hadoop.security.UserGroupInformation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * Namenode CPU per metadata operation without IPC: worker threads call the namenode's client
 * protocol implementation directly, over a file-backed embedded store, and the CPU of those threads
 * is divided by the operations they completed. Run with {@code -Dhops.bench.opcost=SECONDS}; prints
 * a table.
 */
class OpCostMeasurement {
  private static final int THREADS = Integer.getInteger("hops.bench.opcost.threads", 4);

  /** Files per directory of the read fixture, and its depth: the reads of the benchmark. */
  private static final int LISTED = 16;

  private static final String READ_DIR = "/r/t%d/a/b/c/d";

  interface Op {
    void run(ClientProtocol rpc, int thread, long i) throws Exception;
  }

  @Test
  @EnabledIfSystemProperty(named = "hops.bench.opcost", matches = "\\d+")
  void measure() throws Exception {
    int seconds = Integer.getInteger("hops.bench.opcost");
    Path dir = Files.createTempDirectory("opcost");
    Configuration conf = new Configuration(false);
    conf.set(HopsConfig.METADATA_ENGINE, "embedded");
    conf.set(HopsConfig.EMBEDDED_DIR, dir.resolve("metadata").toString());
    // Workers carry a call, as handlers do: by default their responses wait for durability
    // without them (the response is never sent, nobody waits for it).
    conf.set(
        "hops.namenode.rpc.deferred-response",
        System.getProperty("hops.bench.opcost.deferred", "true"));
    try (HopsTestCluster cluster = new HopsTestCluster(conf)) {
      // The protocol object RPC serves: reserved paths, safe mode, audit and counters included.
      ClientProtocol rpc = cluster.namenode().clientProtocol();
      FsPermission perm = FsPermission.getDefault();
      String client = "opcost-client";
      for (int t = 0; t < THREADS; t++) {
        rpc.mkdirs("/m/t" + t, perm, true);
        rpc.mkdirs("/f/t" + t, perm, true);
      }
      if (selected("stat7") || selected("open") || selected("ls")) {
        writeReadFixture(cluster);
      }
      List<String> report = new ArrayList<>();
      phase(
          report,
          "mkdirs",
          seconds,
          rpc,
          (r, t, i) -> r.mkdirs("/m/t" + t + "/d" + i, perm, false));
      long[] files = new long[THREADS];
      phase(
          report,
          "create",
          seconds,
          rpc,
          (r, t, i) -> {
            String p = "/f/t" + t + "/a" + i;
            HdfsFileStatus st =
                r.create(
                    p,
                    perm,
                    client + t,
                    new EnumSetWritable<>(EnumSet.of(CreateFlag.CREATE)),
                    false,
                    (short) 1,
                    128L << 20,
                    null,
                    null,
                    null);
            r.complete(p, client + t, null, st.getFileId());
            files[t] = Math.max(files[t], i + 1);
          });
      if (files[0] > 0) { // the files of the create phase
        phase(
            report,
            "stat",
            seconds,
            rpc,
            (r, t, i) -> r.getFileInfo("/f/t" + t + "/a" + (i % files[t])));
      }
      // Paths 7 deep, files of one block, a directory of 16 entries: the benchmark's reads.
      String[][] readFiles = new String[THREADS][LISTED];
      String[] readDirs = new String[THREADS];
      for (int t = 0; t < THREADS; t++) {
        readDirs[t] = String.format(READ_DIR, t);
        for (int f = 0; f < LISTED; f++) {
          readFiles[t][f] = String.format(READ_DIR, t) + "/f" + f;
        }
      }
      phase(
          report,
          "stat7",
          seconds,
          rpc,
          (r, t, i) -> r.getFileInfo(readFiles[t][(int) (i % LISTED)]));
      phase(
          report,
          "open",
          seconds,
          rpc,
          (r, t, i) -> {
            var lb = r.getBlockLocations(readFiles[t][(int) (i % LISTED)], 0, 1L << 40);
            if (lb.locatedBlockCount() != 1) {
              throw new IllegalStateException("expected one block, got " + lb);
            }
          });
      phase(
          report,
          "ls",
          seconds,
          rpc,
          (r, t, i) -> {
            var l = r.getListing(readDirs[t], HdfsFileStatus.EMPTY_NAME, false);
            if (l.getPartialListing().length != LISTED) {
              throw new IllegalStateException("expected " + LISTED + " entries");
            }
          });
      phase(
          report,
          "rename",
          seconds,
          rpc,
          (r, t, i) -> {
            if (i < files[t]) {
              r.rename("/f/t" + t + "/a" + i, "/f/t" + t + "/b" + i);
            } else {
              long j = i % files[t];
              String from = (i / files[t]) % 2 == 1 ? "/b" : "/a";
              String to = (i / files[t]) % 2 == 1 ? "/a" : "/b";
              r.rename("/f/t" + t + from + j, "/f/t" + t + to + j);
            }
          });
      phase(report, "delete", seconds, rpc, (r, t, i) -> r.delete("/m/t" + t + "/d" + i, false));
      System.out.println("== OpCostMeasurement, " + THREADS + " threads, no IPC");
      report.forEach(System.out::println);
    }
  }

  /**
   * What a handler thread of Hadoop IPC carries: a current call whose remote user is known. Without
   * it every call would look up the JVM's user (the access-control context of the stack), which an
   * RPC never does.
   */
  private static final class InProcessCall extends Server.Call {
    private final UserGroupInformation user;

    InProcessCall(UserGroupInformation user, byte[] clientId, int callId) {
      super(callId, 0, null, null, RPC.RpcKind.RPC_PROTOCOL_BUFFER, clientId);
      this.user = user;
    }

    @Override
    public UserGroupInformation getRemoteUser() {
      return user;
    }

    @Override
    public java.net.InetAddress getHostInetAddress() {
      return java.net.InetAddress.getLoopbackAddress();
    }

    @Override
    public String getHostAddress() {
      return "127.0.0.1";
    }
  }

  private static boolean selected(String name) {
    String only = System.getProperty("hops.bench.opcost.ops", "mkdirs,create,stat,rename,delete");
    return List.of(only.split(",")).contains(name);
  }

  /** {@link #LISTED} files of one byte in {@link #READ_DIR} per thread, through one datanode. */
  private static void writeReadFixture(HopsTestCluster cluster) throws Exception {
    cluster.startDatanodes(1);
    try (FileSystem fs = cluster.client(cluster.namenode())) {
      for (int t = 0; t < THREADS; t++) {
        for (int f = 0; f < LISTED; f++) {
          try (var out =
              fs.create(new org.apache.hadoop.fs.Path(String.format(READ_DIR, t) + "/f" + f))) {
            out.write(1);
          }
        }
      }
    }
  }

  private static void phase(
      List<String> report, String name, int seconds, ClientProtocol rpc, Op op) throws Exception {
    if (!selected(name)) {
      return;
    }
    ThreadMXBean mx = ManagementFactory.getThreadMXBean();
    AtomicLong ops = new AtomicLong();
    AtomicLong cpu = new AtomicLong();
    long[] next = new long[THREADS];
    long start = System.nanoTime();
    long warmEnd = start + 3_000_000_000L;
    long end = warmEnd + seconds * 1_000_000_000L;
    var osBean =
        (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    long[] proc = new long[2];
    List<Thread> threads = new ArrayList<>();
    UserGroupInformation caller = UserGroupInformation.getCurrentUser();
    for (int t = 0; t < THREADS; t++) {
      int tt = t;
      Thread th =
          new Thread(
              () -> {
                // As a handler thread: each call carries its client's id, a call id (the retry
                // cache's key) and the remote user, who comes from the RPC, not from the JVM.
                byte[] clientId = ClientId.getClientId();
                try {
                  long i = 0;
                  while (System.nanoTime() < warmEnd) {
                    Server.getCurCall().set(new InProcessCall(caller, clientId, (int) i));
                    op.run(rpc, tt, i++);
                  }
                  long c0 = mx.getCurrentThreadCpuTime();
                  long n = 0;
                  while (System.nanoTime() < end) {
                    Server.getCurCall().set(new InProcessCall(caller, clientId, (int) i));
                    op.run(rpc, tt, i++);
                    n++;
                  }
                  cpu.addAndGet(mx.getCurrentThreadCpuTime() - c0);
                  ops.addAndGet(n);
                  next[tt] = i;
                } catch (Exception e) {
                  throw new RuntimeException(e);
                } finally {
                  Server.getCurCall().remove();
                }
              },
              name + "-" + t);
      threads.add(th);
      th.start();
    }
    Thread.sleep(Math.max(0, (warmEnd - System.nanoTime()) / 1_000_000));
    proc[0] = osBean.getProcessCpuTime();
    for (Thread th : threads) {
      th.join();
    }
    proc[1] = osBean.getProcessCpuTime();
    report.add(
        String.format(
            "%-8s %9.0f ops/s  worker CPU %6.1f us/op  process CPU %6.1f us/op",
            name,
            ops.get() / (double) seconds,
            cpu.get() / 1000.0 / ops.get(),
            (proc[1] - proc[0]) / 1000.0 / ops.get()));
  }
}
