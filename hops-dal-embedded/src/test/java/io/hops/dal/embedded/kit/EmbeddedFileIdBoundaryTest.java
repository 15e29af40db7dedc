package io.hops.dal.embedded.kit;

import io.hops.dal.kit.IdBoundaryKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileIdBoundaryTest extends IdBoundaryKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
