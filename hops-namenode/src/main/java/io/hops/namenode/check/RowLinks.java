package io.hops.namenode.check;

import static io.hops.namenode.check.NamespaceCheck.byId;
import static io.hops.namenode.check.NamespaceCheck.describe;
import static io.hops.namenode.check.NamespaceCheck.problem;
import static io.hops.namenode.check.NamespaceCheck.stillThere;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.BlockOffsetRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.ReleasedFileRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.SnapshotFileTailRow;
import io.hops.dal.rows.SnapshotKeptFileRow;
import io.hops.dal.rows.XAttrRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.check.Problem.Kind;
import io.hops.namenode.resolve.InodeFlags;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToLongFunction;

/**
 * The rows that name other rows, joined with them a page at a time: each block with its file (one
 * lookup per file: blocks are keyed by it) and with the offset row that places it (one batched read
 * per page), each replica with its block and each offset row with its block (batched), each
 * attribute row with its inode, each quota row with its directory, each copy-on-truncate tail with
 * its kept file.
 */
final class RowLinks {
  private final NamespaceCheck check;

  RowLinks(NamespaceCheck check) {
    this.check = check;
  }

  void run() throws StorageException {
    Set<Long> kept = keptFiles();
    checkBlocks(kept);
    checkTails(kept);
    checkReplicas();
    checkOffsets();
    checkAttributes();
    checkQuotaRows();
  }

  /**
   * Every block belongs to a file, or to one whose blocks are being released or that a snapshot
   * keeps, and has its offset row.
   */
  private void checkBlocks(Set<Long> kept) throws StorageException {
    long[] file = {Long.MIN_VALUE};
    boolean[] owned = {true};
    InodeRow[] fileRow = {null};
    check.scan(
        BlockInfoRow.TABLE,
        "blocks",
        (page, tx) -> {
          List<Key> keys = new ArrayList<>(page.size());
          for (BlockInfoRow b : page) {
            keys.add(BlockOffsetRow.TABLE.keyOf(BlockOffsetRow.of(b)));
          }
          List<BlockOffsetRow> offsets =
              tx.findBatch(BlockOffsetRow.TABLE, keys, LockMode.READ_COMMITTED);
          for (int i = 0; i < page.size(); i++) {
            BlockInfoRow b = page.get(i);
            if (b.inodeId() != file[0]) {
              file[0] = b.inodeId();
              fileRow[0] = byId(tx, b.inodeId());
              owned[0] =
                  (fileRow[0] != null && !fileRow[0].isDir())
                      || kept.contains(b.inodeId())
                      || tx.find(
                              ReleasedFileRow.TABLE,
                              ReleasedFileRow.TABLE.key(b.inodeId()),
                              LockMode.READ_COMMITTED)
                          != null;
            }
            if (!owned[0] && stillThere(tx, BlockInfoRow.TABLE, b)) {
              check.add(
                  problem(
                      Kind.BLOCK_OF_MISSING_FILE,
                      "block "
                          + b.blockId()
                          + " belongs to inode "
                          + b.inodeId()
                          + (fileRow[0] == null ? ", which does not exist" : ", a directory"),
                      b.inodeId()));
            }
            BlockOffsetRow o = offsets.get(i);
            if ((o == null || o.blockId() != b.blockId())
                && stillThere(tx, BlockInfoRow.TABLE, b)) {
              check.add(
                  problem(
                      Kind.BLOCK_OFFSET,
                      "block "
                          + b.blockId()
                          + " has no offset row ("
                          + place(BlockOffsetRow.of(b))
                          + ")",
                      b.inodeId()));
            }
          }
        });
  }

  /**
   * The ids of the files kept for snapshots. Files deleted while a snapshot had them keep their
   * blocks (docs/architecture.md, "Snapshots"): their ids are the one set kept, as many as such
   * files. A copy-on-truncate tail its snapshots released while its copy is in progress keeps its
   * blocks without a kept file until the copy commits: its id counts as kept too.
   */
  private Set<Long> keptFiles() throws StorageException {
    Set<Long> kept = new HashSet<>();
    check.scan(
        SnapshotKeptFileRow.TABLE,
        "files kept for snapshots",
        (page, tx) -> page.forEach(r -> kept.add(r.inodeId())));
    check.scan(
        SnapshotFileTailRow.TABLE,
        "snapshot file tails released while copying",
        (page, tx) ->
            page.stream()
                .filter(SnapshotFileTailRow::isReleased)
                .forEach(t -> kept.add(t.tailId())));
    return kept;
  }

  /**
   * Every copy-on-truncate tail names a file kept for snapshots: its row goes in the transaction
   * that releases the kept file. A tail missed by {@code kept} is looked up again in a fresh scan
   * of the kept files (its file may have been kept since the first) and a read of the tail (it may
   * have gone with its file since).
   */
  private void checkTails(Set<Long> kept) throws StorageException {
    List<SnapshotFileTailRow> missed = new ArrayList<>();
    check.scan(
        SnapshotFileTailRow.TABLE,
        "snapshot file tails",
        (page, tx) -> page.stream().filter(t -> !kept.contains(t.tailId())).forEach(missed::add));
    if (missed.isEmpty()) {
      return;
    }
    Set<Long> now = keptFiles();
    try (Transaction tx = check.storage().begin()) {
      for (SnapshotFileTailRow t : missed) {
        if (!now.contains(t.tailId()) && stillThere(tx, SnapshotFileTailRow.TABLE, t)) {
          check.add(
              problem(
                  Kind.SNAPSHOT_TAIL,
                  "the tail of file "
                      + t.inodeId()
                      + " at snapshot "
                      + t.snapshotId()
                      + " names kept file "
                      + t.tailId()
                      + ", which is not kept",
                  t.inodeId()));
        }
      }
      tx.commit();
    }
  }

