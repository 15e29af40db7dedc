package io.hops.bench.client;

import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.util.EnumMap;
import java.util.Map;
import java.util.Properties;
import java.util.stream.Collectors;

/** One measured run of a workload: an unmeasured warm-up, then a fixed measured duration. */
public record Phase(String name, Workload workload, long warmupMillis, long durationMillis) {

  /**
   * One line, for the command a client process reads on its standard input: a mix's shares and its
   * {@code workload.*} settings (without them a client process would run the hot-dir mix in its
   * threads' own trees).
   */
  public String encode() {
    String w =
        workload.isRaw()
            ? "raw:" + workload.rawOp().key()
            : "mix:"
                + workload.mix().percents().entrySet().stream()
                    .map(e -> e.getKey().key() + "=" + e.getValue())
                    .collect(Collectors.joining(","));
    String mixName = workload.isRaw() ? "-" : workload.mix().name();
    String settings =
        workload.isRaw()
            ? ""
            : workload.mix().workloadSettings().entrySet().stream()
                .map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(","));
    return String.join(
        "\t",
        name,
        mixName,
        w,
        String.valueOf(warmupMillis),
        String.valueOf(durationMillis),
        settings);
  }

  public static Phase decode(String line) {
    String[] f = line.split("\t", -1);
    if (f.length != 6) {
      throw new IllegalArgumentException("not a phase: " + line);
    }
    Workload w;
    if (f[2].startsWith("raw:")) {
      w = Workload.raw(Op.byKey(f[2].substring(4)));
    } else if (f[2].startsWith("mix:")) {
      Map<Op, Double> percents = new EnumMap<>(Op.class);
      for (String kv : f[2].substring(4).split(",")) {
        String[] p = kv.split("=", 2);
        percents.put(Op.byKey(p[0]), Double.parseDouble(p[1]));
      }
      Properties settings = new Properties();
      for (String kv : f[5].split(",")) {
        if (!kv.isEmpty()) {
          String[] p = kv.split("=", 2);
          settings.setProperty(p[0], p[1]);
        }
      }
      w = Workload.mixed(new Mix(f[1], percents, settings));
    } else {
      throw new IllegalArgumentException("not a workload: " + f[2]);
    }
    return new Phase(f[0], w, Long.parseLong(f[3]), Long.parseLong(f[4]));
  }
}
