package io.hops.bench.client;

/** Hears how a phase goes, from the thread that runs it. */
public interface PhaseListener {
  PhaseListener NONE = new PhaseListener() {};

  /** The clients entered {@code stage}. */
  default void stage(Stage stage) {}

  /** Operations done in the current stage so far (a few times a second). */
  default void progress(Stage stage, long millisInStage, long successes, long failures) {}

  /** Tells both. */
  static PhaseListener both(PhaseListener a, PhaseListener b) {
    return new PhaseListener() {
      @Override
      public void stage(Stage stage) {
        a.stage(stage);
        b.stage(stage);
      }

      @Override
      public void progress(Stage stage, long millisInStage, long successes, long failures) {
        a.progress(stage, millisInStage, successes, failures);
        b.progress(stage, millisInStage, successes, failures);
      }
    };
  }
}
