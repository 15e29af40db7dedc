package io.hops.namenode.tx;

import java.io.IOException;

/**
 * One file system operation as a transaction in three phases (docs/architecture.md,
 * "Transactions"): {@link #lock} reads every row it needs once, at the strongest lock it will need,
 * in the global lock order; {@link #execute} works on what was read and may only buffer writes; the
 * runner then flushes and commits. A new instance runs each attempt, so fields set in {@code lock}
 * are fresh on a retry.
 */
public abstract class Operation<T> {

  /** The operation's name in metrics and logs, e.g. {@code mkdirs}. */
  public abstract String name();

  /** The partition that holds most of what this operation reads, or null. */
  public Object partitionHint() {
    return null;
  }

  /** The lock phase: resolve paths and read rows. */
  protected abstract void lock(LockPhase tx) throws IOException;

  /** The execute phase: plain Java over what {@code lock} read; reads throw. */
  protected abstract T execute(ExecutePhase tx) throws IOException;
}
