package io.hops.dal.embedded.kit;

import io.hops.dal.kit.FinderKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileFinderTest extends FinderKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
