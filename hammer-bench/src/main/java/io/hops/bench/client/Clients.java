package io.hops.bench.client;

import java.io.IOException;
import java.util.List;

/**
 * The client side of a run: one or more client sessions, in this JVM or in client processes of
 * their own, driven through the same setup and phases and reported as one.
 */
public interface Clients extends AutoCloseable {
  /** Builds the namespace the phases work on. */
  SetupResult setup(PhaseListener listener) throws IOException, InterruptedException;

  /** Runs one phase on all clients at once and merges what they measured. */
  PhaseResult run(Phase phase, PhaseListener listener) throws IOException, InterruptedException;

  /**
   * The processes the client sessions run in, whose CPU time is the clients'; this JVM's own where
   * they run in it.
   */
  default List<Long> pids() {
    return List.of(ProcessHandle.current().pid());
  }

  @Override
  void close() throws InterruptedException;
}
