package io.hops.namenode.resolve;

import io.hops.dal.rows.InodeRow;
import java.util.List;

/**
 * A path resolved in a lock phase: {@code inodes.get(0)} is the root, {@code inodes.get(i)} the
 * i-th component; the list stops at the first component that does not exist or follows a
 * non-directory.
 */
public record ResolvedPath(String path, String[] components, List<InodeRow> inodes) {

  /** Number of components of the path (the root has none). */
  public int depth() {
    return components.length;
  }

  /** Whether every component exists. */
  public boolean exists() {
    return inodes.size() == components.length + 1;
  }

  /** The inode the path names, or null if it does not exist. */
  public InodeRow target() {
    return exists() ? inodes.get(components.length) : null;
  }

  /** The parent directory of the target, or null if it does not exist (or the path is root). */
  public InodeRow parent() {
    return components.length > 0 && inodes.size() >= components.length
        ? inodes.get(components.length - 1)
        : null;
  }

  /** The deepest inode that exists: the target, or the last existing ancestor. */
  public InodeRow lastExisting() {
    return inodes.get(inodes.size() - 1);
  }

  /** The name of the target (empty for the root). */
  public String name() {
    return components.length == 0 ? "" : components[components.length - 1];
  }
}
