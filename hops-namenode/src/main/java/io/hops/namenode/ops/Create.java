package io.hops.namenode.ops;

import io.hops.dal.IdPool;
import io.hops.dal.LockMode;
import io.hops.dal.TransientStorageException;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeaseRow;
import io.hops.election.ClusterClock;
import io.hops.namenode.blocks.LeasePathTail;
import io.hops.namenode.config.Limits;
import io.hops.namenode.leases.LeaseChanges;
import io.hops.namenode.leases.LeaseManager;
import io.hops.namenode.leases.LeaseRecovery;
import io.hops.namenode.quota.AncestorQuotas;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.InodeAcl;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.EnumSet;
import java.util.List;
import org.apache.hadoop.HadoopIllegalArgumentException;
import org.apache.hadoop.fs.CreateFlag;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.InvalidPathException;
import org.apache.hadoop.fs.permission.FsAction;
import org.apache.hadoop.fs.permission.FsPermission;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.apache.hadoop.hdfs.protocol.AlreadyBeingCreatedException;
import org.apache.hadoop.hdfs.protocol.BlockStoragePolicy;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.protocol.HdfsFileStatus;
import org.apache.hadoop.hdfs.protocol.QuotaExceededException;
import org.apache.hadoop.hdfs.protocol.SystemErasureCodingPolicies;

/**
 * {@code create}: a new file under construction, leased to its client (HDFS FSNamesystem.startFile
 * and FSDirWriteFileOp). Locks, in order: the parent and the new name exclusively (the deepest
 * existing directory instead when parents are created), then the lease rows (the caller's, and the
 * current writer's when the file exists under construction; the caller's alone is locked shared
 * when it was renewed within {@link LeaseChanges#FRESH_MILLIS}), then, when it is overwritten, the
 * old file's blocks (exclusively) and the rows that go with them, as a delete reads them. A new
 * file in an existing directory costs B + 3 PK + W.
 *
 * <p>As in HDFS: an existing file is replaced only with {@code OVERWRITE} (even one another client
 * is writing); without it, a file another client is writing is {@link AlreadyBeingCreatedException}
 * unless that client's lease is past the soft limit, in which case the file is closed (committed)
 * and the caller still gets {@link FileAlreadyExistsException}. {@code APPEND} is not special here,
 * as in HDFS's namenode: the stock client sends it only for a missing file, and appending to an
 * existing one goes through {@code append}. Encryption zones and erasure coding are not supported:
 * {@code supportedVersions} is ignored and an erasure coding policy other than {@code replication}
 * is refused.
 */
public final class Create extends Operation<HdfsFileStatus> {
  private final Limits limits;
  private final ClusterClock clock;
  private final IdPool inodeIds;
  private final FileStatuses statuses;
  private final PermissionChecker pc;
  private final LeaseManager leaseManager;
  private final String src;
  private final FsPermission masked;
  private final String clientName;
  private final String clientMachine;
  private final EnumSet<CreateFlag> flags;
  private final boolean createParent;
  private final short replication;
  private final long blockSize;
  private final String ecPolicyName;
  private final String storagePolicy;
  private long now;
  private ResolvedPath resolved;
  private InodeRow anchor;
  private LeaseChanges leases;
  private AncestorQuotas quotas = AncestorQuotas.none();
  private DeletedInodes replaced;
  private LeaseRecovery.Release takeover;
  private io.hops.namenode.blocks.SmallFileStore smallFiles;
  private byte[] inlineData;

  /** The stored ACL of the directory the next new inode goes into (its default part inherits). */
  private InodeAcl inheritedAcl;

  @SuppressWarnings("TooManyParameters") // ClientProtocol.create's own parameters
  public Create(
      Limits limits,
      ClusterClock clock,
      IdPool inodeIds,
      FileStatuses statuses,
      PermissionChecker pc,
      LeaseManager leaseManager,
      String src,
      FsPermission masked,
      String clientName,
      EnumSet<CreateFlag> flags,
      boolean createParent,
      short replication,
      long blockSize,
      String ecPolicyName,
      String storagePolicy) {
    this.limits = limits;
    this.clock = clock;
    this.inodeIds = inodeIds;
    this.statuses = statuses;
    this.pc = pc;
    this.leaseManager = leaseManager;
    this.src = src;
    this.masked = masked;
    this.clientName = clientName;
    this.clientMachine = pc.caller().clientMachine();
    this.flags = flags;
    this.createParent = createParent;
    this.replication = replication;
    this.blockSize = blockSize;
    this.ecPolicyName = ecPolicyName;
    this.storagePolicy = storagePolicy;
  }

