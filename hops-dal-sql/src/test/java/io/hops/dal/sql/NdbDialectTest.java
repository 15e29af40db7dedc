package io.hops.dal.sql;

import static org.assertj.core.api.Assertions.assertThat;

import io.hops.dal.DuplicateKeyException;
import io.hops.dal.StorageException;
import io.hops.dal.TransientStorageException;
import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/**
 * How NDB's errors, as a SQL node reports them, are classified: temporary ones (node failure, time
 * out, overload), at a statement or at commit, are retried; permanent ones are not. No NDB Cluster
 * runs here, so the errors are built as MySQL's NDB handler words them (error code, message).
 */
class NdbDialectTest {
  private final NdbDialect ndb = new NdbDialect();
  private final MysqlDialect mysql = new MysqlDialect();

  private static SQLException error(int code, String message) {
    return new SQLException(message, "HY000", code);
  }

  /** Each SQL node answers NOW() from its own host: the cluster clock must not compare them. */
  @Test
  void eachSqlNodeKeepsAClockOfItsOwn() {
    assertThat(ndb.oneClock()).isFalse();
    assertThat(mysql.oneClock()).isTrue();
  }

  @Test
  void aCommitAbortedByANodeFailureIsRetried() {
    SQLException e =
        error(1180, "Got error 4010 'Node failure caused abort of transaction' during COMMIT");
    assertThat(ndb.classify("commit", e)).isInstanceOf(TransientStorageException.class);
    // MariaDB/InnoDB knows no such cause: the same code is a plain failure there.
    assertThat(mysql.classify("commit", e)).isNotInstanceOf(TransientStorageException.class);
  }

  @Test
  void overloadAndTimeOutAtCommitAreRetried() {
    for (String m :
        new String[] {
          "Got error 410 'REDO log files overloaded' during COMMIT",
          "Got error 237 'Transaction had timed out when trying to commit it' during COMMIT",
          "Got error 233 'Out of operation records in transaction coordinator' during COMMIT",
          "Got error 1220 'REDO log files overloaded (increase FragmentLogFileSize)' during COMMIT"
        }) {
      assertThat(ndb.classify("commit", error(1180, m)))
          .as(m)
          .isInstanceOf(TransientStorageException.class);
    }
  }

  @Test
  void ndbsOwnTemporaryErrorsAreRetriedAndPermanentOnesAreNot() {
    assertThat(
            ndb.classify(
                "read",
                error(
                    1297, "Got temporary error 4025 'Node failure caused abort' from NDBCLUSTER")))
        .isInstanceOf(TransientStorageException.class);
    assertThat(
            ndb.classify(
                "read",
                error(1296, "Got error 4350 'Transaction already aborted' from NDBCLUSTER")))
        .isNotInstanceOf(TransientStorageException.class);
    assertThat(
            ndb.classify(
                "read",
                error(
                    1296,
                    "Got error 270 'Transaction aborted due to node shutdown' from NDBCLUSTER")))
        .isInstanceOf(TransientStorageException.class);
    StorageException permanent =
        ndb.classify("commit", error(1180, "Got error 893 'Constraint violation' during COMMIT"));
    assertThat(permanent).isNotInstanceOf(TransientStorageException.class);
  }

  @Test
  void lockWaitsDeadlocksAndDuplicatesAreClassifiedAsOnInnodb() {
    // NDB's time-out in NDB (266, TransactionDeadlockDetectionTimeout) reaches SQL as 1205.
    assertThat(ndb.classify("lock", error(1205, "Lock wait timeout exceeded")))
        .isInstanceOf(TransientStorageException.class);
    assertThat(ndb.classify("lock", error(1213, "Deadlock found")))
        .isInstanceOf(TransientStorageException.class);
    assertThat(ndb.classify("insert", error(1062, "Duplicate entry")))
        .isInstanceOf(DuplicateKeyException.class);
  }
}
