package io.hops.namenode.upgrade;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.check.Liveness;
import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.conf.Configuration;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The version of the metadata schema, kept in the database ({@code schema_version} in {@code
 * variables}), so that namenodes of two releases over one database know which one the schema is
 * (docs/operations.md, "Upgrade"). A namenode refuses to start over a schema newer than its own;
 * over its own it changes nothing (no DDL at start); over an older one it upgrades it, once, only
 * when no namenode (of the older release) is live, and refuses otherwise. {@code bin/hops format}
 * upgrades explicitly, beside live namenodes, for a change that only adds.
 */
public final class SchemaVersion {
  private static final Logger LOG = LoggerFactory.getLogger(SchemaVersion.class);

  /**
   * This release's schema. Raise it with every change to the tables or their columns. 1: the first
   * versioned schema (long names, namenode incarnations); stores made before it have no row and
   * read as 0. 2: the security tables ({@code block_keys}, {@code delegation_keys}, {@code
   * delegation_tokens}). 3: snapshots ({@code snapshots}, {@code snapshottable_dirs}, and the
   * inodes' {@code snapshottable} and {@code snapshot_id}, which read as false and 0 in rows
   * written before them). 4: {@code inode_versions} (the copy-on-write of inode entries under
   * snapshots). 5: {@code snapshot_kept_files} (blocks kept for snapshots). 6: {@code
   * xattr_versions} (the xattrs and ACLs of inode entries under snapshots). 7: {@code
   * snapshot_file_tails} (blocks kept for snapshots by copy-on-truncate). 8: {@code
   * snapshot_kept_usage} (quota usage kept charged for snapshots). 9: {@code
   * snapshot_kept_replication} (the replication the blocks of a file kept for snapshots keep). 10:
   * {@code snapshot_earlier_entries} (where the snapshots have a file renamed since). 11: {@code
   * snapshot_renamed_entries} (the entries an inode left while a snapshot had it there, which diff
   * reports follow). 12: the index of {@code snapshot_kept_files} by {@code inode_id} (one kept row
   * per holder of an inode) and {@code snapshot_version_log} (the versions below each snapshotted
   * directory by snapshot, which {@code deleteSnapshot} reclaims when no snapshot reads them). 13:
   * diff reports take the directories to walk from that log, so a writer below a directory held by
   * a move inside a snapshottable one raises the latter's {@code snapshot_log_gap/<id>} row and
   * {@code snapshot_log_since} says from which snapshot the log is whole (rows of {@code
   * variables}, no DDL); a namenode of an older release does neither and must not write beside.
   */
  public static final long CURRENT = 13;

  static final String ROW = "schema_version";

  private SchemaVersion() {}

  /** The version stored in {@code storage}; 0 when none is (a store from before versions). */
  public static long stored(Storage storage) throws StorageException {
    if (!storage.schema().existingTables().contains(VariableRow.TABLE.name())) {
      return 0;
    }
    try (Transaction tx = storage.begin()) {
      VariableRow row =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED);
      tx.commit();
      return row == null ? 0 : row.longValue();
    }
  }

  /** Records that the schema is this release's. */
  public static void record(Storage storage) throws StorageException {
    try (Transaction tx = storage.begin()) {
      VariableRow now = new VariableRow(ROW, CURRENT, null);
      if (tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.EXCLUSIVE) == null) {
        tx.insert(VariableRow.TABLE, now);
      } else {
        tx.update(VariableRow.TABLE, now);
      }
      tx.commit();
    }
  }

  /** Refuses a schema newer than this release's. */
  public static void refuseNewer(long stored) throws IOException {
    if (stored > CURRENT) {
      throw new IOException(
          "the metadata schema is at version "
              + stored
              + ", newer than this release's ("
              + CURRENT
              + "): a namenode of a newer release upgraded it; start that release");
    }
  }

  /** What a namenode does with the schema as it starts (see the class comment). */
  public static void atStart(Storage storage, Configuration conf) throws IOException {
    if (!storage.schema().hasData()) {
      storage.schema().createOrUpgrade(); // a new store, or one formatted empty
      record(storage);
      return;
    }
    long stored = stored(storage);
    refuseNewer(stored);
    if (stored == CURRENT) {
      return;
    }
    Set<Long> live = Liveness.of(storage, conf).live();
    if (!live.isEmpty()) {
      throw new IOException(
          "the metadata schema is at version "
              + stored
              + " and this release needs version "
              + CURRENT
              + ", but namenode(s) "
              + new java.util.TreeSet<>(live)
              + " of the older release are live: stop them and start this one (it upgrades the"
              + " schema once), or upgrade it beside them with 'bin/hops format' when the change"
              + " only adds (docs/operations.md, \"Upgrade\")");
    }
    LOG.info("upgrading the metadata schema from version {} to {}", stored, CURRENT);
    storage.schema().createOrUpgrade();
    backfillVersionLog(storage, stored, LOG::warn);
    record(storage);
  }

  /** The versions a page of the version log's backfill reads per transaction. */
  private static final int BACKFILL_PAGE = 1000;

  /**
   * The one-time walk an upgrade from before version 12 makes ({@link VersionLogBackfill}): the
   * versions no snapshot reads deleted, the others logged; {@code warn} tells the operator what it
   * did, and how many versions stay without a log row (never reclaimed).
   */
  public static VersionLogBackfill.Outcome backfillVersionLog(
      Storage storage, long stored, java.util.function.Consumer<String> warn)
      throws StorageException {
    if (stored >= 12) {
      return new VersionLogBackfill.Outcome(0, 0, 0);
    }
    VersionLogBackfill.Outcome o = VersionLogBackfill.run(storage, BACKFILL_PAGE);
    if (o.deleted() + o.logged() + o.unlogged() > 0) {
      warn.accept(
          "snapshot versions written before schema version 12: "
              + o.deleted()
              + " that no snapshot reads deleted, "
              + o.logged()
              + " logged for their directory's deleteSnapshot, "
              + o.unlogged()
              + " left without a log row (below a directory deleted since, or covered by no"
              + " snapshot now): they are never reclaimed (docs/architecture.md, \"Reclaiming"
              + " versions\")");
    }
    return o;
  }
}
