package io.hops.namenode.check;

/**
 * One violation of a namespace invariant found by {@link NamespaceCheck}: its kind, a line for the
 * operator, and the ids a repair needs.
 */
public record Problem(Kind kind, String text, long inodeId, long owner) {

  /** What is wrong, and whether {@code --repair} may fix it without losing anything. */
  public enum Kind {
    NO_ROOT(false),
    DUPLICATE_ID(false),
    DUPLICATE_NAME(false),
    WRONG_PARTITION(false),
    ORPHAN(true),
    PARENT_NOT_DIRECTORY(false),
    UNREACHABLE(false),
    CHILDREN_COUNT(false),
    BLOCK_OF_MISSING_FILE(false),
    REPLICA_OF_MISSING_BLOCK(false),
    BLOCK_OFFSET(false),
    STALE_SUBTREE_MARK(true),
    STALE_SUBTREE_OPERATION(true),
    QUOTA_USAGE(true),
    QUOTA_ROW(false),
    ATTRIBUTE_ROWS(false),
    SNAPSHOT_TAIL(false),
    SNAPSHOT_VERSION_LOG(false);

    private final boolean repairable;

    Kind(boolean repairable) {
      this.repairable = repairable;
    }

    public boolean repairable() {
      return repairable;
    }
  }

  @Override
  public String toString() {
    return kind + ": " + text;
  }
}
