package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.OnGoingSubtreeOpRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.dal.rows.SnapshotKeptUsageRow;
import io.hops.namenode.resolve.Inodes;
import io.hops.namenode.resolve.MutableInode;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.PathResolver;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.PathIsNotDirectoryException;
import org.apache.hadoop.hdfs.protocol.HdfsConstants;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;

/**
 * {@code setQuota} (dfsadmin -setQuota, -clrQuota, -setSpaceQuota, -clrSpaceQuota; HDFS
 * FSDirAttrOp.unprotectedSetQuota): the directory locked exclusively, its quota row read locked. A
 * directory that gets its first quota has its usage counted now: its subtree is read with shared
 * locks, so writers below wait for the commit; a subtree over the bound is counted under a subtree
 * mark by {@link io.hops.namenode.subtree.SubtreeOperations}, which passes the usage in ({@link
 * #withUsage}); what snapshots keep below it counts too, as HDFS's {@code computeQuotaUsage} counts
 * it: the {@code snapshot_kept_usage} rows naming the directory ({@link KeptUsageDirs}), one index
 * read, among them a subtree detached below a snapshot until its reclaim, and directories renamed
 * away from a snapshot's entry, whose charge a rename with no quota on either path left uncounted
 * and which are counted now, as HDFS's {@code WithName} reference counts them ({@link
 * UncountedCharges}: a read of each such directory as it was). Clearing both quotas removes the row
 * (the usage rows stay: a quota set again counts them). Quotas by storage type are refused as HDFS
 * refuses them with {@code dfs.quota.by.storage.type.enabled=false}: hops has one storage type.
 */
public final class SetQuota extends Operation<Void> {
  private final PermissionChecker pc;
  private final String src;
  private long nsQuota;
  private long dsQuota;
  private final int bound;
  private long ownMark = PathResolver.NO_MARK;
  private long ownMarkOwner;
  private long[] givenUsage;
  private ResolvedPath resolved;
  private QuotaRow quota;
  private List<SnapshotKeptUsageRow> keptUsage = List.of();
  private UncountedCharges uncounted = UncountedCharges.NONE;
  private SubtreeScan subtree;
  private long[] counted;

  public SetQuota(PermissionChecker pc, String src, long nsQuota, long dsQuota, int bound) {
    this.pc = pc;
    this.src = src;
    this.nsQuota = nsQuota;
    this.dsQuota = dsQuota;
    this.bound = bound;
  }

  /** Checks HDFS's arguments, before any transaction. */
  public static void checkArguments(long ns, long ds, org.apache.hadoop.fs.StorageType type)
      throws IOException {
    if ((ns < 0 && ns != HdfsConstants.QUOTA_DONT_SET && ns != HdfsConstants.QUOTA_RESET)
        || (ds < 0 && ds != HdfsConstants.QUOTA_DONT_SET && ds != HdfsConstants.QUOTA_RESET)) {
      throw new IllegalArgumentException(
          "Illegal value for nsQuota or ssQuota : " + ns + " and " + ds);
    }
    if (type != null) {
      throw new UnsupportedActionException(
          "Failed to set quota by storage type because either"
              + "dfs.quota.by.storage.type.enabled is set to false or nsQuota value is illegal "
              + ns);
    }
  }

  /** The operation's name in HDFS's audit log and superuser check (FSNamesystem). */
  public static String command(long ns, long ds) {
    if (ns == HdfsConstants.QUOTA_RESET && ds == HdfsConstants.QUOTA_DONT_SET) {
      return "clearQuota";
    } else if (ns == HdfsConstants.QUOTA_DONT_SET && ds == HdfsConstants.QUOTA_RESET) {
      return "clearSpaceQuota";
    } else if (ds == HdfsConstants.QUOTA_DONT_SET) {
      return "setQuota";
    }
    return "setSpaceQuota";
  }

  /** Runs under the caller's subtree mark on the directory, with its usage counted under it. */
  public SetQuota withUsage(long rootId, long owner, long ns, long ds) {
    this.ownMark = rootId;
    this.ownMarkOwner = owner;
    this.givenUsage = new long[] {ns, ds};
    return this;
  }

