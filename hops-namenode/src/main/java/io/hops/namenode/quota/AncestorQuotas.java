package io.hops.namenode.quota;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.apache.hadoop.hdfs.protocol.DSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.NSQuotaExceededException;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;

/**
 * The quota rows of the directories with a quota on one or two resolved paths, locked exclusively
 * in the lock phase, so that an operation checks and changes the usage of every quota-bearing
 * ancestor in its own transaction (docs/architecture.md, "Quotas"): counters stay exact under any
 * number of namenodes, at the price of serializing the writers under one quota directory on its
 * row.
 *
 * <p>The rows are read in one batch after the inodes and the file-related rows, in inode-id order
 * (docs/architecture.md, "Lock order"). A directory whose {@code has_quota} flag is set but whose
 * row is missing (its quota was cleared after the path was read) retries the operation.
 */
public final class AncestorQuotas {
  /** A quota directory of a path: its depth on the path, its path string and its row. */
  private record Entry(int depth, String path, long id) {}

  private final Map<Long, long[]> usage; // id -> {nsQuota, dsQuota, nsCount, dsCount}
  private final Map<Long, QuotaRow> read;
  private final List<List<Entry>> paths = new ArrayList<>();

  private AncestorQuotas(Map<Long, QuotaRow> read) {
    this.read = read;
    this.usage = new HashMap<>();
    read.forEach(
        (id, r) -> usage.put(id, new long[] {r.nsQuota(), r.dsQuota(), r.nsCount(), r.dsCount()}));
  }

  /** No quota anywhere: checks pass, changes go nowhere. */
  public static AncestorQuotas none() {
    return new AncestorQuotas(Map.of());
  }

  /**
   * Locks the quota rows of the first {@code count} inodes of each of {@code paths} (an inode on
   * two paths is locked once). The root never carries a quota row: it is not counted, as in HopsFS,
   * so that not every write in the namespace serializes on it.
   */
  public static AncestorQuotas lock(LockPhase tx, ResolvedPath[] paths, int[] counts)
      throws StorageException {
    return lock(tx, paths, counts, List.of());
  }

  /**
   * As {@link #lock(LockPhase, ResolvedPath, int)}, with the quota rows of the directories {@code
   * more} (those that still have one) in the same batch, for {@link #addTo} alone: directories that
   * rows read before name, off the path.
   */
  public static AncestorQuotas lock(LockPhase tx, ResolvedPath path, int count, List<Long> more)
      throws StorageException {
    return lock(tx, new ResolvedPath[] {path}, new int[] {count}, more);
  }

  private static AncestorQuotas lock(
      LockPhase tx, ResolvedPath[] paths, int[] counts, List<Long> more) throws StorageException {
    List<Long> ids = new ArrayList<>();
    for (int p = 0; p < paths.length; p++) {
      List<InodeRow> inodes = paths[p].inodes();
      for (int i = 1; i < Math.min(counts[p], inodes.size()); i++) {
        InodeRow r = inodes.get(i);
        if (r.isDir() && r.hasQuota() && !ids.contains(r.id())) {
          ids.add(r.id());
        }
      }
    }
    Set<Long> onPath = new HashSet<>(ids);
    for (long id : more) {
      if (!ids.contains(id)) {
        ids.add(id);
      }
    }
    Map<Long, QuotaRow> read = new HashMap<>();
    if (!ids.isEmpty()) {
      ids.sort(Long::compare);
      List<Key> keys = new ArrayList<>(ids.size());
      ids.forEach(id -> keys.add(QuotaRow.TABLE.key(id)));
      List<QuotaRow> rows = tx.findBatch(QuotaRow.TABLE, keys, LockMode.EXCLUSIVE);
      for (int i = 0; i < rows.size(); i++) {
        if (rows.get(i) != null) {
          read.put(ids.get(i), rows.get(i));
        } else if (onPath.contains(ids.get(i))) {
          throw new TransientStorageException("the quota of inode " + ids.get(i) + " changed");
        }
      }
    }
    AncestorQuotas q = new AncestorQuotas(read);
    for (int p = 0; p < paths.length; p++) {
      List<Entry> entries = new ArrayList<>();
      List<InodeRow> inodes = paths[p].inodes();
      for (int i = 1; i < Math.min(counts[p], inodes.size()); i++) {
        InodeRow r = inodes.get(i);
        if (read.containsKey(r.id())) {
          entries.add(new Entry(i, PathNames.prefix(paths[p].components(), i), r.id()));
        }
      }
      q.paths.add(entries);
    }
    return q;
  }

  /**
   * Locks the quota rows of the directories {@code ids} (those that still have one), as one path
   * for {@link #add(long, long)}: the quota directories above a subtree being deleted in batches.
   */
  public static AncestorQuotas lockIds(LockPhase tx, List<Long> ids) throws StorageException {
    Map<Long, QuotaRow> read = new HashMap<>();
    List<Long> sorted = new ArrayList<>(ids);
    sorted.sort(Long::compare);
    if (!sorted.isEmpty()) {
      List<Key> keys = new ArrayList<>();
      sorted.forEach(id -> keys.add(QuotaRow.TABLE.key(id)));
      for (QuotaRow r : tx.findBatch(QuotaRow.TABLE, keys, LockMode.EXCLUSIVE)) {
        if (r != null) {
          read.put(r.inodeId(), r);
        }
      }
    }
    AncestorQuotas q = new AncestorQuotas(read);
    List<Entry> entries = new ArrayList<>();
    read.keySet().forEach(id -> entries.add(new Entry(0, null, id)));
    q.paths.add(entries);
    return q;
  }

