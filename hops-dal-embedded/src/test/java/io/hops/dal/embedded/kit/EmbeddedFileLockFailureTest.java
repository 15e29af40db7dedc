package io.hops.dal.embedded.kit;

import io.hops.dal.kit.LockFailureKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileLockFailureTest extends LockFailureKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
