package io.hops.dal.embedded;

import java.util.HashMap;
import java.util.Map;

/**
 * A write's claim of a partition whose names it is reading. A commit to the partition meanwhile is
 * written down here rather than dropping the claim (a directory written into by many clients would
 * otherwise never keep its names); the reader applies what was written down to what it read and
 * puts the names in the claim's place in one step with marking it done, so a commit either is
 * written down before that or applies to the names after. A commit applied before the claim was
 * made is in the store before the read began.
 */
final class NamesClaim {
  final Generation generation;
  final KeyBytes partition;
  final Map<KeyBytes, Object> meanwhile = new HashMap<>();
  boolean done;

  NamesClaim(Generation generation, KeyBytes partition) {
    this.generation = generation;
    this.partition = partition;
  }

  /** Writes a commit's rows down; false if the claim is done (the names are in its place). */
  synchronized boolean note(Map<KeyBytes, Object> written) {
    if (done) {
      return false;
    }
    meanwhile.putAll(written); // a key's later commit comes later: it holds the key's lock
    return true;
  }
}
