package io.hops.namenode.check;

import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import java.util.ArrayList;
import java.util.List;

/**
 * The namespace check of {@code hops fsck-namespace} ({@link NamespaceCheck}) as one call, for
 * tests and tools that want the violations as lines: every namenode counted alive, so only the
 * namespace itself is judged, not the marks of operations in progress.
 */
public final class NamespaceChecker {
  private NamespaceChecker() {}

  /** The violations found; empty when the namespace is consistent. */
  public static List<String> violations(Storage storage) throws StorageException {
    List<String> out = new ArrayList<>();
    for (Problem p : new NamespaceCheck(storage, 10_000, line -> {}, owner -> true).run()) {
      out.add(p.toString());
    }
    return out;
  }
}
