package io.hops.namenode.tx;

import io.hops.dal.StorageException;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.schema.Key;
import io.hops.dal.schema.Table;
import io.hops.namenode.resolve.InodeHintCache;
import java.util.ArrayList;
import java.util.List;

/**
 * What an operation may do in its execute phase: buffer writes (they reach the database only at
 * commit) and say how the hint cache changes once the commit succeeds. There is no way to read.
 */
public final class ExecutePhase {
  private final Transaction tx;
  private final InodeHintCache hints;
  private final List<Runnable> afterCommit = new ArrayList<>();
  private java.io.IOException failure;
  private final CopyOnWrite versions;

  ExecutePhase(Transaction tx, InodeHintCache hints, CopyOnWrite versions) {
    this.tx = tx;
    this.hints = hints;
    this.versions = versions;
  }

  public <R extends Record> void insert(Table<R> table, R row) throws StorageException {
    copyOnWrite(table, row);
    tx.insert(table, row);
  }

  /** See {@link io.hops.dal.Transaction#insertIfAbsent}. */
  public <R extends Record> void insertIfAbsent(Table<R> table, R row) throws StorageException {
    copyOnWrite(table, row);
    tx.insertIfAbsent(table, row);
  }

  public <R extends Record> void update(Table<R> table, R row) throws StorageException {
    copyOnWrite(table, row);
    tx.update(table, row);
  }

  public <R extends Record> void delete(Table<R> table, R row) throws StorageException {
    copyOnWrite(table, row);
    tx.delete(table, row);
  }

  /**
   * Records {@code row}'s entry in the latest snapshot covering it as a change would, without
   * writing the row: HDFS's setOwner and setPermission record the inode's state in the snapshot's
   * diff even when they change nothing (INode.recordModification), and a directory's diff report
   * then compares its state with the states after the later end (docs/architecture.md, "Snapshots",
   * diff reports).
   */
  public void recordModification(InodeRow row) throws StorageException {
    versions.beforeWrite(tx, row);
  }

  /** An inode entry's first change after the snapshot covering it keeps its old version. */
  private void copyOnWrite(Table<?> table, Record row) throws StorageException {
    if (table == InodeRow.TABLE) {
      versions.beforeWrite(tx, (InodeRow) row);
    }
  }

  public void delete(Table<?> table, Key key) throws StorageException {
    tx.delete(table, key);
  }

  /** See {@link io.hops.dal.Transaction#deleteRange}. */
  public void deleteRange(Table<?> table, Key first, Key last) throws StorageException {
    tx.deleteRange(table, first, last);
  }

  /** Records that {@code name} under {@code parentId} now has id {@code id} (after commit). */
  public void hintAdded(long parentId, String name, long id) {
    afterCommit.add(() -> hints.put(parentId, name, id));
  }

  /** Records that {@code name} under {@code parentId} is gone (after commit). */
  public void hintRemoved(long parentId, String name) {
    afterCommit.add(() -> hints.remove(parentId, name));
  }

  /**
   * Runs {@code action} once the transaction has committed (e.g. a command for a datanode about
   * what the transaction wrote); never if it rolls back.
   */
  public void afterCommit(Runnable action) {
    afterCommit.add(action);
  }

  /**
   * Commits what was buffered, then answers the client with {@code e}: HDFS's partial outcomes,
   * e.g. {@code mkdirs -p} that made some directories before a quota refused the next one, or a
   * create, append or truncate refused after it closed an abandoned file or started its block
   * recovery. The retry cache does not keep such an outcome: a retry of the call runs again.
   */
  public void failAfterCommit(java.io.IOException e) {
    failure = e;
  }

  java.io.IOException failure() {
    return failure;
  }

  void committed() {
    afterCommit.forEach(Runnable::run);
  }
}
