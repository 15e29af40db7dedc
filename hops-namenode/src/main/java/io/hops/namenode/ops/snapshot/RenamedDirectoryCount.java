package io.hops.namenode.ops.snapshot;

import io.hops.dal.StorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.ops.snapshot.SnapshotContent.Entry;
import io.hops.namenode.ops.snapshot.SnapshotContent.Held;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The subtree of a directory that left a snapshot's entry by a rename, counted as HDFS counts its
 * {@code INodeReference.WithName} in a content summary: as it was at the reference's snapshot
 * (WithName.computeContentSummary, then INodeDirectory.computeContentSummary at that snapshot's
 * id): every directory and file it had then, a file at its length and replication then, and nothing
 * the snapshots alone hold below it; all of it in the summary and in its snapshot figures
 * (docs/architecture.md, "Snapshots", "Content summaries"). The directory itself is counted where
 * its entry is found ({@link SnapshotContent}).
 *
 * <p>Cost: per directory of the subtree as it was, its live children and its versions (two pruned
 * scans, read committed, {@link SnapshotView#children}), breadth-first; a transaction reads at most
 * {@code bound} children (at least one directory), so a one-transaction count whose renamed
 * subtrees hold more goes to the subtree protocol, which counts them in as many transactions.
 */
public final class RenamedDirectoryCount {
  private RenamedDirectoryCount() {}

  /**
   * A directory to count as it was at snapshot {@code snapshotId} ({@link Long#MAX_VALUE}: as it is
   * now), below the entry a directory was renamed away from ({@code via}), which keys what it holds
   * apart from every other reference.
   */
  public record Pending(long dirId, long snapshotId, Entry via) {}

  /** What one transaction counted, and the directories left for the next. */
  public record Step(SnapshotContent.Part part, List<Pending> left) {}

  /** Counts the directories of {@code queue}, and those below them, reading at most the bound. */
  public static Step read(LockPhase tx, List<Pending> queue, int bound) throws StorageException {
    Map<Entry, Held> held = new LinkedHashMap<>();
    Deque<Pending> left = new ArrayDeque<>(queue);
    long read = 0;
    while (!left.isEmpty() && read < bound) {
      Pending p = left.poll();
      List<InodeRow> children = SnapshotView.children(tx, p.dirId(), p.snapshotId());
      read += Math.max(1, children.size());
      for (InodeRow c : children) {
        Entry key = new Entry(p.dirId(), c.name(), c.id(), p.via());
        if (c.isDir()) {
          held.put(key, SnapshotContent.DIRECTORY);
          left.add(new Pending(c.id(), p.snapshotId(), p.via()));
        } else {
          // as SnapshotContent's held files: HDFS's snapshot counts leave symlinks out
          held.put(
              key, new Held(c.size(), c.symlink() == null ? 1 : 0, 0, c.size() * c.replication()));
        }
      }
    }
    return new Step(new SnapshotContent.Part(held, 0, List.of()), List.copyOf(left));
  }
}
