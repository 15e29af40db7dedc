package io.hops.bench;

import io.hops.bench.client.Phase;
import io.hops.bench.report.BenchReport;
import io.hops.bench.workload.Mix;
import io.hops.bench.workload.Op;
import io.hops.bench.workload.Workload;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Option;

/**
 * {@code hops bench}'s options on the workload: what runs (a MIXED mix or RAW operations), for how
 * long, and how many rounds; they make the run's phases.
 */
final class WorkloadOptions {
  @Option(
      names = {"-w", "--workload"},
      paramLabel = "NAME",
      description =
          "spotify (default), write-heavy, hot-dir (one directory every thread shares),"
              + " big-dir (one directory of --big-dir-files files made before the run), a mix"
              + " file (op=percent lines), raw:OP[,OP...] or"
              + " raw:all. Operations: ${sys:line.separator}  "
              + "read_file stat_file stat_dir ls_file ls_dir content_summary chmod_file chmod_dir"
              + " chown_file chown_dir set_replication rename_file create_file append_file mkdirs"
              + " delete_file")
  String workload = "spotify";

  @Option(
      names = "--big-dir-files",
      paramLabel = "N",
      description =
          "Files of the big-dir workload's directory, made on each system before its run"
              + " (default: ${DEFAULT-VALUE}).")
  long bigDirFiles = 1_000_000;

  @Option(
      names = {"-d", "--duration"},
      paramLabel = "SECONDS",
      description = "Measured seconds of each phase (default: ${DEFAULT-VALUE}).")
  int duration = 60;

  @Option(
      names = "--warmup",
      paramLabel = "SECONDS",
      description = "Unmeasured seconds before each phase (default: ${DEFAULT-VALUE}).")
  int warmup = 10;

  @Option(
      names = "--op-duration",
      paramLabel = "SECONDS",
      description =
          "After a MIXED phase, run each of its operations RAW for this long, for per-operation"
              + " namenode CPU and RAW throughput; 0 skips the sweep (default: ${DEFAULT-VALUE}).")
  int opDuration = 5;

  @Option(
      names = "--op-warmup",
      paramLabel = "SECONDS",
      description = "Warm-up of each sweep phase (default: ${DEFAULT-VALUE}).")
  int opWarmup = 2;

  @Option(
      names = "--rounds",
      paramLabel = "N",
      description =
          "Run every phase N times, round after round; the ratio table then gives each system's"
              + " median and the median of the rounds' ratios, followed by each round's ratios"
              + " (default: ${DEFAULT-VALUE}).")
  int rounds = 1;

  /** The phases of one round, {@link #rounds} times; rounds after the first named by round. */
  List<Phase> phases(Mix mix, List<Op> rawOps) {
    if (rounds < 1) {
      throw new IllegalArgumentException("--rounds takes N >= 1, not " + rounds);
    }
    List<Phase> round = round(mix, rawOps);
    List<Phase> phases = new ArrayList<>(round);
    for (int r = 2; r <= rounds; r++) {
      for (Phase p : round) {
        phases.add(
            new Phase(
                BenchReport.inRound(p.name(), r),
                p.workload(),
                p.warmupMillis(),
                p.durationMillis()));
      }
    }
    return phases;
  }

  private List<Phase> round(Mix mix, List<Op> rawOps) {
    List<Phase> phases = new ArrayList<>();
    if (mix != null) {
      phases.add(
          new Phase(BenchReport.MIX_PHASE, Workload.mixed(mix), warmup * 1000L, duration * 1000L));
      if (opDuration > 0) {
        for (Op op : mix.ops()) {
          phases.add(
              new Phase("raw:" + op.key(), Workload.raw(op), opWarmup * 1000L, opDuration * 1000L));
        }
      }
    } else {
      for (Op op : rawOps) {
        phases.add(
            new Phase("raw:" + op.key(), Workload.raw(op), warmup * 1000L, duration * 1000L));
      }
    }
    return phases;
  }
}
