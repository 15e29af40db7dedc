package io.hops.dal;

import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;

/** One buffered write, as handed to a driver at flush time. {@code row} is null for deletes. */
public record WriteOp(Kind kind, Table<?> table, Key key, Record row) {
  /** What a write does to its row. */
  public enum Kind {
    DELETE,
    UPDATE,
    INSERT,
    /** An insert that leaves a row already there with this primary key as it is. */
    INSERT_IF_ABSENT
  }
}
