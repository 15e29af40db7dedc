package io.hops.namenode.cli;

import java.util.List;

/**
 * The JVM options a namenode process starts with ({@code bin/hops namenode} sets the same), for the
 * launchers that start namenodes as processes of their own.
 *
 * <p>The throughput collector: a hops namenode keeps no namespace in its heap, only bounded caches,
 * so its old generation stays small and a full collection short, and the parallel collector's
 * cheaper write barrier and young collections save CPU on every operation (under RAW rename 6% of
 * the namenode's CPU per op, mkdirs 3%, create and delete 3-9%, reads unchanged, next to G1; see
 * docs/benchmarks.md, stop 29). HDFS's NameNode holds the namespace on its heap, which is why it is
 * run with G1 or CMS.
 */
public final class NamenodeJvm {
  public static final List<String> OPTIONS = List.of("-XX:+UseParallelGC");

  private NamenodeJvm() {}
}