  /**
   * Makes this a create-and-complete of a small file with its bytes in the database (hops-client's
   * extension RPC, docs/architecture.md, "Small files in the database"): the file is closed at
   * once, with no lease. Where the database policy does not apply, or the bytes do not fit, nothing
   * changes and the outcome has no status.
   */
  public Create withData(io.hops.namenode.blocks.SmallFileStore store, byte[] data) {
    this.smallFiles = store;
    this.inlineData = data;
    return this;
  }

  @Override
  public String name() {
    return inlineData == null ? "create" : "createSmallFile";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    Checks.pathLength("create", src);
    if (src.equals("/.reserved") || src.startsWith("/.reserved/")) {
      throw new InvalidPathException(
          src); // inode-id and raw paths arrive translated (VirtualPaths)
    }
    if (flags.contains(CreateFlag.SHOULD_REPLICATE)
        && ecPolicyName != null
        && !ecPolicyName.isEmpty()) {
      throw new HadoopIllegalArgumentException(
          "SHOULD_REPLICATE flag and ecPolicyName are exclusive parameters. Set both is not"
              + " allowed!");
    }
    now = clock.now();
    resolved = tx.resolve(src, LockMode.EXCLUSIVE, LockMode.EXCLUSIVE);
    anchor = resolved.lastExisting();
    int existing = resolved.inodes().size();
    if (createParent && !resolved.exists() && existing < resolved.depth() && anchor.isDir()) {
      // Parents will be created under the deepest existing directory, which resolution read
      // without a lock: lock it, and make sure the first missing name is still missing.
      anchor = Locks.relock(tx, resolved, existing - 1, LockMode.EXCLUSIVE);
      String next = resolved.components()[existing - 1];
      if (tx.find(InodeRow.TABLE, Inodes.key(anchor.id(), next), LockMode.EXCLUSIVE) != null) {
        throw new TransientStorageException("create raced with a create of " + next);
      }
    }
    InodeRow target = resolved.target();
    boolean oldFile = target != null && !target.isDir();
    // Only the caller's lease: shared if it was just renewed, so one client's creates run together.
    leases =
        LeaseChanges.lockToAdd(
            tx,
            clientName,
            oldFile && target.underConstruction() ? target.clientName() : null,
            now);
    if (oldFile && flags.contains(CreateFlag.OVERWRITE)) {
      replaced = DeletedInodes.readWithoutLeases(tx, List.of(target));
      quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
    } else if (oldFile && target.underConstruction() && !clientName.equals(target.clientName())) {
      LeaseRow writer = leases.read(target.clientName());
      if (writer != null && leaseManager.expiredSoftLimit(writer, now)) {
        takeover = leaseManager.recovery().prepare(tx, target);
        quotas = AncestorQuotas.lock(tx, resolved, resolved.depth());
        takeover.countIn(quotas);
      }
    } else if (target == null && anchor.isDir()) {
      quotas = AncestorQuotas.lock(tx, resolved, existing);
    }
  }