  private void checkReplicas() throws StorageException {
    check.scan(
        ReplicaRow.TABLE,
        "replicas",
        (page, tx) -> {
          List<BlockInfoRow> blocks = blocks(tx, page, ReplicaRow::inodeId, ReplicaRow::blockId);
          for (int i = 0; i < page.size(); i++) {
            ReplicaRow r = page.get(i);
            if (blocks.get(i) == null
                && !exists(tx, r.blockId())
                && stillThere(tx, ReplicaRow.TABLE, r)) {
              check.add(
                  problem(
                      Kind.REPLICA_OF_MISSING_BLOCK,
                      "a replica on storage "
                          + r.storageId()
                          + " of block "
                          + r.blockId()
                          + " (inode "
                          + r.inodeId()
                          + "), which does not exist",
                      r.inodeId()));
            }
          }
        });
  }

  /** Every offset row places an existing block of its file where its block row says. */
  private void checkOffsets() throws StorageException {
    check.scan(
        BlockOffsetRow.TABLE,
        "block offsets",
        (page, tx) -> {
          List<BlockInfoRow> blocks =
              blocks(tx, page, BlockOffsetRow::inodeId, BlockOffsetRow::blockId);
          for (int i = 0; i < page.size(); i++) {
            BlockOffsetRow o = page.get(i);
            BlockOffsetRow want = blocks.get(i) == null ? null : BlockOffsetRow.of(blocks.get(i));
            if ((want == null || !want.equals(o)) && stillThere(tx, BlockOffsetRow.TABLE, o)) {
              check.add(
                  problem(
                      Kind.BLOCK_OFFSET,
                      "an offset row places block "
                          + o.blockId()
                          + " at "
                          + o.startOffset()
                          + " (index "
                          + o.blockIndex()
                          + ") of inode "
                          + o.inodeId()
                          + (want == null
                              ? ", a block that does not exist"
                              : ", where its block row does not (" + place(want) + ")"),
                      o.inodeId()));
            }
          }
        });
  }

  /** Whether block {@code blockId} exists in whatever file its lookup row names. */
  private static boolean exists(Transaction tx, long blockId) throws StorageException {
    BlockLookupRow l =
        tx.find(BlockLookupRow.TABLE, BlockLookupRow.TABLE.key(blockId), LockMode.READ_COMMITTED);
    return l != null
        && tx.find(
                BlockInfoRow.TABLE,
                BlockInfoRow.TABLE.key(l.inodeId(), blockId),
                LockMode.READ_COMMITTED)
            != null;
  }

  /** The blocks the rows of a page name, aligned with them (null where missing): one read. */
  private static <R> List<BlockInfoRow> blocks(
      Transaction tx, List<R> page, ToLongFunction<R> inodeId, ToLongFunction<R> blockId)
      throws StorageException {
    List<Key> keys = new ArrayList<>(page.size());
    for (R r : page) {
      keys.add(BlockInfoRow.TABLE.key(inodeId.applyAsLong(r), blockId.applyAsLong(r)));
    }
    return tx.findBatch(BlockInfoRow.TABLE, keys, LockMode.READ_COMMITTED);
  }

  private static String place(BlockOffsetRow o) {
    return "at " + o.startOffset() + ", index " + o.blockIndex() + " of inode " + o.inodeId();
  }

  /**
   * Every attribute row belongs to an inode whose flag says it has such rows (the ACL row to the
   * ACL flag, the others to the xattr flag); the scan of the inodes checked the other way round.
   */
  private void checkAttributes() throws StorageException {
    long[] inode = {Long.MIN_VALUE};
    InodeRow[] owner = {null};
    check.scan(
        XAttrRow.TABLE,
        "xattrs",
        (page, tx) -> {
          for (XAttrRow x : page) {
            if (x.inodeId() != inode[0]) {
              inode[0] = x.inodeId();
              owner[0] = byId(tx, x.inodeId());
            }
            boolean acl = x.namespace() == XAttrRow.HIDDEN;
            InodeRow n = owner[0];
            if (n == null) {
              if (stillThere(tx, XAttrRow.TABLE, x)) {
                check.add(
                    problem(
                        Kind.ATTRIBUTE_ROWS,
                        "attribute " + x.name() + " of a missing inode " + x.inodeId(),
                        x.inodeId()));
              }
            } else if (acl
                ? !InodeFlags.hasAcl(n.permission())
                : !InodeFlags.hasXAttrs(n.permission())) {
              check.add(
                  problem(
                      Kind.ATTRIBUTE_ROWS,
                      "attribute " + x.name() + " of " + describe(n) + " without its flag",
                      n.id()));
            }
          }
        });
  }

  /** Every quota row belongs to a directory with a quota (the walk checked the other way round). */
  private void checkQuotaRows() throws StorageException {
    check.scan(
        QuotaRow.TABLE,
        "quotas",
        (page, tx) -> {
          for (QuotaRow q : page) {
            InodeRow n = byId(tx, q.inodeId());
            if ((n == null || !n.isDir() || !n.hasQuota()) && stillThere(tx, QuotaRow.TABLE, q)) {
              check.add(
                  problem(
                      Kind.QUOTA_ROW,
                      "a quota row for inode " + q.inodeId() + ", which has no quota",
                      q.inodeId()));
            }
          }
        });
  }
}
