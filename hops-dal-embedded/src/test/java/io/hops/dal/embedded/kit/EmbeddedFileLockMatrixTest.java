package io.hops.dal.embedded.kit;

import io.hops.dal.kit.LockMatrixKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileLockMatrixTest extends LockMatrixKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
