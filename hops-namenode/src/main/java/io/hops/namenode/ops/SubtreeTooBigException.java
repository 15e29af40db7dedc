package io.hops.namenode.ops;

import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import java.io.IOException;

/**
 * An operation found its subtree over {@code hops.namenode.subtree.max-inodes-in-one-tx}: nothing
 * was written, and the caller runs it again under the subtree protocol ({@link
 * io.hops.namenode.subtree.SubtreeOperations}). Never reaches a client.
 */
public final class SubtreeTooBigException extends IOException {
  private static final long serialVersionUID = 1L;

  private final transient InodeRow root;
  private final String path;
  private final transient QuotaRow quota;
  private final long cover;

  SubtreeTooBigException(String op, String path, InodeRow root, QuotaRow quota) {
    this(op, path, root, quota, 0);
  }

  SubtreeTooBigException(String op, String path, InodeRow root, QuotaRow quota, long cover) {
    super(op + " " + path + ": the subtree is over the bound of one transaction");
    this.root = root;
    this.path = path;
    this.quota = quota;
    this.cover = cover;
  }

  /** The root of the subtree as the operation read it. */
  public InodeRow root() {
    return root;
  }

  /** The root's path. */
  public String path() {
    return path;
  }

  /** The root's quota row, if it has one (content summary). */
  public QuotaRow quota() {
    return quota;
  }

  /**
   * The snapshottable directory with snapshots that covers the root, the root itself included, or 0
   * (content summary: docs/architecture.md, "Content summaries").
   */
  public long cover() {
    return cover;
  }
}
