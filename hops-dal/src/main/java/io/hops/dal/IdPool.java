package io.hops.dal;

/**
 * Ids taken from a database counter a range at a time, so a namenode does not touch the database
 * for every new id (docs/architecture.md, "Metadata schema"). Ranges are unique across namenodes;
 * an unused rest of a range is simply never used.
 */
public final class IdPool {
  private final Storage storage;
  private final String counter;
  private final int rangeSize;
  private long next;
  private long end;

  public IdPool(Storage storage, String counter, int rangeSize) {
    this.storage = storage;
    this.counter = counter;
    this.rangeSize = rangeSize;
  }

  public synchronized long next() throws StorageException {
    if (next == end) {
      IdRange r = storage.allocateIds(counter, rangeSize);
      next = r.first();
      end = r.end();
    }
    return next++;
  }

  /** Gives up the rest of the current range: the next id comes from a new range. */
  public synchronized void dropRange() {
    next = end;
  }

  /**
   * Makes sure ids up to {@code id} are never handed out by this counter: one allocation jumps the
   * counter past {@code id} (the counter only grows, so no later range is below it).
   */
  public synchronized void reserveUpTo(long id) throws StorageException {
    long n = next();
    if (n > id) {
      next = n; // give it back: it is still unused
      return;
    }
    for (long from = n; from <= id; ) {
      from = storage.allocateIds(counter, (int) Math.min(Integer.MAX_VALUE, id - from + 1)).end();
    }
    next = end; // this range is below id too: the next id comes from a new range
  }
}
