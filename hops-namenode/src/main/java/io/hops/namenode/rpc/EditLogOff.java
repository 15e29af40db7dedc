package io.hops.namenode.rpc;

import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import org.apache.hadoop.hdfs.inotify.EventBatchList;
import org.apache.hadoop.hdfs.server.namenode.UnsupportedActionException;

/**
 * The edit log, the fsimage and upgrades: the database is the namespace, so there is nothing to
 * roll, save, finalize or tail ({@link FeaturesOff}).
 */
final class EditLogOff extends AbsentFeature {

  /** Whether the cluster is in safe mode, asked only once the caller has passed the checks. */
  interface InSafeMode {
    boolean get() throws IOException;
  }

  EditLogOff(TransactionRunner runner, PermissionCheckers checkers) {
    super(runner, checkers);
  }

  private static UnsupportedActionException noEditLog(String operation) {
    return new UnsupportedActionException(
        operation
            + " not supported: hops has no edit log, every change is committed to the metadata"
            + " database");
  }

  long rollEdits() throws IOException {
    superuser("rollEditLog");
    throw noEditLog("rollEdits");
  }

  long getCurrentEditLogTxid() throws IOException {
    superuser("getCurrentEditLogTxid");
    throw noEditLog("getCurrentEditLogTxid (inotify)");
  }

  EventBatchList getEditsFromTxid() throws IOException {
    superuser("getEditsFromTxid");
    throw noEditLog("getEditsFromTxid (inotify)");
  }

  /** HDFS's refusal outside safe mode; in it, no image is written ("no extra checkpoint"). */
  boolean saveNamespace(InSafeMode inSafeMode) throws IOException {
    superuser("saveNamespace");
    if (!inSafeMode.get()) {
      throw new IOException("Safe mode should be turned ON in order to create namespace image.");
    }
    return false;
  }

  /** Schema upgrades finish as a namenode starts: nothing is ever left to finalize. */
  void finalizeUpgrade() throws IOException {
    superuser("finalizeUpgrade");
  }

  /** hops has no name directories to restore: the answer is always false. */
  boolean restoreFailedStorage(String arg) throws IOException {
    superuser(
        switch (arg) {
          case "check" -> "checkRestoreFailedStorage";
          case "true" -> "enableRestoreFailedStorage";
          default -> "disableRestoreFailedStorage";
        });
    return false;
  }
}
