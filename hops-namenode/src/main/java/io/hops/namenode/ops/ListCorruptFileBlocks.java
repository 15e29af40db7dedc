package io.hops.namenode.ops;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.resolve.InodePaths;
import io.hops.namenode.tx.ExecutePhase;
import io.hops.namenode.tx.LockPhase;
import io.hops.namenode.tx.Operation;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import org.apache.hadoop.hdfs.protocol.CorruptFileBlocks;

/**
 * {@code listCorruptFileBlocks}: the files of the blocks with no live replica (found by {@link
 * GetStats#missingBlocks}), one entry per block, under {@code path}, a page at a time. The cookie
 * is HDFS's: the number of blocks passed so far, whether listed or not.
 */
public final class ListCorruptFileBlocks extends Operation<CorruptFileBlocks> {
  private final List<List<Long>> missing;
  private final String path;
  private final String cookie;
  private final int limit;
  private final List<String> files = new ArrayList<>();
  private int passed;

  public ListCorruptFileBlocks(List<List<Long>> missing, String path, String cookie, int limit) {
    this.missing = missing;
    this.path = path;
    this.cookie = cookie;
    this.limit = limit;
  }

  /** HDFS's getIntCookie: a bad or missing cookie starts from the beginning. */
  static int intCookie(String cookie) {
    if (cookie == null) {
      return 0;
    }
    try {
      return Math.max(0, Integer.parseInt(cookie));
    } catch (NumberFormatException e) {
      return 0;
    }
  }

  @Override
  public String name() {
    return "listCorruptFileBlocks";
  }

  @Override
  protected void lock(LockPhase tx) throws IOException {
    files.clear();
    passed = intCookie(cookie);
    InodePaths paths = tx.inodePaths();
    for (int i = passed; i < missing.size(); i++) {
      passed++;
      InodeRow file = paths.byId(missing.get(i).get(0));
      String full = file == null ? null : paths.pathOf(file);
      if (full != null && InodePaths.isUnder(full, path)) {
        files.add(full);
        if (files.size() >= limit) {
          break;
        }
      }
    }
  }

  @Override
  protected CorruptFileBlocks execute(ExecutePhase tx) {
    return new CorruptFileBlocks(files.toArray(new String[0]), String.valueOf(passed));
  }
}
