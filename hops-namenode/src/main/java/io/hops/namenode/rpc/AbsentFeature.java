package io.hops.namenode.rpc;

import io.hops.namenode.ops.CheckPath;
import io.hops.namenode.security.PermissionCheckers;
import io.hops.namenode.tx.TransactionRunner;
import java.io.IOException;
import java.util.List;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedEntries;
import org.apache.hadoop.fs.BatchedRemoteIterator.BatchedListEntries;
import org.apache.hadoop.fs.permission.FsAction;

/**
 * What the answers of a feature hops does not have share ({@link FeaturesOff}): the path is still
 * resolved and checked first, so a missing path or a denied access is reported as HDFS reports it;
 * an operator's call is refused to others as HDFS refuses it; a listing is empty.
 */
abstract class AbsentFeature {
  private final TransactionRunner runner;
  private final PermissionCheckers checkers;

  protected AbsentFeature(TransactionRunner runner, PermissionCheckers checkers) {
    this.runner = runner;
    this.checkers = checkers;
  }

  protected <T> T checkPath(String name, String path, FsAction access, CheckPath.Answer<T> answer)
      throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new CheckPath<>(pc, name, path, access, false, answer));
  }

  protected <T> T checkOwner(String name, String path, CheckPath.Answer<T> answer)
      throws IOException {
    var pc = checkers.ofCaller();
    return runner.run(() -> new CheckPath<>(pc, name, path, FsAction.NONE, true, answer));
  }

  protected void superuser(String operation) throws IOException {
    NamenodeRpc.checkSuperuser(checkers, operation);
  }

  protected static <E> BatchedEntries<E> none() {
    return new BatchedListEntries<>(List.of(), false);
  }
}
