package io.hops.namenode.tx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.hops.dal.LockMode;
import io.hops.dal.Storage;
import io.hops.dal.Transaction;
import io.hops.dal.rows.InodeRow;
import io.hops.dal.rows.VariableRow;
import io.hops.namenode.HopsTestCluster;
import io.hops.namenode.Namesystem;
import io.hops.namenode.resolve.ResolvedPath;
import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.hadoop.fs.FileAlreadyExistsException;
import org.apache.hadoop.fs.Path;
import org.apache.hadoop.hdfs.DistributedFileSystem;
import org.apache.hadoop.ipc.RetriableException;
import org.junit.jupiter.api.Test;

/**
 * The runner retries a duplicate key only where it is a race that a retry resolves; a duplicate
 * that the next attempt meets again is answered at once, as HDFS would, instead of being retried
 * until the deadline and answered with RetriableException, which clients retry for ever.
 */
class DuplicateKeyRetryTest {

  private static void commit(Storage s, VariableRow row) throws IOException {
    try (Transaction tx = s.begin()) {
      tx.insert(VariableRow.TABLE, row);
      tx.commit();
    }
  }

  /** Inserts {@code row} without reading it first: as an operation over a damaged index would. */
  private static Operation<Void> blindInsert(AtomicInteger attempts, VariableRow row) {
    return new Operation<>() {
      @Override
      public String name() {
        return "blindInsert";
      }

      @Override
      protected void lock(LockPhase tx) {
        attempts.incrementAndGet();
      }

      @Override
      protected Void execute(ExecutePhase tx) throws IOException {
        tx.insert(VariableRow.TABLE, row);
        return null;
      }
    };
  }

  @Test
  void aDuplicateKeyThatTheRetryMeetsAgainIsAnsweredAtOnce() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      Namesystem ns = cluster.namenode().namesystem();
      commit(ns.storage(), new VariableRow("taken", 1, null));
      AtomicInteger attempts = new AtomicInteger();
      assertThatThrownBy(
              () -> ns.run(() -> blindInsert(attempts, new VariableRow("taken", 2, null))))
          .isInstanceOf(IOException.class)
          .isNotInstanceOf(RetriableException.class)
          .hasMessageContaining("blindInsert");
      assertThat(attempts).hasValue(2);
    }
  }

  @Test
  void anInodeWhoseParentAndNameAreTakenIsFileAlreadyExists() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster();
        DistributedFileSystem fs = cluster.client()) {
      fs.mkdirs(new Path("/taken"));
      Namesystem ns = cluster.namenode().namesystem();
      assertThatThrownBy(
              () ->
                  ns.run(
                      () ->
                          new Operation<Void>() {
                            private InodeRow existing;

                            @Override
                            public String name() {
                              return "insertAgain";
                            }

                            @Override
                            protected void lock(LockPhase tx) throws IOException {
                              ResolvedPath p =
                                  tx.resolve(
                                      "/taken", LockMode.READ_COMMITTED, LockMode.READ_COMMITTED);
                              existing = p.target();
                            }

                            @Override
                            protected Void execute(ExecutePhase tx) throws IOException {
                              tx.insert(InodeRow.TABLE, existing);
                              return null;
                            }
                          }))
          .isInstanceOf(FileAlreadyExistsException.class);
    }
  }

  /** A concurrent transaction inserts the row between this one's read and its commit. */
  @Test
  void aRaceIsRetriedAndTheRetryReadsTheWinnersRow() throws Exception {
    try (HopsTestCluster cluster = new HopsTestCluster()) {
      Namesystem ns = cluster.namenode().namesystem();
      AtomicInteger attempts = new AtomicInteger();
      long found =
          ns.run(
              () ->
                  new Operation<Long>() {
                    private VariableRow row;

                    @Override
                    public String name() {
                      return "insertIfAbsent";
                    }

                    @Override
                    protected void lock(LockPhase tx) throws IOException {
                      attempts.incrementAndGet();
                      row =
                          tx.find(
                              VariableRow.TABLE,
                              VariableRow.TABLE.key("raced"),
                              LockMode.READ_COMMITTED);
                    }

                    @Override
                    protected Long execute(ExecutePhase tx) throws IOException {
                      if (row != null) {
                        return row.longValue();
                      }
                      commit(ns.storage(), new VariableRow("raced", 7, null)); // the winner
                      tx.insert(VariableRow.TABLE, new VariableRow("raced", 8, null));
                      return 8L;
                    }
                  });
      assertThat(found).isEqualTo(7);
      assertThat(attempts).hasValue(2);
    }
  }
}
