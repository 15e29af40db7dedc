package io.hops.namenode.ops;

import io.hops.dal.rows.BlockInfoRow;
import io.hops.namenode.blocks.BlockState;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.LeaseRecovery;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.tx.ExecutePhase;
import java.io.IOException;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.RecoveryInProgressException;

/**
 * HDFS FSNamesystem.recoverLeaseInternal: a client wants a file that is being written, to create it
 * again, append to it or truncate it. Refused, with HDFS's exceptions and messages, unless the
 * writer's lease is past the soft limit and releasing the file closes it at once. One instance per
 * operation, naming it as HDFS does ({@code CREATE_FILE}, {@code APPEND_FILE}, {@code
 * TRUNCATE_FILE}).
 */
final class LeaseTakeover {
  private final String operation;
  private final String holder;
  private final String clientMachine;

  LeaseTakeover(String operation, String holder, String clientMachine) {
    this.operation = operation;
    this.holder = holder;
    this.clientMachine = clientMachine;
  }

  /** HDFS's message: "Failed to OPERATION path for holder on machine because reason". */
  String failure(String path, String reason) {
    return "Failed to "
        + operation
        + " "
        + path
        + " for "
        + holder
        + " on "
        + clientMachine
        + " because "
        + reason;
  }

  /**
   * Takes {@code file} from its writer or refuses. {@code release} is the lock phase's preparation
   * when the writer's lease is past the soft limit, else null; {@code last} is the file's last
   * block if the operation read it (one under recovery is reported as such), else null. Returns
   * null when the file is now closed, or the {@link RecoveryInProgressException} to raise after the
   * commit when releasing started a block recovery (which must stay; the leases are flushed).
   */
  IOException takeOver(
      ExecutePhase tx,
      MutableInode file,
      String path,
      LeaseChanges leases,
      BlockInfoRow last,
      LeaseRecovery.Release release,
      long now)
      throws IOException {
    String writer = file.clientName;
    if (holder.equals(writer) && leases.read(holder) != null) {
      throw new AlreadyBeingCreatedException(
          failure(path, holder + " is already the current lease holder."));
    }
    if (leases.read(writer) == null) {
      throw new AlreadyBeingCreatedException(
          failure(path, "the file is under construction but no leases found."));
    }
    if (release == null) {
      if (last != null && last.underConstructionState() == BlockState.UNDER_RECOVERY) {
        throw new RecoveryInProgressException(
            failure(
                path,
                "another recovery is in progress by " + writer + " on " + file.clientMachine));
      }
      throw new AlreadyBeingCreatedException(
          failure(
              path,
              "this file lease is currently owned by " + writer + " on " + file.clientMachine));
    }
    if (!release.release(tx, file, leases, now)) {
      leases.flush(tx);
      return new RecoveryInProgressException(
          failure(path, "lease recovery is in progress. Try again later."));
    }
    return null;
  }
}
