package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.BlockInfoRow;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.UnderReplicatedBlockRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.config.Limits;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.quota.FileSpace;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * {@code setReplication}: the target locked exclusively (B + PK(EXCLUSIVE) + W). As HDFS: the
 * factor is checked against {@code dfs.namenode.replication.min} and {@code dfs.replication.max}
 * before anything else; write permission on the target is required; a file stores the new factor
 * and gives true, a directory or a missing path gives false. When the factor of a file with blocks
 * changes, each block is queued for a replication check, and the leader's re-replication adds or
 * removes replicas (HDFS BlockManager.setReplication). The blocks are locked exclusively after the
 * inode, which orders this against that check (it reads the factor only once it holds the block
 * rows): B + PK(EXCLUSIVE) + W for an empty file, plus 2 PPIS for one with blocks.
 */
public final class SetReplication extends Operation<Boolean> {
  private final Limits limits;
  private final ClusterClock clock;
  private final PermissionChecker pc;
  private final String path;
  private final short replication;
  private ResolvedPath resolved;
  private List<BlockInfoRow> blocks = List.of();
  private final Set<Long> queued = new HashSet<>();
  private AncestorQuotas quotas = AncestorQuotas.none();

  public SetReplication(
      Limits limits, ClusterClock clock, PermissionChecker pc, String path, short replication) {
    this.limits = limits;
    this.clock = clock;
    this.pc = pc;
    this.path = path;
    this.replication = replication;
  }

  @Override
  public String name() {
    return "setReplication";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    Checks.replication(limits, replication, path);
    resolved = tx.resolve(path, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target != null
        && !target.isDir()
        && target.replication() != replication
        && (target.size() > 0 || target.underConstruction())) {
      blocks = tx.findByPartition(BlockInfoRow.TABLE, target.id(), LockMode.EXCLUSIVE);
      if (!blocks.isEmpty()) {
        tx.findByPartition(UnderReplicatedBlockRow.TABLE, target.id(), LockMode.READ_COMMITTED)
            .forEach(r -> queued.add(r.blockId()));
      }
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    }
  }

  @Override
  protected Boolean execute(ExecutePhase tx) throws IOException {
    Checks.traverseNotCreating(pc, resolved);
    InodeRow target = resolved.target();
    if (target == null) {
      return false;
    }
    pc.check(target, PathNames.prefix(resolved.components(), resolved.depth()), FsAction.WRITE);
    // A file kept in the database has no replicas: HDFS answers false and changes nothing for the
    // files it does not replicate either (erasure-coded ones,
    // FSDirAttrOp.unprotectedSetReplication).
    if (target.isDir() || target.symlink() != null || target.fileStoredInDb()) {
      return false;
    }
    if (target.replication() != replication) {
      BlockInfoRow last = null;
      for (BlockInfoRow b : blocks) {
        if (last == null || b.blockIndex() > last.blockIndex()) {
          last = b;
        }
      }
      // HDFS FSDirAttrOp.unprotectedSetReplication: checked only when it grows.
      long bytes = FileSpace.bytes(target, last);
      long delta = bytes * (replication - target.replication());
      if (delta > 0) {
        quotas.verify(0, delta);
      }
      quotas.add(0, delta);
      quotas.flush(tx);
      MutableInode file = MutableInode.of(target);
      file.replication = replication;
      tx.update(InodeRow.TABLE, file.toRow());
      long now = clock.now();
      for (BlockInfoRow b : blocks) {
        if (queued.add(b.blockId())) {
          tx.insert(
              UnderReplicatedBlockRow.TABLE,
              new UnderReplicatedBlockRow(b.inodeId(), b.blockId(), 0, now, -1));
        }
      }
    }
    return true;
  }
}