  /**
   * Locks the quota rows above {@code file}, found by climbing its parents by id (read committed):
   * for the operations that reach a file by a block rather than a path (block recovery). One index
   * read per ancestor; they are rare.
   */
  public static AncestorQuotas lockAbove(LockPhase tx, InodeRow file) throws StorageException {
    List<Long> ids = new ArrayList<>();
    long parent = file.parentId();
    for (int hops = 0; parent != io.hops.namenode.resolve.Inodes.ROOT_ID && hops < 1000; hops++) {
      List<InodeRow> rows = tx.findByIndex(InodeRow.TABLE, "id", parent, LockMode.READ_COMMITTED);
      if (rows.isEmpty()) {
        break;
      }
      InodeRow p = rows.get(0);
      if (p.hasQuota()) {
        ids.add(p.id());
      }
      parent = p.parentId();
    }
    return lockIds(tx, ids);
  }

  /** Locks the quota rows of the first {@code count} inodes of {@code path}. */
  public static AncestorQuotas lock(LockPhase tx, ResolvedPath path, int count)
      throws StorageException {
    return lock(tx, new ResolvedPath[] {path}, new int[] {count});
  }

  /** Locks the quota rows of every existing inode of {@code path}, its target included. */
  public static AncestorQuotas lock(LockPhase tx, ResolvedPath path) throws StorageException {
    return lock(tx, path, path.inodes().size());
  }

  /**
   * Checks that adding {@code ns} inodes and {@code ds} bytes of storage below the first {@code
   * upTo} inodes of path {@code p} violates no quota, deepest directory first (HDFS
   * FSDirectory.verifyQuota), skipping directories that are also on path {@code except} (the common
   * ancestors of a rename), or none if {@code except} is negative.
   */
  public void verify(int p, int upTo, int except, long ns, long ds) throws QuotaExceededException {
    if (ns <= 0 && ds <= 0) {
      return;
    }
    List<Entry> entries = entries(p);
    for (int i = entries.size() - 1; i >= 0; i--) {
      Entry e = entries.get(i);
      if (e.depth >= upTo || (except >= 0 && onPath(except, e.id))) {
        continue;
      }
      long[] u = usage.get(e.id);
      if (violated(u[0], u[2], ns)) {
        NSQuotaExceededException x = new NSQuotaExceededException(u[0], u[2] + ns);
        x.setPathName(e.path);
        throw x;
      }
      if (violated(u[1], u[3], ds)) {
        DSQuotaExceededException x = new DSQuotaExceededException(u[1], u[3] + ds);
        x.setPathName(e.path);
        throw x;
      }
    }
  }

  /** {@link #verify(int, int, int, long, long)} on the only path, every quota directory. */
  public void verify(long ns, long ds) throws QuotaExceededException {
    verify(0, Integer.MAX_VALUE, -1, ns, ds);
  }

  /** The quota directories of path {@code p}; none for a path not locked (nothing to count). */
  private List<Entry> entries(int p) {
    return p < paths.size() ? paths.get(p) : List.of();
  }

  private boolean onPath(int p, long id) {
    for (Entry e : entries(p)) {
      if (e.id == id) {
        return true;
      }
    }
    return false;
  }

  private static boolean violated(long quota, long used, long delta) {
    return quota >= 0 && delta > 0 && used > quota - delta;
  }

  /** Adds the change to every quota directory among the first {@code upTo} inodes of path p. */
  public void add(int p, int upTo, long ns, long ds) {
    for (Entry e : entries(p)) {
      if (e.depth < upTo) {
        long[] u = usage.get(e.id);
        u[2] += ns;
        u[3] += ds;
      }
    }
  }

  /**
   * Adds the change to quota directory {@code id} alone, if its row was locked (a directory whose
   * quota was cleared since has none).
   */
  public void addTo(long id, long ns, long ds) {
    long[] u = usage.get(id);
    if (u != null) {
      u[2] += ns;
      u[3] += ds;
    }
  }

  /** Whether {@code id} is a quota directory whose row was locked. */
  public boolean counts(long id) {
    return usage.containsKey(id);
  }

  /** Adds the change to every quota directory of the only path. */
  public void add(long ns, long ds) {
    add(0, Integer.MAX_VALUE, ns, ds);
  }

  /** Whether path {@code p} has a quota directory among its first {@code upTo} inodes. */
  public boolean any(int p, int upTo) {
    for (Entry e : entries(p)) {
      if (e.depth < upTo) {
        return true;
      }
    }
    return false;
  }

  /**
   * Whether paths {@code a} (its first {@code upToA} inodes) and {@code b} (its first {@code
   * upToB}) have different quota directories: only then does a move from one to the other change
   * any usage.
   */
  public boolean differ(int a, int upToA, int b, int upToB) {
    List<Long> ia = ids(a, upToA);
    List<Long> ib = ids(b, upToB);
    return !ia.equals(ib);
  }

  /** The ids of path {@code p}'s quota directories among its first {@code upTo} inodes. */
  public List<Long> ids(int p, int upTo) {
    List<Long> out = new ArrayList<>();
    for (Entry e : entries(p)) {
      if (e.depth < upTo) {
        out.add(e.id);
      }
    }
    return out;
  }

  /** Buffers the changed rows. */
  public void flush(ExecutePhase tx) throws StorageException {
    for (Map.Entry<Long, long[]> e : usage.entrySet()) {
      QuotaRow old = read.get(e.getKey());
      long[] u = e.getValue();
      if (old.nsCount() != u[2] || old.dsCount() != u[3]) {
        tx.update(QuotaRow.TABLE, new QuotaRow(old.inodeId(), u[0], u[1], u[2], u[3]));
      }
    }
  }
}