  @Override
  protected HdfsFileStatus execute(ExecutePhase tx) throws IOException {
    String[] names = resolved.components();
    int depth = resolved.depth();
    String path = PathNames.prefix(names, depth);
    boolean overwrite = flags.contains(CreateFlag.OVERWRITE);
    if (inlineData != null && !smallFileApplies()) {
      return null; // the client writes to datanodes instead
    }
    pc.checkTraverse(resolved);
    InodeRow target = resolved.target();
    int existing = resolved.inodes().size();
    // WRITE on the deepest existing ancestor, before anything else is looked at (HDFS order).
    if (target == null) {
      pc.check(anchor, names, existing - 1, FsAction.WRITE);
    } else if (depth > 0) {
      pc.check(resolved.inodes().get(depth - 1), names, depth - 1, FsAction.WRITE);
    }
    if (target != null) {
      if (target.isDir()) {
        throw new FileAlreadyExistsException(path + " already exists as a directory");
      }
      if (overwrite) {
        pc.check(target, path, FsAction.WRITE);
      }
    } else {
      if (!createParent && existing < depth) {
        throw new FileNotFoundException(
            "Parent directory doesn't exist: " + PathNames.prefix(names, depth - 1));
      }
      if (!flags.contains(CreateFlag.CREATE)) {
        throw new FileNotFoundException("Can't overwrite non-existent " + src);
      }
    }
    checkBlockSize();
    if (!flags.contains(CreateFlag.SHOULD_REPLICATE)) {
      checkErasureCoding();
    }
    // HDFS's message names the client machine after "clientName=" (BlockManager.verifyReplication).
    Checks.replication(limits, replication, src + ", clientName=" + clientMachine);

    inheritedAcl = DefaultAcl.of(target != null ? resolved.inodes().get(depth - 1) : anchor);
    MutableInode parent;
    int firstMissing;
    if (target != null) {
      if (!overwrite) {
        return refuseExisting(tx, target, path);
      }
      parent = MutableInode.of(resolved.inodes().get(depth - 1));
      replace(tx, target, parent);
      firstMissing = depth;
    } else {
      parent = MutableInode.of(anchor);
      firstMissing = existing;
    }
    FsPermission ancestors = implicitUwx(new FsPermission(anchor.permission()));
    long dataSpace = inlineData == null ? 0 : (long) inlineData.length * replication;
    if (dataSpace > 0) {
      try {
        quotas.verify(0, dataSpace);
      } catch (QuotaExceededException e) {
        // Declined before anything is written: the client's pipeline then meets the quota as HDFS
        // does, at its first addBlock.
        return null;
      }
    }
    for (int i = firstMissing; i <= depth; i++) {
      try {
        Checks.componentLength(limits, names, i);
        Checks.directoryItems(limits, parent, names, i - 1);
        quotas.verify(1, 0);
      } catch (QuotaExceededException e) {
        if (i == firstMissing) {
          throw e;
        }
        // HDFS made the parents before this one, one at a time: they stay.
        quotas.flush(tx);
        tx.failAfterCommit(e);
        return null;
      }
      quotas.add(1, 0);
      if (i < depth) {
        parent = addDirectory(tx, parent, names, i, ancestors);
      }
    }
    // A file in the database counts its bytes times its replication, as the same file complete on
    // datanodes does (FileSpace).
    quotas.add(0, dataSpace);
    quotas.flush(tx);
    MutableInode file = addFile(tx, parent, names);
    if (inlineData != null) {
      smallFiles.write(tx, file.id, inlineData);
    } else {
      leases.addFile(
          tx, clientName, file.id, path, now, LeasePathTail.NO_BLOCK, LeasePathTail.NO_BLOCK);
    }
    leases.flush(tx);
    return statuses.status(file.toRow(), HdfsFileStatus.EMPTY_NAME);
  }

  /** Whether the new file's directory keeps small files in the database, and the bytes fit. */
  private boolean smallFileApplies() {
    int ancestors = Math.min(resolved.inodes().size(), resolved.depth());
    return inlineData.length <= smallFiles.maxSize()
        && resolved.inodes().subList(0, ancestors).stream().allMatch(InodeRow::isDir)
        && smallFiles.appliesUnder(resolved.inodes().subList(0, ancestors));
  }

  /**
   * An existing file without OVERWRITE: refused, after taking over an abandoned file (HDFS
   * FSNamesystem.recoverLeaseInternal for CREATE_FILE).
   */
  private HdfsFileStatus refuseExisting(ExecutePhase tx, InodeRow target, String path)
      throws IOException {
    FileAlreadyExistsException exists =
        new FileAlreadyExistsException(path + " for client " + clientMachine + " already exists");
    if (!target.underConstruction()) {
      throw exists;
    }
    IOException refused =
        takeover().takeOver(tx, MutableInode.of(target), path, leases, null, takeover, now);
    if (refused != null) {
      tx.failAfterCommit(refused); // the block recovery just started must commit
      return null;
    }
    leases.flush(tx);
    tx.failAfterCommit(exists);
    return null;
  }

  private LeaseTakeover takeover() {
    return new LeaseTakeover("CREATE_FILE", clientName, clientMachine);
  }

  /**
   * OVERWRITE: the old file goes, with its lease path if it was being written, and its blocks,
   * whose replicas become invalidations (as a delete: {@link DeletedInodes}).
   */
  private void replace(ExecutePhase tx, InodeRow old, MutableInode parent) throws IOException {
    tx.delete(InodeRow.TABLE, old);
    replaced.delete(tx);
    long[] freed = replaced.freed(List.of(old));
    quotas.add(-freed[0], -freed[1]);
    replaced.charge(tx, old.id(), KeptUsageDirs.of(resolved, resolved.depth()), List.of(old));
    if (old.underConstruction()) {
      leases.removeFile(tx, old.clientName(), old.id());
    }
    parent.childrenCount--;
    parent.modificationTime = now;
  }

