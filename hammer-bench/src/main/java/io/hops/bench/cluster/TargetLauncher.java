package io.hops.bench.cluster;

import java.io.IOException;

/** Starts a {@link Target} when its turn comes, so systems never run at the same time. */
public interface TargetLauncher {
  String system();

  Target start() throws IOException, InterruptedException;

  /** A target someone else started and stops (tests, {@code --fs}). */
  static TargetLauncher of(Target target) {
    return new TargetLauncher() {
      @Override
      public String system() {
        return target.system();
      }

      @Override
      public Target start() {
        return target;
      }
    };
  }
}
