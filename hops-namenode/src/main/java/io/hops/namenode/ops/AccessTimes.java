package io.hops.namenode.ops;

import io.hops.dal.rows.InodeRow;
import io.hops.namenode.tx.TransactionRunner;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import org.apache.hadoop.conf.Configuration;
import org.apache.hadoop.hdfs.DFSConfigKeys;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Access times of reads, as HDFS keeps them: a file's access time moves when it is read and the
 * stored one is older than {@code dfs.namenode.accesstime.precision} (default one hour; 0 turns
 * this off). Off the read's critical path: the read only decides; one background thread writes each
 * update as its own small transaction ({@link UpdateAccessTime}), a file queued at most once at a
 * time, and a full queue drops updates (an access time is a hint, not worth slowing reads).
 */
public final class AccessTimes implements AutoCloseable {
  private static final Logger LOG = LoggerFactory.getLogger(AccessTimes.class);
  private static final int QUEUE = 10_000;

  private final TransactionRunner runner;
  private final long precision;
  private final Set<Long> queued = ConcurrentHashMap.newKeySet();
  private final ExecutorService writer;

  public AccessTimes(TransactionRunner runner, Configuration conf) {
    this.runner = runner;
    this.precision =
        conf.getLong(
            DFSConfigKeys.DFS_NAMENODE_ACCESSTIME_PRECISION_KEY,
            DFSConfigKeys.DFS_NAMENODE_ACCESSTIME_PRECISION_DEFAULT);
    this.writer =
        precision > 0
            ? new ThreadPoolExecutor(
                1,
                1,
                0,
                TimeUnit.MILLISECONDS,
                new LinkedBlockingQueue<>(QUEUE),
                r -> {
                  Thread t = new Thread(r, "access-times");
                  t.setDaemon(true);
                  return t;
                })
            : null;
  }

  /** Whether reads keep access times at all (a positive precision). */
  public boolean enabled() {
    return writer != null;
  }

  /**
   * A file was read at {@code now}: queue its new access time if the stored one is stale. Nothing
   * is written while {@code inSafeMode} says so (HDFS does not update access times then).
   */
  public void read(InodeRow file, long now, java.util.function.BooleanSupplier inSafeMode) {
    if (writer == null || now <= file.accessTime() + precision || !queued.add(file.id())) {
      return;
    }
    try {
      writer.execute(() -> write(file, now, inSafeMode));
    } catch (RejectedExecutionException e) {
      queued.remove(file.id());
    }
  }

  private void write(InodeRow file, long now, java.util.function.BooleanSupplier inSafeMode) {
    try {
      if (inSafeMode.getAsBoolean()) {
        return;
      }
      runner.run(() -> new UpdateAccessTime(file.parentId(), file.name(), file.id(), now));
    } catch (Exception e) {
      LOG.debug("access time of inode {} not updated: {}", file.id(), e.toString());
    } finally {
      queued.remove(file.id());
    }
  }

  @Override
  public void close() {
    if (writer != null) {
      writer.shutdownNow();
    }
  }
}
