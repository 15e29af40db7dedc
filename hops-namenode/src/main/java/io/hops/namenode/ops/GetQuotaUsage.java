package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.QuotaRow;
import io.hops.namenode.resolve.PathNames;
import io.hops.namenode.resolve.ResolvedPath;
import io.hops.namenode.security.PermissionChecker;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.FileNotFoundException;
import java.io.IOException;
import org.apache.hadoop.fs.QuotaUsage;

/**
 * {@code getQuotaUsage} of a directory with a quota: its quota row, read as stat reads (B +
 * PK(shared) + PK). Returns null for anything else, where HDFS falls back to the content summary
 * (FSDirStatAndListingOp.getQuotaUsage), which the caller then computes.
 */
public final class GetQuotaUsage extends Operation<QuotaUsage> {
  private final PermissionChecker pc;
  private final String src;
  private ResolvedPath resolved;
  private QuotaRow quota;

  public GetQuotaUsage(PermissionChecker pc, String src) {
    this.pc = pc;
    this.src = src;
  }

  @Override
  public String name() {
    return "getQuotaUsage";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    resolved = tx.resolve(src, LockMode.READ_COMMITTED, LockMode.SHARED);
    InodeRow t = resolved.target();
    if (t != null && t.isDir() && t.hasQuota()) {
      quota = tx.find(QuotaRow.TABLE, QuotaRow.TABLE.key(t.id()), LockMode.READ_COMMITTED);
    }
  }

  @Override
  protected QuotaUsage execute(ExecutePhase tx) throws IOException {
    pc.checkTraverse(resolved);
    if (resolved.target() == null) {
      throw new FileNotFoundException(
          "File/Directory does not exist: "
              + PathNames.prefix(resolved.components(), resolved.depth()));
    }
    return quota == null ? null : usage(quota);
  }

  /** The usage HDFS reports for a directory with this quota row. */
  public static QuotaUsage usage(QuotaRow q) {
    return new QuotaUsage.Builder()
        .fileAndDirectoryCount(q.nsCount())
        .quota(q.nsQuota())
        .spaceConsumed(q.dsCount())
        .spaceQuota(q.dsQuota())
        .build();
  }
}
