package io.hops.namenode.bench;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Runs {@link SnapshotCost} on a tree of 1,000 files, and checks what the snapshots held on both
 * systems: the tree's directory in s1, a changed file's mode before the change, every change in the
 * diff report. Larger sizes when asked: {@code -Dhops.bench.snapshot=10000,1000000} (the table is
 * printed).
 */
class SnapshotCostTest {
  @Test
  void snapshotsOfATreeHoldItOnBothSystems() throws Exception {
    String asked = System.getProperty("hops.bench.snapshot");
    List<Integer> sizes =
        asked == null || asked.isBlank()
            ? List.of(SnapshotCost.PER_DIR)
            : Arrays.stream(asked.split(",")).map(Integer::parseInt).toList();
    Map<Integer, SnapshotCost.Result[]> results = SnapshotCost.run(sizes, asked != null);
    for (int n : sizes) {
      for (SnapshotCost.Result r : results.get(n)) {
        assertThat(r.snapshotRootEntries()).isEqualTo(n / SnapshotCost.PER_DIR);
        assertThat(r.oldMode()).isEqualTo((short) 0644);
        assertThat(r.modifiedFiles()).isEqualTo(SnapshotCost.CHANGES);
      }
    }
  }
}
