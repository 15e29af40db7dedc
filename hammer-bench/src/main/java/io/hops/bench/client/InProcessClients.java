package io.hops.bench.client;

/** One client session in this JVM (tests, and runs with {@code --client-processes 0}). */
public final class InProcessClients implements Clients {
  private final ClientSession session;

  public InProcessClients(ClientSpec spec) {
    this.session = new ClientSession(spec);
  }

  @Override
  public SetupResult setup(PhaseListener listener) throws InterruptedException {
    return session.setup(listener);
  }

  @Override
  public PhaseResult run(Phase phase, PhaseListener listener) throws InterruptedException {
    return session.run(phase, listener);
  }

  /** See {@link ClientSession#checkFiles()}. */
  public FileCheck checkFiles() throws java.io.IOException {
    return session.checkFiles();
  }

  @Override
  public void close() throws InterruptedException {
    session.close();
  }
}
