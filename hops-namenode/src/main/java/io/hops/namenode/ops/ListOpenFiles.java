package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;

/**
 * {@code listOpenFiles} ({@code hdfs dfsadmin -listOpenFiles}): the files under construction, in
 * inode id order after {@code prevId}, as HDFS's lease manager pages them. {@code lease_paths}
 * (keyed by inode id) is read page by page, read committed; each file's path is rebuilt from its
 * inode upwards (a rename of a directory above an open file leaves the stored path behind), with
 * the directories met cached for the page. Files outside {@code path} are skipped but do not count
 * towards the page, as in HDFS.
 */
public final class ListOpenFiles extends Operation<BatchedListEntries<OpenFileEntry>> {
  private final String path;
  private final long prevId;
  private final int limit;
  private final List<OpenFileEntry> entries = new ArrayList<>();
  private boolean hasMore;

  public ListOpenFiles(String path, long prevId, int limit) {
    this.path = path;
    this.prevId = prevId;
    this.limit = limit;
  }

  @Override
  public String name() {
    return "listOpenFiles";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    entries.clear();
    hasMore = false;
    InodePaths paths = InodePaths.in(tx);
    var after = prevId < 0 ? null : LeasePathRow.TABLE.key(prevId);
    while (true) {
      List<LeasePathRow> page =
          tx.scanFrom(LeasePathRow.TABLE, null, after, limit + 1, LockMode.READ_COMMITTED);
      for (LeasePathRow lp : page) {
        if (entries.size() >= limit) {
          hasMore = true;
          return;
        }
        InodeRow file = paths.byId(lp.inodeId());
        if (file == null || !file.underConstruction()) {
          continue;
        }
        String full = paths.pathOf(file);
        if (full != null && InodePaths.isUnder(full, path)) {
          entries.add(new OpenFileEntry(file.id(), full, file.clientName(), file.clientMachine()));
        }
      }
      if (page.size() <= limit) {
        return;
      }
      after = LeasePathRow.TABLE.key(page.get(page.size() - 1).inodeId());
    }
  }

  @Override
  protected BatchedListEntries<OpenFileEntry> execute(ExecutePhase tx) {
    return new BatchedListEntries<>(List.copyOf(entries), hasMore);
  }
}
