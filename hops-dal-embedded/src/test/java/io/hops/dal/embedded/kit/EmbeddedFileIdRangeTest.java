package io.hops.dal.embedded.kit;

import io.hops.dal.kit.IdRangeKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileIdRangeTest extends IdRangeKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
