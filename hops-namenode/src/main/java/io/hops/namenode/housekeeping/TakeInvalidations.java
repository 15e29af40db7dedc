package io.hops.namenode.housekeeping;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InvalidatedBlockRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.List;
import java.util.Objects;

/**
 * Drops invalidations that will not be sent (their datanode is dead or unknown, or it never
 * reported the deletion): those of the given rows still there are deleted and returned (B + W). An
 * invalidation row is written once and then only deleted, so no block lock is needed.
 */
final class TakeInvalidations extends Operation<List<InvalidatedBlockRow>> {
  private final List<InvalidatedBlockRow> rows;
  private List<InvalidatedBlockRow> found;

  TakeInvalidations(List<InvalidatedBlockRow> rows) {
    this.rows = rows;
  }

  @Override
  public String name() {
    return "takeInvalidations";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    List<Key> keys = rows.stream().map(InvalidatedBlockRow.TABLE::keyOf).toList();
    found =
        tx.findBatch(InvalidatedBlockRow.TABLE, keys, LockMode.READ_COMMITTED).stream()
            .filter(Objects::nonNull)
            .toList();
  }

  @Override
  protected List<InvalidatedBlockRow> execute(ExecutePhase tx) throws IOException {
    for (InvalidatedBlockRow r : found) {
      tx.delete(InvalidatedBlockRow.TABLE, r);
    }
    return found;
  }
}
