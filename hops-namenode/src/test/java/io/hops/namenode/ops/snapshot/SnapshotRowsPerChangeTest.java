package io.hops.namenode.ops.snapshot;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.AccessCounts;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeVersionRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.dal.rows.SnapshotVersionLogRow;
import io.hops.dal.schema.Column;
import io.hops.dal.schema.Table;
import io.hops.namenode.ObservedCluster;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.fs.FSDataOutputStream;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.fs.permission.FsPermission;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The database rows a change costs below a directory with one snapshot, against the same change
 * below a plain directory (issue 60; docs/benchmarks.md, "Snapshots"): the rows the change's
 * transactions write, and the rows (and bytes, as the embedded engine encodes a row's value) it
 * leaves in {@code inode_versions}, {@code snapshot_kept_files}, {@code snapshot_version_log} and
 * {@code snapshot_kept_usage}. Each change is the first since the snapshot in a directory of its
 * own (so it versions that directory too where it changes it); files of 70,000 bytes, on a datanode
 * (over the small-file bound).
 */
class SnapshotRowsPerChangeTest {
  private static final byte[] DATA = new byte[70_000];

  /** The client calls whose transactions a change runs (not a datanode's or housekeeping's). */
  private static final Set<String> CLIENT_CALLS =
      Set.of(
          "create",
          "addBlock",
          "complete",
          "append",
          "delete",
          "rename",
          "rename2",
          "setPermission",
          "setXAttr",
          "updateBlockForPipeline",
          "updatePipeline",
          "fsync");

  @RegisterExtension
  static final ObservedCluster observed =
      ObservedCluster.of(SnapshotTestFiles.snapshotsOn()).withDatanodes(1);

  /** The rows written by the client calls seen since {@link ObservedCluster#forget}. */
  private static long writtenByClientCalls() {
    return CLIENT_CALLS.stream()
        .flatMap(call -> observed.seen(call).stream())
        .mapToLong(AccessCounts::rowsWritten)
        .sum();
  }

  /** A change of a file in the directory it is given (one directory per change). */
  private interface Change {
    void apply(String dir) throws Exception;
  }

  /** What one change cost: rows written, and rows and bytes left in the four tables. */
  record Cost(
      long written,
      long versions,
      long versionBytes,
      long kept,
      long keptBytes,
      long logged,
      long logBytes,
      long usage,
      long usageBytes) {}

  private static void write(Path p) throws Exception {
    try (FSDataOutputStream out =
        observed.fs().create(p, true, 4096, (short) 1, 128L * 1024 * 1024)) {
      out.write(DATA);
    }
  }

  private static Cost cost(String dir, Change change) throws Exception {
    Storage storage = observed.cluster().namenode().namesystem().storage();
    long[] before = sizes(storage);
    observed.forget();
    change.apply(dir);
    long written = writtenByClientCalls();
    long[] after = sizes(storage);
    return new Cost(
        written,
        after[0] - before[0],
        after[1] - before[1],
        after[2] - before[2],
        after[3] - before[3],
        after[4] - before[4],
        after[5] - before[5],
        after[6] - before[6],
        after[7] - before[7]);
  }

  /**
   * Rows and bytes of {@code inode_versions}, then of {@code snapshot_kept_files}, of {@code
   * snapshot_version_log} and of {@code snapshot_kept_usage}.
   */
  private static long[] sizes(Storage storage) throws Exception {
    try (Transaction tx = storage.begin()) {
      long[] v = rowsAndBytes(tx, InodeVersionRow.TABLE);
      long[] k = rowsAndBytes(tx, SnapshotKeptFileRow.TABLE);
      long[] l = rowsAndBytes(tx, SnapshotVersionLogRow.TABLE);
      long[] u = rowsAndBytes(tx, SnapshotKeptUsageRow.TABLE);
      return new long[] {v[0], v[1], k[0], k[1], l[0], l[1], u[0], u[1]};
    }
  }

  private static <R extends Record> long[] rowsAndBytes(Transaction tx, Table<R> table)
      throws Exception {
    long bytes = 0;
    var rows = tx.scanAll(table, LockMode.READ_COMMITTED);
    for (R r : rows) {
      bytes += encodedBytes(table, r);
    }
    return new long[] {rows.size(), bytes};
  }

  /** A row's value as the embedded engine stores it ({@code RowCodec}), key columns included. */
  private static <R extends Record> long encodedBytes(Table<R> table, R row) {
    long size = 1 + (table.columns().size() + 7) / 8;
    for (Column c : table.columns()) {
      Object v = table.get(row, c.position());
      if (v == null) {
        continue;
      }
      size +=
          switch (c.type()) {
            case BIGINT -> 8;
            case INT -> 4;
            case SMALLINT -> 2;
            case TINYINT, BOOLEAN -> 1;
            case STRING -> 5 + ((String) v).getBytes(StandardCharsets.UTF_8).length;
            case BYTES -> 5 + ((byte[]) v).length;
          };
    }
    return size;
  }

  @Test
  void aChangeBelowASnapshotWritesItsVersionsOnce() throws Exception {
    Map<String, Change> changes = new LinkedHashMap<>();
    changes.put("create", d -> write(new Path(d + "/new")));
    changes.put("overwrite", d -> write(new Path(d + "/over")));
    changes.put(
        "append",
        d -> {
          try (FSDataOutputStream out = observed.fs().append(new Path(d + "/app"))) {
            out.write(DATA, 0, 100);
          }
        });
    changes.put("delete", d -> observed.fs().delete(new Path(d + "/del"), false));
    changes.put(
        "rename", d -> observed.fs().rename(new Path(d + "/ren"), new Path(d + "/renamed")));
    changes.put(
        "chmod", d -> observed.fs().setPermission(new Path(d + "/mod"), new FsPermission("600")));
    changes.put(
        "setxattr", d -> observed.fs().setXAttr(new Path(d + "/xa"), "user.a", new byte[] {1}));

    Map<String, Cost[]> costs = new LinkedHashMap<>();
    for (String top : new String[] {"/plain", "/snap"}) {
      for (String change : changes.keySet()) {
        observed.fs().mkdirs(new Path(top + "/" + change));
        for (String f : new String[] {"over", "app", "del", "ren", "mod", "xa"}) {
          write(new Path(top + "/" + change + "/" + f));
        }
      }
    }
    observed.fs().allowSnapshot(new Path("/snap"));
    observed.fs().createSnapshot(new Path("/snap"), "s1");
    for (var e : changes.entrySet()) {
      String d = "/" + e.getKey();
      costs.put(
          e.getKey(),
          new Cost[] {cost("/plain" + d, e.getValue()), cost("/snap" + d, e.getValue())});
    }
    StringBuilder table = new StringBuilder();
    table
        .append("| change | rows written, none | with 1 snapshot | extra | versions (bytes) |")
        .append(" kept files (bytes) | version log (bytes) | kept usage (bytes) |\n");
    costs.forEach(
        (name, c) ->
            table.append(
                String.format(
                    "| %s | %d | %d | %d | %d (%d) | %d (%d) | %d (%d) | %d (%d) |%n",
                    name,
                    c[0].written(),
                    c[1].written(),
                    c[1].written() - c[0].written(),
                    c[1].versions(),
                    c[1].versionBytes(),
                    c[1].kept(),
                    c[1].keptBytes(),
                    c[1].logged(),
                    c[1].logBytes(),
                    c[1].usage(),
                    c[1].usageBytes())));
    System.out.print(table);

    for (Cost[] c : costs.values()) {
      assertThat(c[0].versions()).isZero();
      assertThat(c[0].kept()).isZero();
      assertThat(c[0].logged()).isZero();
      assertThat(c[0].usage()).isZero();
      // Each version is logged for its reclaim: one row of 31 bytes plus the name.
      assertThat(c[1].logged()).isEqualTo(c[1].versions());
    }
    // The file's entry and, where the change touches the directory's listing or times, the
    // directory's; a rename versions the old name, the new name (free at the snapshot) and the
    // directory. setXAttr rewrites the inode's row, so its entry is versioned too.
    assertThat(versions(costs, "create")).isEqualTo(2);
    assertThat(versions(costs, "overwrite")).isEqualTo(2);
    assertThat(versions(costs, "append")).isEqualTo(1);
    assertThat(versions(costs, "delete")).isEqualTo(2);
    assertThat(versions(costs, "rename")).isEqualTo(3);
    assertThat(versions(costs, "chmod")).isEqualTo(1);
    assertThat(versions(costs, "setxattr")).isEqualTo(1);
    // A deleted or overwritten file the snapshot has keeps its blocks: one row, and its block rows
    // are not deleted (so the delete writes fewer rows than without the snapshot, beside what it
    // keeps). What it keeps is charged to each directory above it but the root (/snap and the
    // change's directory), as HDFS counts it in every ancestor's usage.
    for (String change : new String[] {"overwrite", "delete"}) {
      assertThat(costs.get(change)[1].kept()).as(change).isEqualTo(1);
      assertThat(costs.get(change)[1].usage()).as(change).isEqualTo(2);
    }
    Cost[] delete = costs.get("delete");
    assertThat(delete[1].written())
        .isLessThan(
            delete[0].written() + delete[1].versions() + delete[1].logged() + delete[1].usage());
    // A change of one call that frees no block writes exactly its versions more. (Writes through a
    // pipeline run several calls whose rows vary by one with the datanode's timing.)
    for (String change : new String[] {"create", "append", "rename", "chmod", "setxattr"}) {
      assertThat(costs.get(change)[1].kept()).as(change).isZero();
    }
    for (String change : new String[] {"create", "append", "chmod", "setxattr"}) {
      assertThat(costs.get(change)[1].usage()).as(change).isZero();
    }
    for (String change : new String[] {"chmod", "setxattr"}) {
      Cost[] c = costs.get(change);
      assertThat(c[1].written() - c[0].written())
          .as(change)
          .isEqualTo(c[1].versions() + c[1].logged());
    }
    // A rename of a file the snapshot has also records the entry it leaves, twice: its reference
    // mark's snapshot_earlier_entries row and the snapshot_renamed_entries row diff reports follow;
    // and it stays charged at its old place to each directory above it but the root (HDFS's
    // WithName reference).
    Cost[] rename = costs.get("rename");
    assertThat(rename[1].usage()).isEqualTo(2);
    assertThat(rename[1].written() - rename[0].written())
        .isEqualTo(rename[1].versions() + rename[1].logged() + 2 + rename[1].usage());
  }

  private static long versions(Map<String, Cost[]> costs, String change) {
    return costs.get(change)[1].versions();
  }
}
