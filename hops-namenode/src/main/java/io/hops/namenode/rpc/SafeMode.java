package io.hops.namenode.rpc;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.VariableRow;
import java.util.function.Supplier;
import org.apache.hadoop.hdfs.server.namenode.SafeModeException;
import org.apache.hadoop.util.Time;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Manual safe mode, shared by every namenode: the flag is the {@code safe_mode} row of {@code
 * variables}. hops has no startup safe mode (replica locations are persisted, so there is nothing
 * to wait for): a namenode starts in whatever mode the cluster is in, and leaving is immediate.
 *
 * <p>{@code dfsadmin -safemode get} reads the row; entering or leaving writes it, and the namenode
 * that did it applies it at once. Write operations check a copy of the flag that is re-read at most
 * every {@value #REFRESH_MILLIS} ms (outside the operation's transaction, so operations cost no
 * more), so the other namenodes follow within that time.
 */
public final class SafeMode {
  private static final Logger LOG = LoggerFactory.getLogger(SafeMode.class);
  static final String ROW = "safe_mode";

  /** How stale a namenode's copy of the flag may be when a write operation checks it. */
  public static final long REFRESH_MILLIS = 1000;

  private final Storage storage;
  private final String hostName;
  private volatile boolean on;
  private volatile long readAt = Long.MIN_VALUE;

  public SafeMode(Storage storage, String hostName) {
    this.storage = storage;
    this.hostName = hostName;
  }

  /** The cluster's mode as stored now. */
  public boolean get() throws StorageException {
    try (Transaction tx = storage.begin()) {
      VariableRow row =
          tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.READ_COMMITTED);
      remember(row != null && row.longValue() != 0);
      return on;
    }
  }

  /** Enters ({@code true}) or leaves safe mode for every namenode; returns the new mode. */
  public boolean set(boolean enter) throws StorageException {
    for (int attempt = 0; ; attempt++) {
      try (Transaction tx = storage.begin()) {
        VariableRow old =
            tx.find(VariableRow.TABLE, VariableRow.TABLE.key(ROW), LockMode.EXCLUSIVE);
        VariableRow row = new VariableRow(ROW, enter ? 1 : 0, null);
        if (old == null) {
          tx.insert(VariableRow.TABLE, row);
        } else {
          tx.update(VariableRow.TABLE, row);
        }
        tx.commit();
        break;
      } catch (DuplicateKeyException e) {
        if (attempt > 0) {
          throw e; // two namenodes raced to create the row once; the second attempt updates it
        }
      }
    }
    remember(enter);
    LOG.info(enter ? "safe mode is ON (entered manually)" : "safe mode is OFF");
    return enter;
  }

  /** Whether write operations are refused now, from a copy at most {@link #REFRESH_MILLIS} old. */
  public boolean isOn() throws StorageException {
    if (Time.monotonicNow() - readAt > REFRESH_MILLIS) {
      return get();
    }
    return on;
  }

  /** Refuses a write operation in safe mode, as HDFS's FSNamesystem.checkNameNodeSafeMode. */
  public void check(String errorMsg) throws SafeModeException, StorageException {
    check(() -> errorMsg);
  }

  /** As {@link #check(String)}, making the message only when it is needed. */
  public void check(Supplier<String> errorMsg) throws SafeModeException, StorageException {
    if (isOn()) {
      throw new SafeModeException(
          errorMsg.get()
              + ". Name node is in safe mode.\n"
              + "It was turned on manually. Use \"hdfs dfsadmin -safemode leave\" to turn safe"
              + " mode off. NamenodeHostName:"
              + hostName);
    }
  }

  private void remember(boolean value) {
    on = value;
    readAt = Time.monotonicNow();
  }
}
