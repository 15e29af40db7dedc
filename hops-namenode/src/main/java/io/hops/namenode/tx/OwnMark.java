package io.hops.namenode.tx;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.SubtreeMarkLostException;
import java.io.IOException;

/**
 * A subtree operation's own mark as each of its batch transactions checks it (docs/architecture.md,
 * "Subtree operations"): the marked root's row, its id, and the owner the mark must still name (the
 * marking namenode's process incarnation). A batch locks the root's row first and stops unless the
 * mark is still there and still this owner's: a mark that others cleared (they took its owner for
 * dead) or took over is no longer a licence to change the subtree.
 */
public record OwnMark(Key rootKey, long rootId, long owner) {

  /** The mark {@code owner} holds on {@code root}, at the root's current place. */
  public static OwnMark of(InodeRow root, long owner) {
    Key key =
        root.id() == Inodes.ROOT_ID ? Inodes.rootKey() : Inodes.key(root.parentId(), root.name());
    return new OwnMark(key, root.id(), owner);
  }

  /**
   * Locks the marked root's row in {@code mode} and throws {@link SubtreeMarkLostException} unless
   * it still carries this mark.
   */
  public void check(LockPhase tx, LockMode mode) throws IOException {
    InodeRow root = tx.find(InodeRow.TABLE, rootKey, mode);
    if (root == null
        || root.id() != rootId
        || !root.subtreeLocked()
        || root.subtreeLockOwner() != owner) {
      throw new SubtreeMarkLostException(
          "the subtree mark of namenode "
              + owner
              + " on inode "
              + rootId
              + (root == null || root.id() != rootId
                  ? " is gone"
                  : root.subtreeLocked()
                      ? " was taken over by namenode " + root.subtreeLockOwner()
                      : " was cleared")
              + "; the subtree operation stops (retry it)");
    }
  }
}
