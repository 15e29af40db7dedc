package io.hops.bench.client;

import java.util.List;

/**
 * The files the client threads believe they have (after their creates, renames and deletes) against
 * what listing their trees shows: a file missing is lost, an unexpected one was made twice or by an
 * operation the client saw fail.
 *
 * @param expected files the threads believe exist
 * @param missing some of those the listing lacks (at most a few, for the report), and how many
 * @param unexpected some files the listing has that no thread expects, and how many
 */
public record FileCheck(
    long expected,
    List<String> missing,
    long missingCount,
    List<String> unexpected,
    long unexpectedCount) {
  static final int EXAMPLES = 10;

  public FileCheck {
    missing = List.copyOf(missing);
    unexpected = List.copyOf(unexpected);
  }

  public boolean ok() {
    return missingCount == 0 && unexpectedCount == 0;
  }
}
