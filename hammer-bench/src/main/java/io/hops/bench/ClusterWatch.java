package io.hops.bench;

import io.hops.bench.client.PhaseListener;
import io.hops.bench.client.Stage;
import io.hops.bench.cluster.MariaDbCounters;
import io.hops.bench.cluster.ProcCpu;
import io.hops.bench.report.ClusterWork;
import java.io.IOException;
import java.io.InputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Samples, when the clients start and stop measuring, each namenode's CPU time (/proc), in all and
 * by thread, and operation count (its {@code /jmx} bean {@code HopsOperations}), the database's
 * statements and CPU time, the clients' CPU time and the machine's; the differences are the
 * window's {@link ClusterWork}.
 */
final class ClusterWatch implements PhaseListener {
  static final String OPERATIONS_BEAN = "Hadoop:service=NameNode,name=HopsOperations";

  private final List<Long> pids;
  private final List<Long> clientPids;
  private final List<String> webAddresses;
  private final MariaDbCounters database;
  private Snapshot start;
  private Snapshot end;

  private record Snapshot(
      List<Long> cpu,
      List<Map<Long, ProcCpu.ThreadCpu>> threads,
      List<long[]> operations,
      MariaDbCounters.Sample database,
      long clientCpu,
      ProcCpu.MachineCpu machine) {}

  /**
   * @param pids the namenodes' processes
   * @param clientPids the processes the clients run in
   */
  ClusterWatch(
      List<Long> pids, List<Long> clientPids, List<String> webAddresses, MariaDbCounters database) {
    this.pids = pids;
    this.clientPids = clientPids;
    this.webAddresses = webAddresses;
    this.database = database;
  }

  @Override
  public void stage(Stage stage) {
    if (stage == Stage.MEASURE) {
      start = sample();
    } else if (stage == Stage.DRAIN && start != null && end == null) {
      end = sample();
    }
  }

  /** The namenodes' CPU milliseconds in the window, summed; null unless all are known. */
  Long namenodeCpuMillis() {
    if (start == null || end == null || pids.isEmpty()) {
      return null;
    }
    long sum = 0;
    for (int i = 0; i < pids.size(); i++) {
      Long d = minus(end.cpu.get(i), start.cpu.get(i));
      if (d == null) {
        return null;
      }
      sum += d;
    }
    return sum;
  }

  ClusterWork work() {
    if (start == null || end == null) {
      return ClusterWork.NONE;
    }
    List<ClusterWork.NamenodeWork> nns = new ArrayList<>();
    for (int i = 0; i < webAddresses.size(); i++) {
      nns.add(
          new ClusterWork.NamenodeWork(
              i < pids.size() ? minus(end.cpu.get(i), start.cpu.get(i)) : null,
              minus(end.operations.get(i)[0], start.operations.get(i)[0]),
              minus(end.operations.get(i)[1], start.operations.get(i)[1])));
    }
    return new ClusterWork(
        nns,
        database == null ? null : minus(end.database.cpuMillis(), start.database.cpuMillis()),
        database == null ? null : minus(end.database.statements(), start.database.statements()),
        byThread(start.threads, end.threads),
        minus(end.clientCpu, start.clientCpu),
        end.machine == null || start.machine == null
            ? null
            : new ClusterWork.MachineWork(
                end.machine.busyMillis() - start.machine.busyMillis(),
                end.machine.allMillis() - start.machine.allMillis()));
  }

  /**
   * The window's CPU milliseconds of each thread group ({@link ProcCpu#group}) over all namenodes,
   * most first: each thread alive at the end, less what it had used at the start (nothing if it
   * started since).
   */
  static Map<String, Long> byThread(
      List<Map<Long, ProcCpu.ThreadCpu>> start, List<Map<Long, ProcCpu.ThreadCpu>> end) {
    Map<String, Long> groups = new HashMap<>();
    for (int i = 0; i < end.size(); i++) {
      Map<Long, ProcCpu.ThreadCpu> before = i < start.size() ? start.get(i) : Map.of();
      end.get(i)
          .forEach(
              (tid, t) -> {
                ProcCpu.ThreadCpu was = before.get(tid);
                long used =
                    was != null && was.name().equals(t.name())
                        ? t.millis() - was.millis()
                        : t.millis();
                groups.merge(ProcCpu.group(t.name()), Math.max(0, used), Long::sum);
              });
    }
    Map<String, Long> sorted = new LinkedHashMap<>();
    groups.entrySet().stream()
        .sorted(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()))
        .forEach(e -> sorted.put(e.getKey(), e.getValue()));
    return sorted;
  }

  /** {@code b - a}, or null when either is unknown or a counter went back (a restart). */
  private static Long minus(long b, long a) {
    return a < 0 || b < 0 || b < a ? null : b - a;
  }

  private Snapshot sample() {
    List<Long> cpu = new ArrayList<>();
    List<Map<Long, ProcCpu.ThreadCpu>> threads = new ArrayList<>();
    for (long pid : pids) {
      OptionalLong ms = ProcCpu.millis(pid);
      cpu.add(ms.isPresent() ? ms.getAsLong() : -1);
      threads.add(ProcCpu.threads(pid));
    }
    List<long[]> ops = new ArrayList<>();
    for (String web : webAddresses) {
      ops.add(counters(web));
    }
    long clientCpu = clientPids.isEmpty() ? -1 : 0;
    for (long pid : clientPids) {
      OptionalLong ms = ProcCpu.millis(pid);
      clientCpu = ms.isPresent() && clientCpu >= 0 ? clientCpu + ms.getAsLong() : -1;
    }
    return new Snapshot(
        cpu,
        threads,
        ops,
        database == null ? new MariaDbCounters.Sample(-1, -1) : database.sample(),
        clientCpu,
        ProcCpu.machine());
  }

  /** The namenode's operations and DAL accesses from its {@code /jmx}, each -1 if unknown. */
  static long[] counters(String webAddress) {
    String json = operationsJson(webAddress);
    return new long[] {attribute(json, "Operations"), attribute(json, "DatabaseAccesses")};
  }

  /**
   * The namenode's {@code HopsOperations} bean as {@code /jmx} renders it, or "" if unreachable.
   */
  static String operationsJson(String webAddress) {
    try {
      HttpURLConnection c =
          (HttpURLConnection)
              URI.create("http://" + webAddress + "/jmx?qry=" + OPERATIONS_BEAN)
                  .toURL()
                  .openConnection();
      c.setConnectTimeout(2000);
      c.setReadTimeout(5000);
      try (InputStream in = c.getInputStream()) {
        return new String(in.readAllBytes(), StandardCharsets.UTF_8);
      } finally {
        c.disconnect();
      }
    } catch (IOException | RuntimeException e) {
      return "";
    }
  }

  /** A numeric attribute of a {@code /jmx} answer, or -1. */
  static long attribute(String json, String name) {
    Matcher m = Pattern.compile("\"" + Pattern.quote(name) + "\"\\s*:\\s*(\\d+)").matcher(json);
    return m.find() ? Long.parseLong(m.group(1)) : -1;
  }
}
