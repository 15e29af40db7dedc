package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.leases.LeaseRecovery;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.Set;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;

/**
 * {@code recoverLease}: takes a file away from its writer at once, whatever the age of the writer's
 * lease (HDFS FSNamesystem.recoverLease, forced). A closed file answers true. The file is released
 * through the {@link LeaseRecovery} hook ({@link io.hops.namenode.leases.BlockRecovery}): a file
 * whose blocks are complete closes and the answer is true; otherwise its last block's recovery
 * starts (or goes on, or starts again once timed out), the file passes to the namenode's recovery
 * holder, and the answer is false until the primary datanode's commitBlockSynchronization closes
 * it. Locks the file exclusively, then its writer's lease row, then what the hook reads.
 */
public final class RecoverLease extends Operation<Boolean> {
  private final PermissionChecker pc;
  private final LeaseManager leaseManager;
  private final String src;
  private final String clientName;
  private ResolvedPath resolved;
  private LeaseChanges leases;
  private LeaseRecovery.Release release;

  public RecoverLease(
      PermissionChecker pc, LeaseManager leaseManager, String src, String clientName) {
    this.pc = pc;
    this.leaseManager = leaseManager;
    this.src = src;
    this.clientName = clientName;
  }

  @Override
  public String name() {
    return "recoverLease";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow file = resolved.target();
    if (file != null && !file.isDir() && file.underConstruction()) {
      leases = LeaseChanges.lock(tx, Set.of(file.clientName()));
      release = leaseManager.recovery().prepare(tx, file);
      release.countIn(io.hops.namenode.quota.AncestorQuotas.lock(tx, resolved, resolved.depth()));
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    String path = PathNames.prefix(resolved.components(), resolved.depth());
    Checks.traverseNotCreating(pc, resolved);
    InodeRow file = Checks.file(resolved, path);
    if (!file.underConstruction()) {
      return true;
    }
    pc.check(file, path, FsAction.WRITE);
    if (leases.read(file.clientName()) == null) {
      throw new AlreadyBeingCreatedException(
          "Failed to RECOVER_LEASE "
              + path
              + " for "
              + clientName
              + " on "
              + pc.caller().clientMachine()
              + " because the file is under construction but no leases found.");
    }
    boolean closed = release.release(tx, MutableInode.of(file), leases, leaseManager.now());
    leases.flush(tx);
    return closed;
  }
}
