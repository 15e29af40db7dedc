package io.hops.bench.workload;

/**
 * What one measured phase runs: RAW (one operation flat out) or MIXED (operations drawn by {@link
 * Mix}).
 */
public record Workload(String name, Mix mix, Op rawOp) {
  public static Workload mixed(Mix mix) {
    return new Workload(mix.name(), mix, null);
  }

  public static Workload raw(Op op) {
    return new Workload("raw:" + op.key(), null, op);
  }

  public boolean isRaw() {
    return rawOp != null;
  }
}
