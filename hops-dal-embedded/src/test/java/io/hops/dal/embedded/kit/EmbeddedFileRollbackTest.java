package io.hops.dal.embedded.kit;

import io.hops.dal.kit.RollbackKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileRollbackTest extends RollbackKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
