package io.hops.dal.embedded.kit;

import io.hops.dal.kit.InsertIfAbsentKit;
import java.nio.file.Path;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileInsertIfAbsentTest extends InsertIfAbsentKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }
}
