package io.hops.dal;

/** The ids {@code [first, first + count)} taken from a named counter, unique across namenodes. */
public record IdRange(long first, int count) {
  /** One past the last id. */
  public long end() {
    return first + count;
  }
}
