package io.hops.namenode.ops;

import io.hops.dal.LockMode;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.LeasePathRow;
import io.hops.dal.schema.Key;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.hdfs.protocol.OpenFileEntry;

/**
 * {@code listOpenFiles} ({@code hdfs dfsadmin -listOpenFiles}): the files under construction, in
 * inode id order after {@code prevId}, as HDFS's lease manager pages them. {@code lease_paths} is
 * keyed by holder, so the ids after {@code prevId} are gathered from a read-committed scan of the
 * whole table (a page of {@link #SCAN_ROWS} rows at a time) and sorted; each file's path is then
 * rebuilt from its inode upwards (a rename of a directory above an open file leaves the stored path
 * behind), with the directories met cached for the call. Files outside {@code path} are skipped but
 * do not count towards the page, as in HDFS. An operator's command: each page reads every open
 * file's row, as a filtered listing did when the table was in id order.
 */
public final class ListOpenFiles extends Operation<BatchedListEntries<OpenFileEntry>> {
  /** The rows of {@code lease_paths} each read of the scan takes. */
  static final int SCAN_ROWS = 1_000;

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
    long[] ids = idsAfter(tx, prevId);
    InodePaths paths = InodePaths.in(tx);
    for (int i = 0; i < ids.length; i++) {
      if (entries.size() >= limit) {
        hasMore = true;
        return;
      }
      InodeRow file = paths.byId(ids[i]);
      if (file == null || !file.underConstruction()) {
        continue;
      }
      String full = paths.pathOf(file);
      if (full != null && InodePaths.isUnder(full, path)) {
        entries.add(new OpenFileEntry(file.id(), full, file.clientName(), file.clientMachine()));
      }
    }
  }

  /** The ids of the files with a lease path whose id is above {@code after}, ascending. */
  private static long[] idsAfter(LockPhase tx, long after) throws IOException {
    LongStream.Builder ids = LongStream.builder();
    Key cursor = null;
    while (true) {
      List<LeasePathRow> page =
          tx.scanFrom(LeasePathRow.TABLE, null, cursor, SCAN_ROWS, LockMode.READ_COMMITTED);
      for (LeasePathRow lp : page) {
        if (lp.inodeId() > after) {
          ids.add(lp.inodeId());
        }
      }
      if (page.size() < SCAN_ROWS) {
        break;
      }
      cursor = LeasePathRow.TABLE.keyOf(page.get(page.size() - 1));
    }
    return ids.build().sorted().toArray();
  }

  @Override
  protected BatchedListEntries<OpenFileEntry> execute(ExecutePhase tx) {
    return new BatchedListEntries<>(List.copyOf(entries), hasMore);
  }
}
