package io.hops.dal.embedded.kit;

import io.hops.dal.kit.AccessCountKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileAccessCountTest extends AccessCountKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