  @Override
  public String name() {
    return "setQuota";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    tx.passOwnSubtreeMark(ownMark, ownMarkOwner);
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.EXCLUSIVE);
    InodeRow target = resolved.target();
    if (target == null || !target.isDir() || target.id() == Inodes.ROOT_ID) {
      return;
    }
    if (target.hasQuota()) {
      quota = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(target.id()), LockMode.EXCLUSIVE);
    } else if (!clearsOnly()) {
      if (givenUsage == null) {
        subtree = SubtreeScan.read(tx, target, path(), LockMode.SHARED, bound);
        if (!subtree.exceeded()) {
          counted = OpenFilesSpace.usage(tx, subtree.rows());
        }
      }
      // HDFS's computeQuotaUsage counts what the snapshots keep below it: the charges naming it
      // (KeptUsageDirs), locked so that a release waits for the quota row that takes them off.
      keptUsage =
          tx.findByIndex(SnapshotKeptUsageRow.TABLE, "quota_id", target.id(), LockMode.EXCLUSIVE);
      // A directory renamed away from a snapshot's entry below it with no quota on either path
      // left its charge uncounted: HDFS's computeQuotaUsage counts its WithName reference, so it is
      // counted now (setQuota may walk), once, into every row of the charge.
      uncounted = UncountedCharges.count(tx, keptUsage, Long.MAX_VALUE);
    }
  }

  /**
   * The usage the snapshots keep below the directory, by the charges naming it: what deletes,
   * truncates and renames left for the snapshots, and subtrees detached below one until their
   * reclaim.
   */
  private long[] keptBelow() {
    long[] sum = new long[2];
    for (SnapshotKeptUsageRow c : keptUsage) {
      SnapshotKeptUsageRow u = uncounted.filled(c);
      if (!u.uncounted()) {
        sum[0] += u.ns();
        sum[1] += u.ds();
      }
    }
    return sum;
  }

  private boolean clearsOnly() {
    return (nsQuota == HdfsConstants.QUOTA_RESET || nsQuota == HdfsConstants.QUOTA_DONT_SET)
        && (dsQuota == HdfsConstants.QUOTA_RESET || dsQuota == HdfsConstants.QUOTA_DONT_SET);
  }

  private String path() {
    return PathNames.prefix(resolved.components(), resolved.depth());
  }

  @Override
  protected Void execute(ExecutePhase tx) throws IOException {
    pc.checkTraverse(resolved);
    InodeRow target = resolved.target();
    if (target == null) {
      throw new FileNotFoundException("Directory does not exist: " + path());
    }
    if (!target.isDir()) {
      throw new PathIsNotDirectoryException(path());
    }
    if (target.id() == Inodes.ROOT_ID) {
      checkRootQuotaKept();
      return null;
    }
    long oldNs = quota == null ? HdfsConstants.QUOTA_RESET : quota.nsQuota();
    long oldDs = quota == null ? HdfsConstants.QUOTA_RESET : quota.dsQuota();
    if (nsQuota == HdfsConstants.QUOTA_DONT_SET) {
      nsQuota = oldNs;
    }
    if (dsQuota == HdfsConstants.QUOTA_DONT_SET) {
      dsQuota = oldDs;
    }
    boolean set = nsQuota >= 0 || dsQuota >= 0;
    MutableInode dir = MutableInode.of(target);
    if (ownMark == target.id()) {
      dir.subtreeLocked = false;
      dir.subtreeLockOwner = 0;
      tx.delete(OnGoingSubtreeOpRow.TABLE, OnGoingSubtreeOpRow.TABLE.key(0, ownMark));
    }
    if (quota != null) {
      if (!set) {
        tx.delete(QuotaRow.TABLE, quota);
        dir.hasQuota = false;
        // The charges naming it stay: they say what snapshots keep below it, which a quota set
        // again counts, as HDFS's computeQuotaUsage does.
      } else if (quota.nsQuota() != nsQuota || quota.dsQuota() != dsQuota) {
        tx.update(
            QuotaRow.TABLE,
            new QuotaRow(target.id(), nsQuota, dsQuota, quota.nsCount(), quota.dsCount()));
      }
    } else if (set) {
      long[] usage = givenUsage != null ? givenUsage : usage(target);
      long[] kept = keptBelow();
      tx.insert(
          QuotaRow.TABLE,
          new QuotaRow(target.id(), nsQuota, dsQuota, usage[0] + kept[0], usage[1] + kept[1]));
      uncounted.write(tx, java.util.Set.of());
      dir.hasQuota = true;
    }
    InodeRow after = dir.toRow();
    if (!after.equals(target)) {
      tx.update(InodeRow.TABLE, after);
    }
    return null;
  }

  /**
   * HDFS's root has a namespace quota of {@code Long.MAX_VALUE} (= {@code QUOTA_DONT_SET}), which
   * resetting it keeps, and no storage space quota (FSDirAttrOp.unprotectedSetQuota): a call that
   * leaves both so changes nothing there, and is accepted. hops keeps no quota on the root, so any
   * other value is refused.
   */
  private void checkRootQuotaKept() throws UnsupportedActionException {
    boolean nsKept =
        nsQuota == HdfsConstants.QUOTA_RESET || nsQuota == HdfsConstants.QUOTA_DONT_SET;
    boolean dsKept =
        dsQuota == HdfsConstants.QUOTA_RESET || dsQuota == HdfsConstants.QUOTA_DONT_SET;
    if (!nsKept || !dsKept) {
      throw new UnsupportedActionException(
          "hops keeps no quota on the root directory: set quotas on its subdirectories");
    }
  }

  private long[] usage(InodeRow target) throws IOException {
    if (subtree.exceeded()) {
      throw new SubtreeTooBigException("setQuota", path(), target, null);
    }
    return counted;
  }
}
