package io.hops.dal;

import io.hops.dal.rows.VariableRow;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Hands out id ranges from the {@code variables} table, the same way on every engine: lock the
 * counter row exclusively, advance it, commit. Two transactions that both create a new counter
 * collide on its key; the loser retries.
 */
public final class IdAllocator {
  private static final int ATTEMPTS = 20;

  private IdAllocator() {}

  public static IdRange allocate(Storage storage, String counter, int count)
      throws StorageException {
    if (count <= 0) {
      throw new IllegalArgumentException("count must be positive: " + count);
    }
    for (int attempt = 1; ; attempt++) {
      try (Transaction tx = storage.begin(counter)) {
        VariableRow row =
            tx.find(VariableRow.TABLE, VariableRow.TABLE.key(counter), LockMode.EXCLUSIVE);
        long first = row == null ? 1 : row.longValue();
        VariableRow next = new VariableRow(counter, first + count, null);
        if (row == null) {
          tx.insert(VariableRow.TABLE, next);
        } else {
          tx.update(VariableRow.TABLE, next);
        }
        tx.commit();
        return new IdRange(first, count);
      } catch (TransientStorageException | DuplicateKeyException e) {
        if (attempt == ATTEMPTS) {
          throw e;
        }
        backOff(attempt);
      }
    }
  }

  private static void backOff(int attempt) throws StorageException {
    try {
      Thread.sleep(ThreadLocalRandom.current().nextLong(1, 2L + Math.min(attempt, 6) * 5L));
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new StorageException("interrupted while allocating ids", e);
    }
  }
}
