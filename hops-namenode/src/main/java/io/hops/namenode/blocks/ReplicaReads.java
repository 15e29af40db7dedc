package io.hops.namenode.blocks;

import io.hops.dal.LockMode;
import io.hops.dal.StorageException;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.BlockLookupRow;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.rows.PendingBlockRow;
import io.hops.dal.rows.ReplicaRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.tx.LockPhase;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The lock phase of the changes of one transaction ({@link ReplicaChanges}, in block id order), in
 * batched primary-key reads rather than a few reads per change: the lookup rows, then the block
 * rows locked exclusively (in the changes' order, the block id order of docs/architecture.md, "Lock
 * order"), then the reporting storages' replica rows, the check, pending and invalidation rows of
 * the changes whose block is complete or unknown (none of the first three for a replica a full
 * report adds to a storage that recorded none, see {@link ReplicaChange}), and, for those, whether
 * a starting cluster defers their checks ({@link DeferredChecks}, last: variables come last in the
 * lock order). So a report's transaction costs a handful of round trips whatever its size. A change
 * of a block under construction or committed, or of one moved or removed since its lookup row was
 * read, reads the rest itself ({@link ReplicaChange#lockRest}): rare in a report, and those need
 * the block's other replicas.
 */
final class ReplicaReads {
  private ReplicaReads() {}

  static void lock(LockPhase tx, List<ReplicaChange> changes) throws IOException {
    long[] ids = new long[changes.size()];
    for (int i = 0; i < ids.length; i++) {
      ids[i] = changes.get(i).blockId();
    }
    LookedUp found = lookUp(tx, ids);
    for (int i = 0; i < changes.size(); i++) {
      changes.get(i).lookedUp(found.lookups().get(i), found.blocks().get(i));
    }
    lockRest(tx, changes);
  }

  /**
   * The rows after the lookup and block rows of changes that have theirs ({@link
   * ReplicaChange#lookedUp}), in the lock phase of a transaction that locked their block rows.
   */
  static void lockRest(LockPhase tx, List<ReplicaChange> changes) throws IOException {
    List<ReplicaChange> batched = new ArrayList<>(changes.size());
    for (ReplicaChange c : changes) {
      if (c.readsInBatches()) {
        batched.add(c);
      } else {
        c.lockRest(tx);
      }
    }
    List<List<Key>> keys = List.of(new ArrayList<>(), new ArrayList<>(), new ArrayList<>());
    List<Key> invalidationKeys = new ArrayList<>();
    for (ReplicaChange c : batched) {
      Key[] k = c.batchedKeys();
      keys.get(0).add(k[0]);
      keys.get(1).add(k[1]);
      keys.get(2).add(k[2]);
      invalidationKeys.add(k[3]);
    }
    List<ReplicaRow> mine = read(tx, ReplicaRow.TABLE, keys.get(0), LockMode.READ_COMMITTED);
    List<UnderReplicatedBlockRow> checks =
        read(tx, UnderReplicatedBlockRow.TABLE, keys.get(1), LockMode.READ_COMMITTED);
    List<PendingBlockRow> pending =
        read(tx, PendingBlockRow.TABLE, keys.get(2), LockMode.READ_COMMITTED);
    List<InvalidatedBlockRow> invalidated =
        read(tx, InvalidatedBlockRow.TABLE, invalidationKeys, LockMode.READ_COMMITTED);
    for (int i = 0; i < batched.size(); i++) {
      batched.get(i).batched(mine.get(i), checks.get(i), pending.get(i), invalidated.get(i));
    }
    if (!batched.isEmpty()
        && batched.get(0).mayDeferChecks()
        && batched.stream().anyMatch(ReplicaChange::defersCheck)
        && DeferredChecks.deferring(tx)) {
      batched.forEach(ReplicaChange::checkDeferred);
    }
  }

  /** The lookup rows of blocks and their block rows, aligned with the block ids (null if none). */
  record LookedUp(List<BlockLookupRow> lookups, List<BlockInfoRow> blocks) {}

  /**
   * The lookup rows of {@code blockIds} (read committed), then their block rows locked exclusively,
   * in the order of {@code blockIds} (block id order in every caller): one batch each.
   */
  static LookedUp lookUp(LockPhase tx, long[] blockIds) throws IOException {
    List<Key> lookupKeys = new ArrayList<>(blockIds.length);
    for (long id : blockIds) {
      lookupKeys.add(BlockLookupRow.TABLE.key(id));
    }
    List<BlockLookupRow> lookups =
        read(tx, BlockLookupRow.TABLE, lookupKeys, LockMode.READ_COMMITTED);
    List<Key> blockKeys = new ArrayList<>(blockIds.length);
    for (BlockLookupRow l : lookups) {
      blockKeys.add(l == null ? null : BlockInfoRow.TABLE.key(l.inodeId(), l.blockId()));
    }
    return new LookedUp(lookups, read(tx, BlockInfoRow.TABLE, blockKeys, LockMode.EXCLUSIVE));
  }

  /**
   * The rows of {@code keys}, aligned with them (null for a null key or a missing row): none read
   * for no key, a primary-key read for one, one batch for more.
   */
  private static <R extends Record> List<R> read(
      LockPhase tx, Table<R> table, List<Key> keys, LockMode mode) throws StorageException {
    List<Key> wanted = new ArrayList<>(keys.size());
    for (Key k : keys) {
      if (k != null) {
        wanted.add(k);
      }
    }
    List<R> found =
        wanted.isEmpty()
            ? List.of()
            : wanted.size() == 1
                ? Collections.singletonList(tx.find(table, wanted.get(0), mode))
                : tx.findBatch(table, wanted, mode);
    List<R> out = new ArrayList<>(keys.size());
    int j = 0;
    for (Key k : keys) {
      out.add(k == null ? null : found.get(j++));
    }
    return out;
  }
}
