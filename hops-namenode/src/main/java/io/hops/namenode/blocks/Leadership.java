package io.hops.namenode.blocks;

import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.election.LeaderElection;
import io.hops.election.NotLeaderException;
import io.hops.namenode.tx.FencedPause;
import io.hops.namenode.tx.TransactionRunner;

/**
 * Whether this namenode leads, and the fence of the work only the leader does
 * (docs/architecture.md, "Fencing a paused leader"), for {@link BlockManager}: the election it
 * takes part in, once it has joined.
 */
final class Leadership {
  private volatile LeaderElection election;

  /**
   * Whether this namenode does housekeeping and commands datanodes (docs/architecture.md, "Wire
   * compatibility"): it was elected and its lease holds.
   */
  boolean isLeader() {
    LeaderElection e = election;
    return e != null && e.isLeader();
  }

  /**
   * The epoch this namenode leads now, or -1 if it does not lead: the tag of the commands it
   * decides for datanodes, which are handed out only under that same epoch ({@link
   * DatanodeManager#commandsFor}). Read before a decision, so a decision fenced under a later epoch
   * (the lease lost and won again in between) carries the earlier one and is never sent.
   */
  long leadingEpoch() {
    LeaderElection e = election;
    if (e == null) {
      return -1;
    }
    long epoch = e.epoch();
    return e.isLeader() && e.epoch() == epoch ? epoch : -1;
  }

  /** The election this namenode takes part in, or null before it joined. */
  LeaderElection election() {
    return election;
  }

  void setElection(LeaderElection election) {
    this.election = election;
    FencedPause.leaseEnd(
        () ->
            election.isLeader()
                ? System.currentTimeMillis()
                    + (election.leaseEndNanos() - System.nanoTime()) / 1_000_000L
                : -1);
  }

  /**
   * The fence of leader-only work: {@link #checkLeader} at the end of the lock phase, and the lease
   * again just before the commit (docs/architecture.md, "Fencing a paused leader").
   */
  TransactionRunner.Fence leaderFence() {
    return leaderFence;
  }

  private final TransactionRunner.Fence leaderFence =
      new TransactionRunner.Fence() {
        @Override
        public void check(Transaction tx) throws StorageException {
          checkLeader(tx);
        }

        @Override
        public void recheck() throws StorageException {
          LeaderElection e = election;
          if (e == null || !e.isLeader()) {
            throw new NotLeaderException(
                "this namenode's lease ended before its fenced transaction could commit");
          }
        }
      };

  /**
   * The fence of leader-only work (a {@link TransactionRunner.Fence}): passes only if this namenode
   * still leads at the epoch the database names (docs/architecture.md, "Wire compatibility").
   */
  void checkLeader(Transaction tx) throws StorageException {
    LeaderElection e = election;
    if (e == null) {
      throw new NotLeaderException("this namenode has not joined the leader election yet");
    }
    e.checkLeader(tx);
  }
}
