package io.hops.dal.embedded.kit;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.Storage;
import io.hops.dal.kit.Cells;
import io.hops.dal.kit.RoundTripKit;
import io.hops.dal.kit.SampleRows;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.RetryCacheRow;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EmbeddedFileRoundTripTest extends RoundTripKit implements EmbeddedFileFixture {
  @TempDir Path dir;

  @Override
  public Path storeRoot() {
    return dir;
  }

  @Test
  void committedRowsSurviveClosingAndReopeningTheStore() throws Exception {
    Path store = dir.resolve("reopened");
    List<InodeRow> inodes =
        List.of(SampleRows.maximum(InodeRow.TABLE), SampleRows.typical(InodeRow.TABLE, 1));
    RetryCacheRow call = SampleRows.maximum(RetryCacheRow.TABLE);
    try (Storage first = EmbeddedFileFixture.openStore(store, Map.of())) {
      insertCommitted(first, InodeRow.TABLE, inodes);
      insertCommitted(first, RetryCacheRow.TABLE, call);
    }
    try (Storage second = EmbeddedFileFixture.openStore(store, Map.of())) {
      assertThat(readAll(second, InodeRow.TABLE))
          .isEqualTo(Cells.inKeyOrder(InodeRow.TABLE, inodes));
      assertThat(readAll(second, RetryCacheRow.TABLE))
          .containsExactly(cells(RetryCacheRow.TABLE, call));
    }
  }
}
