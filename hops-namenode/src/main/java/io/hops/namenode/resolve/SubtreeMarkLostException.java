package io.hops.namenode.resolve;

import org.apache.hadoop.ipc.RetriableException;

/**
 * A batch of a subtree operation found its mark cleared or taken over by another namenode (which
 * took its owner for dead): the operation stops at once, and the client's retry starts it again
 * under a mark of its own. Not retried by the transaction runner: the batch's work is no longer its
 * own to do.
 */
public final class SubtreeMarkLostException extends RetriableException {
  private static final long serialVersionUID = 1L;

  public SubtreeMarkLostException(String message) {
    super(message);
  }
}