  private MutableInode addDirectory(
      ExecutePhase tx, MutableInode parent, String[] names, int i, FsPermission permission)
      throws IOException {
    String name = names[i - 1];
    Checks.componentLength(limits, names, i);
    Checks.directoryItems(limits, parent, names, i - 1);
    MutableInode dir = new MutableInode();
    dir.parentId = parent.id;
    dir.name = name;
    dir.id = inodeIds.next();
    dir.isDir = true;
    dir.userId = pc.ownerId();
    dir.groupId = parent.groupId;
    dir.modificationTime = now;
    dir.accessTime = 0; // as in HDFS: a directory's access time moves only by setTimes
    inheritedAcl = DefaultAcl.apply(tx, inheritedAcl, dir, permission);
    link(tx, parent, dir);
    return dir;
  }

  private MutableInode addFile(ExecutePhase tx, MutableInode parent, String[] names)
      throws IOException {
    byte policy = HdfsConstants.BLOCK_STORAGE_POLICY_ID_UNSPECIFIED;
    if (storagePolicy != null && !storagePolicy.isEmpty()) {
      BlockStoragePolicy p = io.hops.namenode.blocks.StoragePolicies.byName(storagePolicy);
      if (p == null) {
        throw new HadoopIllegalArgumentException(
            "Cannot find a block policy with the name " + storagePolicy);
      }
      policy = p.getId();
    }
    int depth = names.length;
    String name = names[depth - 1];
    Checks.componentLength(limits, names, depth);
    Checks.directoryItems(limits, parent, names, depth - 1);
    MutableInode file = new MutableInode();
    file.parentId = parent.id;
    file.name = name;
    file.id = inodeIds.next();
    DefaultAcl.apply(tx, inheritedAcl, file, masked);
    file.userId = pc.ownerId();
    file.groupId = parent.groupId;
    file.modificationTime = now;
    file.accessTime = now;
    file.replication = replication;
    file.preferredBlockSize = blockSize;
    file.storagePolicy = policy;
    if (inlineData != null) {
      file.size = inlineData.length;
      file.fileStoredInDb = true;
    } else {
      file.underConstruction = true;
      file.clientName = clientName;
      file.clientMachine = clientMachine;
    }
    link(tx, parent, file);
    return file;
  }

  /** Adds {@code child} under {@code parent}: count and modification time of the parent. */
  private void link(ExecutePhase tx, MutableInode parent, MutableInode child) throws IOException {
    parent.childrenCount++;
    parent.modificationTime = now;
    // For a directory made in this operation, the update folds into its buffered insert.
    tx.update(InodeRow.TABLE, parent.toRow());
    tx.insert(InodeRow.TABLE, child.toRow());
    tx.hintAdded(child.parentId, child.name, child.id);
  }

  /**
   * Directories a create makes on the way get the permission of the deepest existing one plus u+wx,
   * so the creator can go on through them (HDFS FSDirMkdirOp.addImplicitUwx).
   */
  private static FsPermission implicitUwx(FsPermission p) {
    return new FsPermission(
        p.getUserAction().or(FsAction.WRITE_EXECUTE), p.getGroupAction(), p.getOtherAction());
  }

  private void checkBlockSize() throws IOException {
    long min = limits.minBlockSize();
    if (blockSize < min) {
      throw new IOException(
          "Specified block size "
              + blockSize
              + " is less than configured minimum value "
              + DFSConfigKeys.DFS_NAMENODE_MIN_BLOCK_SIZE_KEY
              + "="
              + min);
    }
    // HDFS keeps the preferred block size in 48 bits of the inode header and refuses more as the
    // inode is made (LongBitFormat, with its spelling).
    long max = (1L << 48) - 1;
    if (blockSize > max) {
      throw new IllegalArgumentException(
          "Illagal value: PREFERRED_BLOCK_SIZE = " + blockSize + " > MAX = " + max);
    }
  }

  /** hops stores replicated files only: no erasure coding policy is enabled but replication. */
  private void checkErasureCoding() {
    if (ecPolicyName == null
        || ecPolicyName.isEmpty()
        || ecPolicyName.equals(SystemErasureCodingPolicies.getReplicationPolicy().getName())) {
      return;
    }
    throw new HadoopIllegalArgumentException(
        String.format(
            "Policy '%s' does not match any enabled erasure coding policies: [%s]. An erasure"
                + " coding policy can be enabled by enableErasureCodingPolicy API. (hops does not"
                + " support erasure coding.)",
            ecPolicyName, SystemErasureCodingPolicies.getReplicationPolicy().getName()));
  }
}
