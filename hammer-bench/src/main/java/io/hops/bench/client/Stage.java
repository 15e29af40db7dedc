package io.hops.bench.client;

/** Where the clients are: building the namespace, warming up, measuring, or finishing up. */
public enum Stage {
  SETUP,
  WARMUP,
  MEASURE,
  DRAIN
}
